// Tessera analysis board: a chess board (rules by chess.js) driving the
// engine's module Web Worker over UCI, one command per message and one output
// line per message (the stockfish.js contract).
//
// The engine is searched only from one place, `sync()`, which compares what
// the page wants (analysing or not, the position, the options) with what the
// engine is doing and sends the next command: `stop` while a search of a stale
// position runs, and once its `bestmove` has come, the options, `position fen
// … moves …` and `go infinite`. A new `go` is never sent before the previous
// search's `bestmove`. Every command posted to the worker, by this page or by a
// test through `window.tessera.engine.postMessage`, passes through `track()`,
// so the page always knows whether a search is running and of which position.

import { Chess, DEFAULT_POSITION } from './vendor/chess.js';

const $ = (id) => document.getElementById(id);
const FILES = 'abcdefgh';
const PIECE_NAMES = { p: 'pawn', n: 'knight', b: 'bishop', r: 'rook', q: 'queen', k: 'king' };
const isolated = self.crossOriginIsolated === true;
const cores = Math.max(1, navigator.hardwareConcurrency || 1);

// ---------------------------------------------------------------- pieces ---
// Simple pieces drawn for this page (no third-party artwork), 100×100 units.
const BASE = '<rect x="22" y="80" width="56" height="10" rx="3"/>';
const SHAPES = {
  p: `<path d="M32 81 Q34 64 42 56 H58 Q66 64 68 81 Z"/>
      <rect x="37" y="50" width="26" height="8" rx="3.5"/>
      <circle cx="50" cy="38" r="12"/>${BASE}`,
  r: `<path d="M33 73 L35.5 41 H64.5 L67 73 Z"/>
      <rect x="27" y="71" width="46" height="10" rx="2.5"/>
      <path d="M28 42 V17 H38 V25 H45.5 V17 H54.5 V25 H62 V17 H72 V42 Z"/>
      <path class="d" d="M36 42 H64" fill="none"/>${BASE}`,
  n: `<path d="M32 81 C30 70 36 62 44 55 C46 53 45 50 42 51 C38 55 32 57 26 59 C21 61 16 58 17 53
       L24 40 C28 32 34 26 41 23 L44 12 L50 21 C62 23 72 34 75 50 C77 61 77 71 76 81 Z"/>
      <circle class="d" cx="38" cy="34" r="2.8"/>
      <path class="d" d="M55 27 C64 33 69 44 70 58" fill="none"/>${BASE}`,
  b: `<path d="M50 22 C36 33 31 48 38 63 H62 C69 48 64 33 50 22 Z"/>
      <rect x="34" y="62" width="32" height="8" rx="3.5"/>
      <path d="M38 70 H62 L65 81 H35 Z"/>
      <circle cx="50" cy="17" r="6"/>
      <path class="d" d="M56 35 L45 51" fill="none"/>${BASE}`,
  q: `<path d="M29 81 L19 38 L33 60 L34 27 L43 56 L50 23 L57 56 L66 27 L67 60 L81 38 L71 81 Z"/>
      <circle cx="19" cy="36" r="5"/><circle cx="34" cy="25" r="5"/><circle cx="50" cy="20" r="5"/>
      <circle cx="66" cy="25" r="5"/><circle cx="81" cy="36" r="5"/>
      <path class="d" d="M30 72 H70" fill="none"/>${BASE}`,
  k: `<path d="M47 10 H53 V17 H60 V23 H53 V34 H47 V23 H40 V17 H47 Z"/>
      <path d="M29 81 C20 63 22 46 35 44 C42 43 47 48 50 55 C53 48 58 43 65 44 C78 46 80 63 71 81 Z"/>
      <path d="M41 50 C41 38 59 38 59 50 L50 58 Z"/>
      <path class="d" d="M31 72 H69" fill="none"/>${BASE}`,
};
function pieceSvg(color, type) {
  return `<svg class="piece ${color}" viewBox="0 0 100 100" aria-hidden="true"><g>${SHAPES[type]}</g></svg>`;
}

// ------------------------------------------------------------------ game ---
const game = {
  startFen: DEFAULT_POSITION,
  history: [], // chess.js verbose moves from startFen
  ply: 0, // the board shows the position after history[0 .. ply)
  chess: new Chess(),
  flipped: false,
  selected: null,
};

function positionKey(fen) {
  return fen ? fen.split(' ').slice(0, 4).join(' ') : '';
}
function currentFen() {
  return game.chess.fen();
}
function rebuild() {
  const c = new Chess(game.startFen);
  for (let i = 0; i < game.ply; i++) c.move(game.history[i]);
  game.chess = c;
}

// Parses and checks a FEN; returns { fen } or { error }.
function checkFen(text) {
  const fen = text.trim().replace(/\s+/g, ' ');
  if (!fen) return { error: 'Paste a FEN first.' };
  const c = new Chess();
  try {
    c.load(fen); // also accepts FENs without the clocks
  } catch (e) {
    return { error: String(e.message || e).replace(/^Invalid FEN: /, 'Invalid FEN: ') };
  }
  c.setCastlingRights('w', {}); // drops castling rights with no king or rook in place
  c.setCastlingRights('b', {});
  const them = c.turn() === 'w' ? 'b' : 'w';
  const [king] = c.findPiece({ type: 'k', color: them });
  if (king && c.isAttacked(king, c.turn())) {
    return { error: `Illegal position: the side not to move (${them === 'w' ? 'White' : 'Black'}) is in check.` };
  }
  return { fen: c.fen() };
}

