//! A protocol fuzzer: random sequences of valid, malformed and binary commands
//! (`position` with random FENs and move lists, `go` in every form, `stop`,
//! `ponderhit`, `setoption`, `ucinewgame`, `isready`, `d`, `quit`, garbage)
//! against the real binary, checking the invariants of the UCI front end:
//!
//! * the process lives until `quit` (or end of input) and then exits with 0;
//! * every `go` that asks for a search gets exactly one `bestmove`, and each
//!   `bestmove` and `ponder` move is legal in the position searched;
//! * `isready` is answered within a second;
//! * bad input changes nothing: the engine's position (`d`) is the one a model
//!   of the protocol, built on the board crate, expects.
//!
//! `protocol_fuzz` runs for about 25 s (CI); `protocol_fuzz_long` for 10
//! minutes (`--ignored`). `TESSERA_FUZZ_SECS` and `TESSERA_FUZZ_SEED` change
//! the duration and the first seed; `TESSERA_BIN` runs it against another build.
//! A failure names the seed and the commands that led to it.

mod common;

use board::{Board, Move};
use common::Engine;
use rand_core::{RngCore, SeedableRng};
use rand_pcg::Pcg64;
use std::collections::VecDeque;
use std::time::{Duration, Instant};

/// How long `isready` may take.
const READY_WITHIN: Duration = Duration::from_secs(1);
/// How long a stopped or bounded search may take to answer (debug build, loaded machine).
const BESTMOVE_WITHIN: Duration = Duration::from_secs(20);

const FENS: [&str; 12] = [
    board::STARTPOS_FEN,
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
    "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
    "2r1kr2/8/8/8/8/8/8/1R2K1R1 w GBfc - 0 1",
    "k4r2/8/8/8/4b2p/7P/7P/6KR w K - 0 1",
    "4k3/8/8/8/8/8/8/RK6 w Q - 0 1",
    "6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1",
    "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1",
    "R6R/3Q4/1Q4Q1/4Q3/2Q4Q/Q4Q2/pp1Q4/kBNN1KB1 w - - 0 1",
    "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 99",
];

/// What the engine should know, as the protocol defines it.
struct Model {
    board: Board,
    chess960: bool,
    /// The position and notation of each `go` whose `bestmove` is due, oldest first.
    pending: VecDeque<(Board, bool)>,
    /// Whether the last search may run until `stop`.
    open_ended: bool,
    gos: usize,
    bestmoves: usize,
}

/// One fuzzing session against one engine process.
struct Session {
    engine: Engine,
    rng: Pcg64,
    model: Model,
    seed: u64,
    /// The commands sent (lossy text), for the failure report.
    sent: Vec<String>,
}

impl Session {
    fn fail(&self, what: &str) -> ! {
        let recent: Vec<&String> = self.sent.iter().rev().take(40).rev().collect();
        let lines: Vec<&String> = self.engine.transcript.iter().rev().take(20).rev().collect();
        panic!(
            "seed {}: {what}\nlast commands:\n{}\nlast lines:\n{}",
            self.seed,
            recent.iter().map(|s| format!("  > {s}")).collect::<Vec<_>>().join("\n"),
            lines.iter().map(|s| format!("  < {s}")).collect::<Vec<_>>().join("\n")
        );
    }

    fn below(&mut self, n: u64) -> u64 {
        self.rng.next_u64() % n
    }

    fn chance(&mut self, percent: u64) -> bool {
        self.below(100) < percent
    }

    fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len() as u64) as usize]
    }

    fn send_raw(&mut self, bytes: &[u8]) {
        let mut shown = String::from_utf8_lossy(bytes).trim_end().to_string();
        if shown.len() > 200 {
            shown =
                format!("{}... ({} bytes)", &shown[..shown.floor_char_boundary(200)], bytes.len());
        }
        self.sent.push(shown);
        if !self.engine.try_send_bytes(bytes) {
            self.fail("the engine stopped reading its input (it died)");
        }
    }

    fn send(&mut self, line: &str) {
        self.send_raw(format!("{line}\n").as_bytes());
    }

    /// Handles one line from the engine.
    fn receive(&mut self, line: &str) {
        let Some(rest) = line.strip_prefix("bestmove ") else { return };
        let Some((board, chess960)) = self.model.pending.pop_front() else {
            self.fail(&format!("a bestmove no go asked for: {line}"));
        };
        self.model.bestmoves += 1;
        let mut words = rest.split_whitespace();
        let best = words.next().unwrap_or("");
        if best == "0000" {
            if !board.legal_moves().is_empty() {
                self.fail(&format!("bestmove 0000 in {} which has moves", board.to_fen(true)));
            }
            return;
        }
        let Ok(mv) = board.parse_uci_move(best, chess960) else {
            let later = self.model.pending.iter().any(|(b, c)| b.parse_uci_move(best, *c).is_ok());
            let why =
                if later { " (it would fit a later go: maybe a go got no bestmove)" } else { "" };
            self.fail(&format!("illegal bestmove {best} in {}{why}", board.to_fen(true)));
        };
        match (words.next(), words.next()) {
            (None, _) => {}
            (Some("ponder"), Some(ponder)) => {
                let mut after = board;
                after.play(mv);
                if after.parse_uci_move(ponder, chess960).is_err() {
                    self.fail(&format!(
                        "illegal ponder {ponder} after {best} in {}",
                        board.to_fen(true)
                    ));
                }
            }
            _ => self.fail(&format!("malformed bestmove line: {line}")),
        }
    }

    /// Reads what has arrived, without waiting.
    fn drain(&mut self) {
        while let Some(line) = self.engine.next_line(Duration::ZERO) {
            self.receive(&line);
        }
    }

    /// `isready`, answered within a second.
    fn ready(&mut self) {
        self.send("isready");
        let sent = Instant::now();
        loop {
            let left = READY_WITHIN.saturating_sub(sent.elapsed());
            match self.engine.next_line(left) {
                Some(line) if line == "readyok" => return,
                Some(line) => self.receive(&line),
                None if !self.engine.is_running() => self.fail("the engine died"),
                None => self.fail("isready not answered within a second"),
            }
        }
    }

    /// Ends any open search and waits for every `bestmove` due.
    fn settle(&mut self) {
        if self.model.open_ended {
            self.send("stop");
            self.model.open_ended = false;
        }
        self.ready();
        let since = Instant::now();
        while !self.model.pending.is_empty() {
            let left = BESTMOVE_WITHIN.saturating_sub(since.elapsed());
            match self.engine.next_line(left) {
                Some(line) => self.receive(&line),
                None => self.fail(&format!("{} go without a bestmove", self.model.pending.len())),
            }
        }
    }

    /// Checks that the engine's position is the model's.
    fn check_position(&mut self) {
        self.send("d");
        let since = Instant::now();
        let fen = loop {
            match self.engine.next_line(BESTMOVE_WITHIN.saturating_sub(since.elapsed())) {
                Some(line) if line.starts_with("Fen: ") => break line["Fen: ".len()..].to_string(),
                Some(line) => self.receive(&line),
                None => self.fail("no answer to d"),
            }
        };
        let expected = self.model.board.to_fen(true);
        if fen != expected {
            self.fail(&format!("engine has {fen}, expected {expected}"));
        }
    }

    // ---- command generators -------------------------------------------------------

    fn random_fen(&mut self) -> String {
        let fen = *self.pick::<&str>(&FENS);
        let mut board = Board::from_fen(fen).expect("valid FEN");
        for _ in 0..self.below(30) {
            let moves = board.legal_moves();
            if moves.is_empty() {
                break;
            }
            board.play(moves[self.below(moves.len() as u64) as usize]);
        }
        board.to_fen(true)
    }

    /// A random edit of `text`: a character replaced, inserted or deleted.
    fn mutate(&mut self, text: &str) -> String {
        const ALPHABET: &[u8] = b"pnbrqkPNBRQK12345678/ wb-KQkqabcdefgh09";
        let mut bytes = text.as_bytes().to_vec();
        for _ in 0..1 + self.below(3) {
            let at = self.below(bytes.len() as u64 + 1) as usize;
            let c = *self.pick(ALPHABET);
            match self.below(3) {
                0 if at < bytes.len() => bytes[at] = c,
                1 => bytes.insert(at, c),
                _ if at < bytes.len() => {
                    bytes.remove(at);
                }
                _ => bytes.push(c),
            }
        }
        String::from_utf8_lossy(&bytes).into_owned()
    }

    /// The board a `position` line sets, judged as the protocol (and the engine)
    /// reads it: `None` if anything in it is refused.
    fn position_of(&self, line: &str) -> Option<Board> {
        let tokens: Vec<&str> = line.split_whitespace().collect();
        let rest = tokens.strip_prefix(&["position"])?;
        let (spec, moves) = match rest.iter().position(|&t| t == "moves") {
            Some(i) => (&rest[..i], &rest[i + 1..]),
            None => (rest, &[][..]),
        };
        let mut board = match spec {
            ["startpos"] => Board::startpos(),
            ["fen", fen @ ..] if !fen.is_empty() => Board::from_fen(&fen.join(" ")).ok()?,
            _ => return None,
        };
        for text in moves {
            let mv = board.parse_uci_move(text, self.model.chess960).ok()?;
            board.play(mv);
        }
        Some(board)
    }

    /// Sends a `position` line and updates the model as the protocol says.
    fn send_position(&mut self, line: &str) {
        if let Some(board) = self.position_of(line) {
            self.model.board = board;
        }
        self.send(line);
    }

    fn position(&mut self) {
        let spec = if self.chance(30) {
            "startpos".to_string()
        } else {
            let fen = self.random_fen();
            if self.chance(15) {
                format!("fen {}", self.mutate(&fen))
            } else {
                format!("fen {fen}")
            }
        };
        let mut board = Board::from_fen(spec.strip_prefix("fen ").unwrap_or(board::STARTPOS_FEN))
            .unwrap_or_else(|_| Board::startpos());
        let mut texts = Vec::new();
        for _ in 0..self.below(40) {
            let moves = board.legal_moves();
            if moves.is_empty() {
                break;
            }
            let mv: Move = moves[self.below(moves.len() as u64) as usize];
            texts.push(board.move_to_uci(mv, self.model.chess960));
            board.play(mv);
        }
        if !texts.is_empty() && self.chance(5) {
            let at = self.below(texts.len() as u64) as usize;
            texts[at] = self.mutate(&texts[at]);
        }
        let moves = if texts.is_empty() && self.chance(50) {
            String::new()
        } else {
            format!(" moves {}", texts.join(" "))
        };
        self.send_position(&format!("position {spec}{moves}"));
    }

    fn go(&mut self) {
        let board = self.model.board;
        let mut parts: Vec<String> = vec!["go".into()];
        let mut open_ended = false;
        match self.below(12) {
            0 | 1 => parts.push(format!("depth {}", 1 + self.below(5))),
            2 => parts.push(format!("nodes {}", 1 + self.below(20_000))),
            3 => parts.push(format!("movetime {}", self.below(60))),
            4 | 5 => {
                let (w, b) = (20 + self.below(1500), 20 + self.below(1500));
                parts.push(format!(
                    "wtime {w} btime {b} winc {} binc {}",
                    self.below(50),
                    self.below(50)
                ));
                if self.chance(30) {
                    parts.push(format!("movestogo {}", self.below(40)));
                }
            }
            6 => {
                parts.push("infinite".into());
                open_ended = true;
            }
            7 => {
                parts.push("ponder".into());
                if self.chance(50) {
                    parts.push(format!("wtime {} btime {}", self.below(300), self.below(300)));
                }
                open_ended = true;
            }
            8 => parts.push(format!("mate {} depth 4", 1 + self.below(3))),
            9 => {
                let words =
                    ["foo", "depth", "wtime", "1.5", "-3", "nodes", "searchmoves", "e2e4", "x"];
                for _ in 0..1 + self.below(5) {
                    parts.push(self.pick(&words).to_string());
                }
                parts.push("depth 2".into());
            }
            10 => {
                let moves = board.legal_moves();
                parts.push("depth 3 searchmoves".into());
                for _ in 0..1 + self.below(3) {
                    if moves.is_empty() || self.chance(20) {
                        parts.push("a1a2".into());
                    } else {
                        let mv = moves[self.below(moves.len() as u64) as usize];
                        parts.push(board.move_to_uci(mv, self.model.chess960));
                    }
                }
            }
            _ => parts.push(format!("depth {} huge 99999999999999999999999", 1 + self.below(3))),
        }
        // A new `go` stops the search under way, which answers first.
        self.model.pending.push_back((board, self.model.chess960));
        self.model.gos += 1;
        self.model.open_ended = open_ended;
        self.send(&parts.join(" "));
    }

    fn setoption(&mut self) {
        let (name, value, applies): (&str, String, Option<bool>) = match self.below(11) {
            0 => ("Hash", (1 + self.below(32)).to_string(), None),
            1 => ("Threads", (1 + self.below(4)).to_string(), None),
            2 => ("Threads", "8".into(), None),
            3 => ("MultiPV", (1 + self.below(3)).to_string(), None),
            4 => ("Move Overhead", self.below(100).to_string(), None),
            5 => ("Ponder", self.pick(&["true", "false"]).to_string(), None),
            6 => {
                let on = self.chance(50);
                ("UCI_Chess960", on.to_string(), Some(on))
            }
            7 => (
                "SMPBestMove",
                self.pick(&["Vote", "Deepest", "Main", "Majority"]).to_string(),
                None,
            ),
            8 => ("Clear Hash", String::new(), None),
            9 => ("Hash", self.pick(&["0", "-5", "lots", "1e9", ""]).to_string(), None),
            _ => ("Warp Drive", "9".into(), None),
        };
        if let Some(on) = applies {
            self.model.chess960 = on;
        }
        if value.is_empty() {
            self.send(&format!("setoption name {name}"));
        } else {
            self.send(&format!("setoption name {name} value {value}"));
        }
    }

    fn garbage(&mut self) {
        match self.below(5) {
            0 => {
                // Not UTF-8 (a 0xFF byte is never valid), so never a command.
                let mut bytes: Vec<u8> =
                    (0..self.below(200)).map(|_| self.rng.next_u32() as u8).collect();
                bytes.retain(|&b| b != b'\n');
                let at = self.below(bytes.len() as u64 + 1) as usize;
                bytes.insert(at, 0xFF);
                bytes.push(b'\n');
                self.send_raw(&bytes);
            }
            1 => {
                let words = ["xyzzy", "positoin", "goo", "eval", "stopp", "", "\t", "ready", "☃"];
                let n = self.below(4);
                let line: Vec<&str> = (0..n).map(|_| *self.pick(&words)).collect();
                self.send(&line.join(" "));
            }
            2 => {
                let fen = self.random_fen();
                let bad = self.mutate(&format!("position fen {fen}"));
                self.send_position(&bad);
            }
            3 => {
                let depth = self.below(4);
                self.send(&format!("go perft {depth}"));
            }
            _ => {
                if self.chance(2) {
                    let long = "x".repeat((1 << 20) + 10);
                    self.send(&long);
                } else {
                    self.send("eval");
                }
            }
        }
    }

    /// One random command.
    fn step(&mut self) {
        match self.below(100) {
            0..=19 => self.position(),
            20..=39 => self.go(),
            40..=47 => {
                self.send("stop");
                self.model.open_ended = false;
            }
            48..=52 => {
                self.send("ponderhit");
                // A ponder search with no clock goes on after ponderhit: still open.
            }
            53..=64 => self.setoption(),
            65..=68 => {
                self.send("ucinewgame");
                self.model.board = Board::startpos();
            }
            69..=76 => self.ready(),
            77..=79 => self.check_position(),
            80..=82 => self.settle(),
            _ => self.garbage(),
        }
        self.drain();
    }

    /// Ends the session with `quit` or end of input; the process must exit with 0,
    /// having answered every `go`.
    fn finish(mut self) -> (usize, usize) {
        let by_quit = self.chance(70);
        if by_quit {
            self.send("quit");
        } else {
            self.sent.push("<end of input>".into());
            self.engine.close_input();
        }
        let since = Instant::now();
        while let Some(line) =
            self.engine.next_line(BESTMOVE_WITHIN.saturating_sub(since.elapsed()))
        {
            self.receive(&line);
        }
        match self.engine.wait_exit(Duration::from_secs(10)) {
            Some(status) if status.success() => {}
            Some(status) => self.fail(&format!("exited with {status}")),
            None => self.fail("did not exit after quit / end of input"),
        }
        if !self.model.pending.is_empty() {
            self.fail(&format!("{} go without a bestmove at exit", self.model.pending.len()));
        }
        (self.model.gos, self.model.bestmoves)
    }
}

