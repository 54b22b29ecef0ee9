// Runs the engine's WebAssembly build (wasm32-wasip1-threads) under node with
// the host the browser build uses (web/wasi-host.js), for the tests and for
// `cargo test --target wasm32-wasip1-threads`:
//
//   node scripts/wasm/run.mjs tessera.wasm bench
//
// Standard input, output, the arguments and the exit status are the
// program's, as for the native binary. As in a browser, every thread of the
// program is a Worker (node's worker_threads) over the one shared memory, the
// program's own thread included; this thread only starts them and passes
// standard input on, as the page's engine Worker does (web/tessera.worker.js).
import fs from 'node:fs';
import { webcrypto } from 'node:crypto';
import { Worker, isMainThread, parentPort, workerData } from 'node:worker_threads';
import { fileURLToPath } from 'node:url';
import { StdinQueue, memoryLimits, runThread } from '../../web/wasi-host.js';

const here = fileURLToPath(import.meta.url);
// The host draws random bytes as a browser does; node 18 has no global crypto.
globalThis.crypto ??= webcrypto;

if (isMainThread) {
  const [file, ...rest] = process.argv.slice(2);
  if (!file) {
    console.error('usage: node scripts/wasm/run.mjs PROGRAM.wasm [ARGUMENTS...]');
    process.exit(2);
  }
  const bytes = fs.readFileSync(file);
  const shared = {
    module: new WebAssembly.Module(bytes),
    memory: new WebAssembly.Memory({ ...memoryLimits(bytes), shared: true }),
    stdin: StdinQueue.create().buffer,
    threads: new Int32Array(new SharedArrayBuffer(4)),
    args: [file, ...rest],
  };

  const start = (tid, arg) => {
    const worker = new Worker(here, { workerData: { ...shared, tid, arg } });
    worker.on('message', (message) => {
      if ('spawn' in message) start(message.spawn.tid, message.spawn.arg);
      if ('exit' in message) process.exit(message.exit);
    });
    worker.on('error', (error) => {
      console.error(`thread ${tid}:`, error);
      process.exit(1);
    });
  };
  start(0, 0);

  const stdin = new StdinQueue(shared.stdin);
  process.stdin.on('data', (chunk) => stdin.write(new Uint8Array(chunk)));
  process.stdin.on('end', () => stdin.close());
  process.stdin.on('error', () => stdin.close());
} else {
  const { threads, tid, arg } = workerData;
  runThread({
    ...workerData,
    stdin: new StdinQueue(workerData.stdin),
    tid,
    arg,
    write: (fd, bytes) => {
      for (let at = 0; at < bytes.length;) {
        try {
          at += fs.writeSync(fd, bytes, at);
        } catch (error) {
          if (error.code !== 'EAGAIN') throw error; // a full pipe: wait for the reader
        }
      }
    },
    spawn: (startArg) => {
      const id = Atomics.add(threads, 0, 1) + 1;
      parentPort.postMessage({ spawn: { tid: id, arg: startArg } });
      return id;
    },
    exit: (code) => parentPort.postMessage({ exit: code }),
  });
}