function setPosition(fen) {
  game.startFen = fen;
  game.history = [];
  game.ply = 0;
  game.selected = null;
  engine.newGame = true;
  rebuild();
  positionChanged();
}

function playMove(move) {
  let made;
  try {
    made = game.chess.move(move);
  } catch {
    return false;
  }
  const next = game.history[game.ply];
  if (!(next && next.lan === made.lan)) {
    game.history.length = game.ply;
    game.history.push(made);
  }
  game.ply++;
  game.selected = null;
  positionChanged();
  return true;
}

function goTo(ply) {
  ply = Math.max(0, Math.min(game.history.length, ply));
  if (ply === game.ply) return;
  game.ply = ply;
  game.selected = null;
  rebuild();
  positionChanged();
}

// Takes back the move that led to the shown position, and drops the moves after it.
function undo() {
  if (game.ply === 0) return;
  game.ply--;
  game.history.length = game.ply;
  game.selected = null;
  rebuild();
  positionChanged();
}

function positionChanged() {
  renderBoard();
  renderMoves();
  const fenInput = $('fen');
  if (document.activeElement !== fenInput) fenInput.value = currentFen();
  $('fen-error').textContent = '';
  scheduleRender();
  sync();
}

// ----------------------------------------------------------------- board ---
const boardEl = $('board');
const squares = new Map(); // 'e4' -> element

function buildBoard() {
  for (let i = 0; i < 64; i++) {
    const el = document.createElement('button');
    el.type = 'button';
    el.className = 'sq';
    el.setAttribute('role', 'gridcell');
    boardEl.append(el);
  }
}

// The square name shown at grid cell i (0 = top left).
function squareAt(i) {
  const row = Math.floor(i / 8), col = i % 8;
  const file = game.flipped ? 7 - col : col;
  const rank = game.flipped ? row + 1 : 8 - row;
  return FILES[file] + rank;
}
// Board coordinates (0..8, top left origin) of a square's centre.
function squareCentre(sq) {
  const file = FILES.indexOf(sq[0]), rank = Number(sq[1]);
  const x = game.flipped ? 7 - file : file;
  const y = game.flipped ? rank - 1 : 8 - rank;
  return [x + 0.5, y + 0.5];
}

function renderBoard() {
  const c = game.chess;
  const last = game.ply > 0 ? game.history[game.ply - 1] : null;
  const targets = new Map();
  if (game.selected) {
    for (const m of c.moves({ square: game.selected, verbose: true })) targets.set(m.to, m);
  }
  let checkSq = null;
  if (c.inCheck()) [checkSq] = c.findPiece({ type: 'k', color: c.turn() });
  squares.clear();
  [...boardEl.children].forEach((el, i) => {
    const sq = squareAt(i);
    squares.set(sq, el);
    const file = FILES.indexOf(sq[0]), rank = Number(sq[1]);
    const light = (file + rank) % 2 === 1;
    const piece = c.get(sq);
    const cls = ['sq', light ? 'light' : 'dark'];
    if (last && (sq === last.from || sq === last.to)) cls.push('last');
    if (sq === game.selected) cls.push('selected');
    if (targets.has(sq)) cls.push(piece ? 'capture' : 'target');
    if (sq === checkSq) cls.push('check');
    el.className = cls.join(' ');
    el.dataset.square = sq;
    el.setAttribute('aria-label',
      sq + (piece ? `, ${piece.color === 'w' ? 'white' : 'black'} ${PIECE_NAMES[piece.type]}` : ''));
    el.setAttribute('aria-selected', sq === game.selected ? 'true' : 'false');
    let html = piece ? pieceSvg(piece.color, piece.type) : '';
    const col = i % 8, row = Math.floor(i / 8);
    if (col === 0) html += `<span class="coord rank">${sq[1]}</span>`;
    if (row === 7) html += `<span class="coord file">${sq[0]}</span>`;
    el.innerHTML = html;
  });
}

// -- input: click a piece then a square, or drag it ---------------------------
let press = null; // { from, x, y, wasSelected, ghost, pointerId }

function squareFromPoint(x, y) {
  const r = boardEl.getBoundingClientRect();
  const col = Math.floor(((x - r.left) / r.width) * 8);
  const row = Math.floor(((y - r.top) / r.height) * 8);
  if (col < 0 || col > 7 || row < 0 || row > 7) return null;
  return squareAt(row * 8 + col);
}

function ownPiece(sq) {
  const p = game.chess.get(sq);
  return p && p.color === game.chess.turn();
}

function select(sq) {
  game.selected = sq;
  renderBoard();
}

// A click (or tap, or keyboard activation) on a square.
function clickSquare(sq) {
  if (game.selected && game.selected !== sq && tryMove(game.selected, sq)) return;
  if (ownPiece(sq) && game.selected !== sq) select(sq);
  else select(null);
}

// Makes the move from → to if legal, asking for the promotion piece if needed.
function tryMove(from, to) {
  const moves = game.chess.moves({ square: from, verbose: true }).filter((m) => m.to === to);
  if (!moves.length) return false;
  if (moves.some((m) => m.promotion)) askPromotion(from, to);
  else playMove({ from, to });
  return true;
}

boardEl.addEventListener('pointerdown', (e) => {
  if (e.button !== 0 || !$('promotion').hidden) return;
  const sq = squareFromPoint(e.clientX, e.clientY);
  if (!sq) return;
  e.preventDefault();
  if (game.selected && game.selected !== sq && tryMove(game.selected, sq)) return;
  if (!ownPiece(sq)) { select(null); return; }
  const wasSelected = game.selected === sq;
  select(sq);
  press = { from: sq, x: e.clientX, y: e.clientY, wasSelected, ghost: null, pointerId: e.pointerId };
  boardEl.setPointerCapture(e.pointerId);
});