/// Runs sessions for `duration`, starting at seed `first_seed`.
fn fuzz(duration: Duration, first_seed: u64) {
    let duration = std::env::var("TESSERA_FUZZ_SECS")
        .ok()
        .and_then(|s| s.parse().ok())
        .map_or(duration, Duration::from_secs);
    let first_seed =
        std::env::var("TESSERA_FUZZ_SEED").ok().and_then(|s| s.parse().ok()).unwrap_or(first_seed);
    let start = Instant::now();
    let (mut sessions, mut commands, mut gos) = (0, 0, 0);
    let mut seed = first_seed;
    while start.elapsed() < duration {
        let mut session = Session {
            engine: Engine::start(),
            rng: Pcg64::seed_from_u64(seed),
            model: Model {
                board: Board::startpos(),
                chess960: false,
                pending: VecDeque::new(),
                open_ended: false,
                gos: 0,
                bestmoves: 0,
            },
            seed,
            sent: Vec::new(),
        };
        let steps = 50 + session.below(150);
        for _ in 0..steps {
            session.step();
            if start.elapsed() > duration + Duration::from_secs(30) {
                break;
            }
        }
        session.settle();
        commands += session.sent.len();
        let (go, bestmoves) = session.finish();
        assert_eq!(go, bestmoves);
        gos += go;
        sessions += 1;
        seed += 1;
    }
    println!(
        "protocol fuzz: {sessions} sessions (seeds {first_seed}..{seed}), {commands} commands, \
         {gos} searches, each answered by one legal bestmove, in {:.0?}",
        start.elapsed()
    );
    assert!(sessions > 0 && gos > 0);
}

#[test]
fn protocol_fuzz() {
    fuzz(Duration::from_secs(25), 1);
}

#[test]
#[ignore = "ten minutes; TESSERA_FUZZ_SECS sets another duration"]
fn protocol_fuzz_long() {
    fuzz(Duration::from_secs(600), 1_000_000);
}
