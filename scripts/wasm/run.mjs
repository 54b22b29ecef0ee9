// Runs the engine's WebAssembly build (wasm32-wasip1-threads) under node, for
// the tests: `node scripts/wasm/run.mjs tessera.wasm bench`. Standard input,
// output and the arguments are the program's, as for the native binary.
//
// The module imports one shared memory and two interfaces: WASI preview 1,
// which node:wasi provides, and wasi-threads' `thread-spawn`, which this file
// provides. Each spawned thread is a node Worker that instantiates the same
// module over the same memory and calls its `wasi_thread_start` export, as the
// wasi-threads proposal specifies; every thread shares the one table of the
// engine through that memory. The memory's initial and largest sizes are read
// from the module's import of it.
import fs from 'node:fs';
import { WASI } from 'node:wasi';
import { Worker, isMainThread, workerData } from 'node:worker_threads';
import { fileURLToPath } from 'node:url';

const here = fileURLToPath(import.meta.url);

// Reads an unsigned LEB128 number of `bytes` at `at.pos`, advancing it.
function leb(bytes, at) {
  let result = 0, shift = 0, byte;
  do {
    byte = bytes[at.pos++];
    result += (byte & 0x7f) * 2 ** shift;
    shift += 7;
  } while (byte & 0x80);
  return result;
}

// The limits { initial, maximum } (in 64 KiB pages) of the module's imported memory.
function memoryLimits(bytes) {
  const at = { pos: 8 }; // after the magic number and the version
  const name = () => { const n = leb(bytes, at); at.pos += n; };
  while (at.pos < bytes.length) {
    const id = bytes[at.pos++];
    const size = leb(bytes, at);
    const end = at.pos + size;
    if (id === 2) { // the import section
      for (let count = leb(bytes, at); count > 0; count--) {
        name(); name();
        const kind = bytes[at.pos++];
        if (kind === 0) { leb(bytes, at); continue; } // a function: its type index
        if (kind === 1) { at.pos++; } // a table: its element type, then limits
        if (kind === 3) { at.pos += 2; continue; } // a global: type, mutability
        const flags = bytes[at.pos++];
        const initial = leb(bytes, at);
        const maximum = flags & 1 ? leb(bytes, at) : initial;
        if (kind === 2) return { initial, maximum };
      }
    }
    at.pos = end;
  }
  throw new Error('the module imports no memory');
}

// The module instantiated over `memory`, with WASI and thread-spawn.
function instantiate({ module, memory, args, nextThread }) {
  const wasi = new WASI({ version: 'preview1', args, env: {}, returnOnExit: true });
  const spawn = (startArg) => {
    const tid = Atomics.add(nextThread, 0, 1) + 1;
    const worker = new Worker(here, {
      workerData: { module, memory, args, nextThread, tid, startArg },
    });
    worker.unref();
    return tid;
  };
  const imports = {
    env: { memory },
    wasi_snapshot_preview1: wasi.wasiImport,
    wasi: { 'thread-spawn': spawn },
  };
  return { wasi, instance: new WebAssembly.Instance(module, imports) };
}

if (isMainThread) {
  const [file, ...rest] = process.argv.slice(2);
  const bytes = fs.readFileSync(file);
  const module = new WebAssembly.Module(bytes);
  const memory = new WebAssembly.Memory({ ...memoryLimits(bytes), shared: true });
  const nextThread = new Int32Array(new SharedArrayBuffer(4));
  const { wasi, instance } = instantiate({ module, memory, args: [file, ...rest], nextThread });
  process.exitCode = wasi.start(instance) ?? 0;
  process.exit();
} else {
  const { tid, startArg } = workerData;
  try {
    const { wasi, instance } = instantiate(workerData);
    // A thread runs no `_start`: WASI is only told which memory is the module's.
    wasi.initialize({ exports: { memory: workerData.memory } });
    instance.exports.wasi_thread_start(tid, startArg);
  } catch (error) {
    console.error(`thread ${tid}:`, error);
    process.exit(1);
  }
}