boardEl.addEventListener('pointermove', (e) => {
  if (!press || e.pointerId !== press.pointerId) return;
  if (!press.ghost) {
    if (Math.hypot(e.clientX - press.x, e.clientY - press.y) < 4) return;
    const el = squares.get(press.from);
    const svg = el.querySelector('svg.piece');
    if (!svg) return;
    const size = el.getBoundingClientRect().width;
    press.ghost = svg.cloneNode(true);
    press.ghost.classList.add('ghost');
    press.ghost.style.width = press.ghost.style.height = `${size}px`;
    document.body.append(press.ghost);
    el.classList.add('dragging');
    press.size = size;
  }
  press.ghost.style.transform =
    `translate(${e.clientX - press.size / 2}px, ${e.clientY - press.size / 2}px)`;
  const over = squareFromPoint(e.clientX, e.clientY);
  for (const [sq, el] of squares) el.classList.toggle('hover', sq === over && sq !== press.from);
});

function endPress(e, cancelled) {
  if (!press || e.pointerId !== press.pointerId) return;
  const p = press;
  press = null;
  if (p.ghost) {
    p.ghost.remove();
    for (const el of squares.values()) el.classList.remove('hover', 'dragging');
    const to = cancelled ? null : squareFromPoint(e.clientX, e.clientY);
    if (to && to !== p.from && tryMove(p.from, to)) return;
    if (to !== p.from) select(null);
    return;
  }
  if (p.wasSelected) select(null); // a second click on the selected piece
}
boardEl.addEventListener('pointerup', (e) => endPress(e, false));
boardEl.addEventListener('pointercancel', (e) => endPress(e, true));
// Keyboard activation of a square button (mouse clicks are the pointer events above).
boardEl.addEventListener('click', (e) => {
  if (e.detail !== 0) return;
  const el = e.target.closest('.sq');
  if (el) clickSquare(el.dataset.square);
});

// -- promotion --------------------------------------------------------------
function askPromotion(from, to) {
  const box = $('promotion');
  const color = game.chess.turn();
  const [cx, cy] = squareCentre(to);
  const down = cy < 4; // the chooser grows away from the edge
  box.innerHTML = '';
  box.style.left = `${(cx - 0.5) * 12.5}%`;
  box.style.top = down ? `${(cy - 0.5) * 12.5}%` : '';
  box.style.bottom = down ? '' : `${(8 - cy - 0.5) * 12.5}%`;
  box.classList.toggle('up', !down);
  for (const t of ['q', 'n', 'r', 'b']) {
    const b = document.createElement('button');
    b.type = 'button';
    b.className = 'promo';
    b.setAttribute('aria-label', `Promote to ${PIECE_NAMES[t]}`);
    b.innerHTML = pieceSvg(color, t);
    b.addEventListener('click', () => { closePromotion(); playMove({ from, to, promotion: t }); });
    box.append(b);
  }
  const cancel = document.createElement('button');
  cancel.type = 'button';
  cancel.className = 'promo cancel';
  cancel.textContent = '✕';
  cancel.setAttribute('aria-label', 'Cancel the promotion');
  cancel.addEventListener('click', () => { closePromotion(); select(null); });
  box.append(cancel);
  box.hidden = false;
  box.querySelector('button').focus();
}
function closePromotion() {
  $('promotion').hidden = true;
  $('promotion').innerHTML = '';
}

// ---------------------------------------------------------------- moves ---
function renderMoves() {
  const ol = $('moves');
  ol.innerHTML = '';
  const start = new Chess(game.startFen);
  let number = start.moveNumber();
  let li = null;
  game.history.forEach((m, i) => {
    if (m.color === 'w' || !li) {
      li = document.createElement('li');
      const num = document.createElement('span');
      num.className = 'num';
      num.textContent = m.color === 'w' ? `${number}.` : `${number}…`;
      li.append(num);
      if (m.color === 'b') li.append(document.createElement('span')); // White's empty cell
      ol.append(li);
    }
    const b = document.createElement('button');
    b.type = 'button';
    b.className = 'mv' + (i + 1 === game.ply ? ' current' : '');
    b.textContent = m.san;
    b.dataset.ply = String(i + 1);
    b.addEventListener('click', () => goTo(i + 1));
    li.append(b);
    if (m.color === 'b') { number++; li = null; }
  });
  const cur = ol.querySelector('.current');
  if (cur) { // scroll the list only, never the page
    const top = cur.offsetTop - ol.offsetTop;
    if (top < ol.scrollTop) ol.scrollTop = top;
    else if (top + cur.offsetHeight > ol.scrollTop + ol.clientHeight) {
      ol.scrollTop = top + cur.offsetHeight - ol.clientHeight;
    }
  }
  const c = game.chess;
  let result = '';
  if (c.isCheckmate()) result = `Checkmate — ${c.turn() === 'w' ? 'Black' : 'White'} wins.`;
  else if (c.isStalemate()) result = 'Stalemate — draw.';
  else if (c.isInsufficientMaterial()) result = 'Draw by insufficient material.';
  else if (c.isThreefoldRepetition()) result = 'Threefold repetition.';
  else if (c.isDrawByFiftyMoves()) result = 'Fifty-move rule.';
  $('game-result').textContent = result;
  $('back').disabled = $('first').disabled = game.ply === 0;
  $('forward').disabled = $('last').disabled = game.ply === game.history.length;
  $('undo').disabled = game.ply === 0;
}

