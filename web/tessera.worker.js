// Tessera as a module Web Worker, with the contract of stockfish.js:
//
//   const engine = new Worker(new URL('./tessera.worker.js', import.meta.url), { type: 'module' });
//   engine.onmessage = (event) => console.log(event.data); // one output line per message
//   engine.postMessage('uci');                             // one UCI command per message
//
// The page must be cross-origin isolated (served with `Cross-Origin-Opener-
// Policy: same-origin` and `Cross-Origin-Embedder-Policy: require-corp`): the
// engine's threads share one WebAssembly memory, which a browser gives only
// to such a page. Where it is not, the worker answers every command with one
// `info string error` saying so.
//
// This worker runs no engine code itself (a page's messages must reach it
// while the engine waits for input): it loads tessera.wasm, starts the
// program's first thread in a Worker of its own (tessera.thread.js), starts a
// Worker for each thread the program spawns (Lazy SMP's search threads), puts
// the page's commands into the program's standard input (a queue in shared
// memory) and passes each line of its standard output to the page.
import { StdinQueue, memoryLimits } from './wasi-host.js';

const encoder = new TextEncoder();
const workers = [];
let stdin = null;
let ended = false;

/** Passes output on line by line: fd 1 to the page, fd 2 to the console. */
class LineSplitter {
  constructor(emit) {
    this.decoder = new TextDecoder();
    this.rest = '';
    this.emit = emit;
  }

  push(bytes) {
    const lines = (this.rest + this.decoder.decode(bytes, { stream: true })).split('\n');
    this.rest = lines.pop();
    for (const line of lines) this.emit(line.replace(/\r$/, ''));
  }
}
const output = {
  1: new LineSplitter((line) => self.postMessage(line)),
  2: new LineSplitter((line) => console.warn(`tessera: ${line}`)),
};

/** The program ended (`quit`, or it failed): every thread stops. */
function end() {
  ended = true;
  for (const worker of workers) worker.terminate();
  self.close();
}

function startThread(shared, tid, arg) {
  const worker = new Worker(new URL('./tessera.thread.js', import.meta.url), {
    type: 'module',
    name: `tessera-thread-${tid}`,
  });
  worker.onmessage = ({ data }) => {
    if (ended) return;
    if ('out' in data) output[data.out].push(data.bytes);
    if ('spawn' in data) startThread(shared, data.spawn.tid, data.spawn.arg);
    if ('exit' in data) end();
  };
  worker.onerror = (event) => {
    event.preventDefault();
    if (ended) return;
    self.postMessage(`info string error: the engine stopped: ${event.message}`);
    end();
  };
  worker.postMessage({ ...shared, tid, arg });
  workers.push(worker);
}

async function start() {
  const response = await fetch(new URL('./tessera.wasm', import.meta.url));
  if (!response.ok) throw new Error(`tessera.wasm: ${response.status} ${response.statusText}`);
  const bytes = await response.arrayBuffer();
  const shared = {
    module: await WebAssembly.compile(bytes),
    memory: new WebAssembly.Memory({ ...memoryLimits(bytes), shared: true }),
    stdin: stdin.buffer,
    threads: new Int32Array(new SharedArrayBuffer(4)),
    args: ['tessera'],
  };
  startThread(shared, 0, 0);
}

if (self.crossOriginIsolated) {
  stdin = StdinQueue.create();
  start().catch((error) => {
    self.postMessage(`info string error: the engine could not start: ${error.message}`);
    end();
  });
}

// Commands written before the engine is up wait in its input.
self.onmessage = ({ data }) => {
  if (ended) return;
  const command = String(data);
  if (!stdin) {
    self.postMessage(
      'info string error: the engine needs a cross-origin isolated page (headers ' +
        'Cross-Origin-Opener-Policy: same-origin and Cross-Origin-Embedder-Policy: require-corp)',
    );
    return;
  }
  stdin.write(encoder.encode(command.endsWith('\n') ? command : `${command}\n`));
};