// --------------------------------------------------------------- engine ---
const engine = {
  worker: null,
  lines: [], // every line received, in order
  sent: [], // every command sent, in order
  log: [], // the last lines of both, for the log panel
  name: '',
  options: {}, // declared by the engine: lowercase name -> { name, type, default, min, max }
  values: {}, // the last value sent per option (lowercase name)
  uciok: false,
  ready: false,
  failed: '',
  searching: false,
  pageSearch: false, // the running search was started by this page
  stopSent: false,
  positionFen: null, // the position of the last `position` command
  goFen: null, // the position of the running (or last) search
  doneKey: null, // a page search that ended by itself: don't search it again
  analysing: false, // the user wants analysis
  newGame: true,
  pv: [], // [multipv-1] -> { depth, seldepth, score, bound, nodes, nps, time, hashfull, pv }
  lastInfo: null,
  bestmove: '',
  searchStart: 0,
  goWhileSearching: 0,
};

function logLine(text, out) {
  engine.log.push({ text, out });
  if (engine.log.length > 1500) engine.log.splice(0, 500);
  logDirty = true;
  scheduleRender();
}

// Sends a UCI command (through the tracking wrapper installed in startEngine).
function send(cmd) {
  if (engine.worker) engine.worker.postMessage(cmd);
}

// Keeps the page's view of the engine in step with every command sent to it.
function track(cmd) {
  const text = String(cmd);
  engine.sent.push(text);
  logLine(text, true);
  const t = text.trim().split(/\s+/);
  switch (t[0]) {
    case 'position':
      engine.positionFen = fenOfPositionCommand(t);
      break;
    case 'go':
      if (engine.searching) engine.goWhileSearching++; // a UCI misuse: counted for the tests
      engine.searching = true;
      engine.pageSearch = inPageSend;
      engine.stopSent = false;
      engine.goFen = engine.positionFen || DEFAULT_POSITION;
      engine.pv = [];
      engine.lastInfo = null;
      engine.bestmove = '';
      engine.searchStart = performance.now();
      break;
    case 'stop':
      if (engine.searching) engine.stopSent = true;
      break;
    case 'ucinewgame':
      engine.doneKey = null;
      break;
    case 'setoption': {
      const m = /^setoption\s+name\s+(.+?)(?:\s+value\s+(.*))?$/i.exec(text.trim());
      if (m) {
        const key = m[1].toLowerCase();
        engine.values[key] = m[2] ?? '';
        const ctl = { threads: 'threads', multipv: 'multipv', hash: 'hash' }[key];
        if (ctl && !inPageSend) setSelect($(ctl), m[2]); // a test or the console changed it
        engine.doneKey = null;
      }
      break;
    }
  }
  scheduleRender();
}
let inPageSend = false;

function fenOfPositionCommand(t) {
  let i = 1, fen = DEFAULT_POSITION;
  if (t[1] === 'fen') {
    const end = t.indexOf('moves');
    fen = t.slice(2, end < 0 ? undefined : end).join(' ');
    i = end < 0 ? t.length : end;
  } else {
    i = t.indexOf('moves');
    if (i < 0) i = t.length;
  }
  let c;
  try { c = new Chess(fen); } catch { return fen; }
  for (const m of t.slice(i + 1)) {
    try { c.move(uciMove(m)); } catch { break; }
  }
  return c.fen();
}

function uciMove(m) {
  const mv = { from: m.slice(0, 2), to: m.slice(2, 4) };
  if (m.length > 4) mv.promotion = m[4].toLowerCase();
  return mv;
}

function receive(line) {
  engine.lines.push(line);
  if (engine.lines.length > 400000) engine.lines.splice(0, 200000);
  logLine(line, false);
  // The worker reports its own failures (no cross-origin isolation, no
  // tessera.wasm, a crashed thread) as `info string error: …`.
  const error = /^info string error:?\s*(.*)$/.exec(line);
  if (error) engineFailed(error[1] || line);
  const t = line.trim().split(/\s+/);
  switch (t[0]) {
    case 'id':
      if (t[1] === 'name') engine.name = t.slice(2).join(' ');
      break;
    case 'option':
      parseOption(line);
      break;
    case 'uciok':
      engine.uciok = true;
      setupControls();
      send('isready');
      break;
    case 'readyok':
      if (!engine.ready) {
        engine.ready = true;
        $('analyse').disabled = false;
      }
      sync();
      break;
    case 'info':
      parseInfo(t);
      break;
    case 'bestmove':
      engine.searching = false;
      engine.bestmove = t[1] || '';
      if (engine.pageSearch && !engine.stopSent) engine.doneKey = positionKey(engine.goFen) + optionsKey();
      engine.stopSent = false;
      sync();
      break;
  }
  scheduleRender();
}

function parseOption(line) {
  const m = /^option\s+name\s+(.+?)\s+type\s+(\S+)(.*)$/.exec(line.trim());
  if (!m) return;
  const o = { name: m[1], type: m[2] };
  const rest = m[3];
  for (const k of ['default', 'min', 'max']) {
    const v = new RegExp(`\\b${k}\\s+(\\S+)`).exec(rest);
    if (v) o[k] = v[1];
  }
  engine.options[o.name.toLowerCase()] = o;
}

function parseInfo(t) {
  if (!t.includes('pv') || !t.includes('score')) {
    const d = t.indexOf('depth');
    if (d > 0 && engine.lastInfo) engine.lastInfo.currentDepth = Number(t[d + 1]);
    return;
  }
  const info = { multipv: 1, bound: '' };
  for (let i = 1; i < t.length; i++) {
    const k = t[i];
    switch (k) {
      case 'depth': case 'seldepth': case 'multipv': case 'nodes': case 'nps':
      case 'hashfull': case 'tbhits': case 'time':
        info[k] = Number(t[++i]);
        break;
      case 'score':
        info.score = { kind: t[i + 1], value: Number(t[i + 2]) };
        i += 2;
        break;
      case 'lowerbound': case 'upperbound':
        info.bound = k;
        break;
      case 'pv':
        info.pv = t.slice(i + 1);
        i = t.length;
        break;
      case 'string':
        return;
    }
  }
  if (!info.pv || !info.pv.length || !info.score) return;
  engine.pv[info.multipv - 1] = info;
  engine.lastInfo = info;
}

// -- options and controls ---------------------------------------------------
const store = {
  get(k, d) { try { return localStorage.getItem(`tessera.${k}`) ?? d; } catch { return d; } },
  set(k, v) { try { localStorage.setItem(`tessera.${k}`, String(v)); } catch { /* private mode */ } },
};

function setSelect(sel, value) {
  const v = String(value);
  if (![...sel.options].some((o) => o.value === v)) {
    const o = document.createElement('option');
    o.value = o.textContent = v;
    sel.append(o);
  }
  sel.value = v;
}

function fillSelect(sel, values, label = (v) => String(v)) {
  sel.innerHTML = '';
  for (const v of values) {
    const o = document.createElement('option');
    o.value = String(v);
    o.textContent = label(v);
    sel.append(o);
  }
}

function optionMax(name, fallback) {
  const o = engine.options[name];
  return o && o.max !== undefined ? Number(o.max) : fallback;
}

function setupControls() {
  // Threads: 1 .. the cores, and only with a cross-origin isolated page.
  const maxThreads = Math.max(1, Math.min(cores, optionMax('threads', cores)));
  fillSelect($('threads'), Array.from({ length: maxThreads }, (_, i) => i + 1));
  if (!isolated) {
    isolationNote();
  } else {
    const dflt = Math.ceil(maxThreads / 2);
    $('threads').value = String(Math.min(maxThreads, Number(store.get('threads', dflt)) || dflt));
  }
  const maxPv = Math.min(5, optionMax('multipv', 5));
  fillSelect($('multipv'), Array.from({ length: maxPv }, (_, i) => i + 1));
  $('multipv').value = String(Math.min(maxPv, Number(store.get('multipv', 1)) || 1));
  const maxHash = optionMax('hash', 1024);
  const sizes = [16, 32, 64, 128, 256, 512, 1024].filter((s) => s <= maxHash);
  fillSelect($('hash'), sizes, (s) => `${s} MB`);
  const h = Number(store.get('hash', 64));
  $('hash').value = String(sizes.includes(h) ? h : Math.min(64, sizes[sizes.length - 1] || 16));
  sync();
}

// Without cross-origin isolation there is no shared memory, hence one thread.
function isolationNote() {
  if (isolated) return;
  if (!$('threads').options.length) fillSelect($('threads'), [1]);
  $('threads').value = '1';
  $('threads').disabled = true;
  const note = $('threads-note');
  note.hidden = false;
  note.textContent = 'Threads: 1. This page is not cross-origin isolated; more threads (shared ' +
    'memory) need the headers Cross-Origin-Opener-Policy: same-origin and ' +
    'Cross-Origin-Embedder-Policy: require-corp.';
}

// The option values the page wants, for the options the engine declared.
function wantedOptions() {
  const want = {};
  if (engine.options.threads) want.Threads = isolated ? $('threads').value : '1';
  if (engine.options.multipv) want.MultiPV = $('multipv').value;
  if (engine.options.hash) want.Hash = $('hash').value;
  return want;
}
function optionsKey() {
  return JSON.stringify(wantedOptions());
}
function optionsStale() {
  return Object.entries(wantedOptions()).some(([k, v]) => engine.values[k.toLowerCase()] !== v);
}

for (const id of ['threads', 'multipv', 'hash']) {
  $(id).addEventListener('change', () => {
    store.set(id, $(id).value);
    sync();
    scheduleRender();
  });
}

// -- the one place that decides what to send --------------------------------
function sync() {
  if (!engine.ready || !engine.worker) return;
  const fen = currentFen();
  const key = positionKey(fen);
  if (engine.searching) {
    const stale = !engine.analysing || positionKey(engine.goFen) !== key || optionsStale();
    if (engine.pageSearch && stale && !engine.stopSent) sendFromPage('stop');
    else if (!engine.pageSearch && !engine.analysing && userStop && !engine.stopSent) sendFromPage('stop');
    userStop = false;
    return;
  }
  userStop = false;
  const over = game.chess.moves().length === 0;
  if (!engine.analysing || over || engine.doneKey === key + optionsKey()) {
    // Idle: still hand over changed options, so they are in place for the next search.
    if (optionsStale()) flushOptions();
    return;
  }
  flushOptions();
  if (engine.newGame) {
    sendFromPage('ucinewgame');
    engine.newGame = false;
  }
  const moves = game.history.slice(0, game.ply).map((m) => m.lan);
  sendFromPage(`position fen ${game.startFen}${moves.length ? ' moves ' + moves.join(' ') : ''}`);
  sendFromPage('go infinite');
}
let userStop = false;

function flushOptions() {
  for (const [k, v] of Object.entries(wantedOptions())) {
    if (engine.values[k.toLowerCase()] !== v) sendFromPage(`setoption name ${k} value ${v}`);
  }
}

function sendFromPage(cmd) {
  inPageSend = true;
  try { send(cmd); } finally { inPageSend = false; }
}

function setAnalysing(on) {
  engine.analysing = on;
  if (!on) userStop = true;
  engine.doneKey = null;
  const b = $('analyse');
  b.textContent = on ? 'Stop' : 'Analyse';
  b.setAttribute('aria-pressed', on ? 'true' : 'false');
  b.classList.toggle('running', on);
  sync();
  scheduleRender();
}
$('analyse').addEventListener('click', () => setAnalysing(!engine.analysing));

function startEngine() {
  let worker;
  try {
    worker = new Worker(new URL('./tessera.worker.js', import.meta.url), { type: 'module' });
  } catch (e) {
    engineFailed(`the worker could not be created: ${e.message || e}`);
    return;
  }
  // Every command, whoever posts it, goes through track() first.
  const post = worker.postMessage.bind(worker);
  worker.postMessage = (msg, ...rest) => { track(msg); return post(msg, ...rest); };
  worker.addEventListener('message', (e) => {
    const data = typeof e.data === 'string' ? e.data : String(e.data);
    for (const line of data.split('\n')) if (line.length) receive(line.replace(/\r$/, ''));
  });
  worker.addEventListener('error', (e) => {
    e.preventDefault?.();
    engineFailed(e.message || 'the worker failed to load or crashed');
  });
  worker.addEventListener('messageerror', () => engineFailed('a message from the worker could not be read'));
  engine.worker = worker;
  sendFromPage('uci');
  setTimeout(() => {
    if (!engine.uciok && !engine.failed) engineFailed('no answer to "uci" after 60 s');
  }, 60000);
}

function engineFailed(why) {
  if (engine.failed) return;
  engine.failed = why;
  console.error(`Tessera engine: ${why}`);
  logLine(`[page] engine failure: ${why}`, false);
  $('analyse').disabled = true;
  scheduleRender();
}

// --------------------------------------------------------------- output ---
// A score from White's point of view: { text, cp (for the bar), mate }.
function whiteScore(info, fen) {
  const flip = fen.split(' ')[1] === 'b' ? -1 : 1;
  let bound = info.bound;
  if (flip < 0 && bound) bound = bound === 'lowerbound' ? 'upperbound' : 'lowerbound';
  const mark = bound === 'lowerbound' ? '≥' : bound === 'upperbound' ? '≤' : '';
  if (info.score.kind === 'mate') {
    const n = info.score.value * flip;
    return { text: `${mark}#${n < 0 ? '-' : ''}${Math.abs(n)}`, cp: n > 0 ? 10000 : n < 0 ? -10000 : 0, mate: true, bound };
  }
  const cp = info.score.value * flip;
  const sign = cp > 0 ? '+' : cp < 0 ? '−' : '';
  return { text: `${mark}${sign}${(Math.abs(cp) / 100).toFixed(2)}`, cp, mate: false, bound };
}

// The pv (UCI moves) as SAN from fen, with move numbers; stops at an illegal move.
const sanCache = new Map();
function pvToSan(fen, pv) {
  const key = fen + '|' + pv.join(' ');
  let hit = sanCache.get(key);
  if (!hit) {
    if (sanCache.size > 500) sanCache.clear();
    hit = pvToSanUncached(fen, pv);
    sanCache.set(key, hit);
  }
  return hit;
}
function pvToSanUncached(fen, pv) {
  const c = new Chess(fen);
  const out = [];
  for (const m of pv) {
    let made;
    try { made = c.move(uciMove(m)); } catch { break; }
    out.push({ san: made.san, color: made.color, number: Number(made.before.split(' ')[5]), uci: m });
  }
  return out;
}
function sanText(moves) {
  return moves.map((m, i) =>
    (m.color === 'w' ? `${m.number}. ` : i === 0 ? `${m.number}… ` : '') + m.san).join(' ');
}

function fmtCount(n) {
  if (n >= 1e9) return `${(n / 1e9).toFixed(2)}G`;
  if (n >= 1e6) return `${(n / 1e6).toFixed(n >= 1e8 ? 0 : 1)}M`;
  if (n >= 1e3) return `${(n / 1e3).toFixed(n >= 1e5 ? 0 : 1)}k`;
  return String(n);
}
function fmtNps(n) {
  if (!n && n !== 0) return '';
  if (n >= 1e6) return `${(n / 1e6).toFixed(2)} Mn/s`;
  return `${Math.round(n / 1e3)} kn/s`;
}

function currentLines() {
  // The engine's lines, if they are about the position on the board.
  if (!engine.goFen || positionKey(engine.goFen) !== positionKey(currentFen())) return [];
  return engine.pv.filter(Boolean).slice(0, Math.max(1, Number($('multipv').value) || 1));
}

function bestLine() {
  const l = currentLines()[0];
  return l ? l.pv.join(' ') : '';
}

let renderQueued = false;
let logDirty = false;
function scheduleRender() {
  if (renderQueued) return;
  renderQueued = true;
  requestAnimationFrame(() => {
    renderQueued = false;
    renderEngine();
  });
}

function renderEngine() {
  const fen = currentFen();
  const lines = currentLines();

  // Status: engine name, threads, isolation, state.
  const threads = engine.values.threads || (isolated ? $('threads').value : '1');
  const parts = [];
  parts.push(engine.name || 'Tessera');
  if (engine.failed) parts.push(`failed: ${engine.failed}`);
  else if (!engine.uciok) parts.push('loading…');
  else parts.push(`${threads} thread${threads === '1' ? '' : 's'}`);
  parts.push(isolated ? 'cross-origin isolated' : 'not cross-origin isolated');
  if (engine.ready) parts.push(engine.searching ? (engine.stopSent ? 'stopping…' : 'searching') : 'idle');
  $('status').textContent = parts.join(' · ');
  $('status').classList.toggle('failed', !!engine.failed);

  // Search summary.
  const top = lines[0];
  const info = $('search-info');
  if (engine.failed) {
    info.textContent = `The engine is not available: ${engine.failed}`;
  } else if (top) {
    const secs = (top.time ?? 0) / 1000;
    info.textContent = `depth ${top.depth}${top.seldepth ? '/' + top.seldepth : ''} · ` +
      `${fmtCount(top.nodes ?? 0)} nodes · ${fmtNps(top.nps)} · ${secs.toFixed(1)} s` +
      (top.hashfull !== undefined ? ` · hash ${Math.round(top.hashfull / 10)}%` : '');
  } else if (engine.analysing && game.chess.moves().length === 0) {
    info.textContent = 'No legal moves: nothing to analyse.';
  } else if (engine.analysing && engine.searching) {
    info.textContent = 'Searching…';
  } else {
    info.textContent = engine.ready ? 'Press Analyse to start the engine on this position.' : '';
  }

  // The lines.
  const ol = $('pv-lines');
  const rows = lines.map((l) => {
    const s = whiteScore(l, engine.goFen);
    const moves = pvToSan(engine.goFen, l.pv);
    return { l, s, moves };
  });
  while (ol.children.length > rows.length) ol.lastChild.remove();
  rows.forEach(({ l, s, moves }, i) => {
    let li = ol.children[i];
    if (!li) {
      li = document.createElement('li');
      li.innerHTML = '<span class="score"></span><span class="meta"></span><span class="line"></span>';
      ol.append(li);
    }
    const score = li.children[0];
    score.textContent = s.text;
    score.className = 'score ' + (s.cp > 0 ? 'pos' : s.cp < 0 ? 'neg' : 'even');
    li.children[1].textContent = `d${l.depth} · ${fmtNps(l.nps)}`;
    const lineEl = li.children[2];
    const key = l.pv.join(' ') + '|' + engine.goFen;
    if (lineEl.dataset.key !== key) {
      lineEl.dataset.key = key;
      lineEl.innerHTML = '';
      moves.forEach((m, j) => {
        if (m.color === 'w' || j === 0) {
          const n = document.createElement('span');
          n.className = 'num';
          n.textContent = m.color === 'w' ? `${m.number}.` : `${m.number}…`;
          lineEl.append(n);
        }
        const b = document.createElement('button');
        b.type = 'button';
        b.className = 'pvmove';
        b.textContent = m.san;
        b.title = 'Play the line up to this move';
        b.addEventListener('click', () => playLine(moves.slice(0, j + 1).map((x) => x.uci)));
        lineEl.append(b);
      });
    }
  });

  const best = rows[0];
  $('best-line').textContent = best ? sanText(best.moves) : '';
  $('play-best').disabled = !best;

  renderEval(rows[0]?.s);
  renderArrows(rows);

  if (logDirty && $('log-panel').open && performance.now() - lastLogRender > 250) renderLog();
  else if (logDirty && $('log-panel').open && !logTimer) {
    logTimer = setTimeout(() => { logTimer = 0; scheduleRender(); }, 260);
  }
  $('log-count').textContent = `(${engine.lines.length} lines received)`;
}

function playLine(uciMoves) {
  for (const m of uciMoves) if (!playMove(uciMove(m))) break;
}

function renderEval(s) {
  const bar = $('evalbar');
  const fill = bar.querySelector('.evalbar-fill');
  const label = bar.querySelector('.evalbar-label');
  let white = 50;
  if (s) white = s.mate ? (s.cp > 0 ? 100 : 0) : 50 + 50 * (2 / (1 + Math.exp(-0.004 * s.cp)) - 1);
  fill.style.height = `${white}%`;
  bar.classList.toggle('flipped', game.flipped);
  label.textContent = !s ? '' : s.mate ? s.text.replace(/^[≥≤]/, '')
    : `${s.cp > 0 ? '+' : s.cp < 0 ? '−' : ''}${(Math.abs(s.cp) / 100).toFixed(1)}`;
  label.classList.toggle('top', s ? s.cp < 0 : false);
}

const SVGNS = 'http://www.w3.org/2000/svg';
function arrowShape(from, to, width, head) {
  const [x1, y1] = squareCentre(from);
  const [x2, y2] = squareCentre(to);
  const dx = x2 - x1, dy = y2 - y1;
  const len = Math.hypot(dx, dy);
  const ux = dx / len, uy = dy / len, nx = -uy, ny = ux;
  const sx = x1 + ux * 0.15, sy = y1 + uy * 0.15; // leave the piece visible
  const ex = x2 - ux * 0.05, ey = y2 - uy * 0.05;
  const bx = ex - ux * head, by = ey - uy * head;
  const w = width / 2, h = head * 0.62;
  const pts = [
    [sx + nx * w, sy + ny * w], [bx + nx * w, by + ny * w], [bx + nx * h, by + ny * h],
    [ex, ey], [bx - nx * h, by - ny * h], [bx - nx * w, by - ny * w], [sx - nx * w, sy - ny * w],
  ];
  const p = document.createElementNS(SVGNS, 'polygon');
  p.setAttribute('points', pts.map(([x, y]) => `${x.toFixed(3)},${y.toFixed(3)}`).join(' '));
  return p;
}

function renderArrows(rows) {
  const svg = $('arrows');
  svg.innerHTML = '';
  const add = (uci, cls, width, head) => {
    if (!uci || uci.length < 4) return;
    const p = arrowShape(uci.slice(0, 2), uci.slice(2, 4), width, head);
    p.setAttribute('class', cls);
    svg.append(p);
  };
  // Other MultiPV lines' first moves, thin, under the best line's arrows.
  const seen = new Set();
  const first = rows[0]?.moves[0]?.uci;
  rows.slice(1).forEach((r, i) => {
    const m = r.moves[0]?.uci;
    if (m && m !== first && !seen.has(m)) {
      seen.add(m);
      add(m, `arrow alt alt${Math.min(i + 1, 4)}`, 0.1, 0.3);
    }
  });
  if (rows[0]) {
    const reply = rows[0].moves[1]?.uci;
    if (reply) add(reply, 'arrow reply', 0.14, 0.36);
    add(first, 'arrow best', 0.2, 0.45);
  }
}

let lastLogRender = 0, logTimer = 0;
function renderLog() {
  logDirty = false;
  lastLogRender = performance.now();
  const pre = $('log');
  const atBottom = pre.scrollTop + pre.clientHeight >= pre.scrollHeight - 20;
  const frag = document.createDocumentFragment();
  for (const { text, out } of engine.log.slice(-600)) {
    const span = document.createElement('span');
    span.className = out ? 'out' : 'in';
    span.textContent = (out ? '› ' : '') + text + '\n';
    frag.append(span);
  }
  pre.replaceChildren(frag);
  if (atBottom) pre.scrollTop = pre.scrollHeight;
}
$('log-panel').addEventListener('toggle', () => { logDirty = true; scheduleRender(); });

// ------------------------------------------------------------ controls ---
$('first').addEventListener('click', () => goTo(0));
$('back').addEventListener('click', () => goTo(game.ply - 1));
$('forward').addEventListener('click', () => goTo(game.ply + 1));
$('last').addEventListener('click', () => goTo(game.history.length));
$('undo').addEventListener('click', undo);
$('flip').addEventListener('click', flip);
$('new-game').addEventListener('click', () => setPosition(DEFAULT_POSITION));
$('play-best').addEventListener('click', playBest);

function flip() {
  game.flipped = !game.flipped;
  store.set('flipped', game.flipped ? 1 : 0);
  renderBoard();
  scheduleRender();
}
function playBest() {
  const l = currentLines()[0];
  if (l) playMove(uciMove(l.pv[0]));
}

function loadFenFromInput() {
  const r = checkFen($('fen').value);
  if (r.error) {
    $('fen-error').textContent = r.error;
    $('fen').setAttribute('aria-invalid', 'true');
    return false;
  }
  $('fen').removeAttribute('aria-invalid');
  $('fen').blur();
  setPosition(r.fen);
  return true;
}
$('fen-form').addEventListener('submit', (e) => {
  e.preventDefault();
  loadFenFromInput();
});
$('fen').addEventListener('paste', () => setTimeout(loadFenFromInput, 0));
$('fen').addEventListener('input', () => {
  $('fen-error').textContent = '';
  $('fen').removeAttribute('aria-invalid');
});
$('fen-copy').addEventListener('click', async () => {
  try {
    await navigator.clipboard.writeText(currentFen());
    $('fen-copy').textContent = 'Copied';
  } catch {
    $('fen').select();
    $('fen-copy').textContent = 'Select ⌃C';
  }
  setTimeout(() => { $('fen-copy').textContent = 'Copy'; }, 1500);
});

document.addEventListener('keydown', (e) => {
  if (e.target.closest('input, select, textarea, [role=dialog]') || e.altKey || e.ctrlKey || e.metaKey) {
    if (e.key === 'Escape' && !$('promotion').hidden) { closePromotion(); select(null); }
    return;
  }
  switch (e.key) {
    case 'ArrowLeft': goTo(game.ply - 1); break;
    case 'ArrowRight': goTo(game.ply + 1); break;
    case 'Home': goTo(0); break;
    case 'End': goTo(game.history.length); break;
    case 'f': flip(); break;
    case ' ':
      if (e.target.closest('button')) return;
      playBest();
      break;
    case 'Escape':
      if (!$('promotion').hidden) closePromotion();
      select(null);
      break;
    default: return;
  }
  e.preventDefault();
});
document.addEventListener('pointerdown', (e) => {
  if (!$('promotion').hidden && !e.target.closest('#promotion')) { closePromotion(); select(null); }
}, true);

// ---------------------------------------------------------------- start ---
game.flipped = store.get('flipped', '0') === '1';
buildBoard();
isolationNote();
positionChanged();
startEngine();

// For tests and the console.
window.tessera = {
  get engine() { return engine.worker; },
  lines: engine.lines,
  sent: engine.sent,
  bestLine,
  state: () => ({
    ready: engine.ready,
    searching: engine.searching,
    analysing: engine.analysing,
    failed: engine.failed,
    name: engine.name,
    goWhileSearching: engine.goWhileSearching,
    fen: currentFen(),
    isolated,
  }),
  setFen(fen) {
    const r = checkFen(fen);
    if (r.error) throw new Error(r.error);
    setPosition(r.fen);
  },
  move(uci) { return playMove(uciMove(uci)); },
};
