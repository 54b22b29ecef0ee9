// The host of the engine's WebAssembly build (wasm32-wasip1-threads): the same
// code in browsers (tessera.worker.js, tessera.thread.js) and under node
// (scripts/wasm/run.mjs), which differ only in how they start a thread and
// where output goes.
//
// The module imports one shared memory, WASI preview 1 and wasi-threads'
// `thread-spawn`. Every thread of the engine is a Worker that instantiates the
// same module over the same memory: the first calls `_start` (the program's
// `main`), each spawned one `wasi_thread_start(tid, arg)`. The engine's
// table, its search threads' signals and everything else they share are in
// that memory, so the lock-free table is shared by real threads as natively.
//
// WASI is implemented here for what the engine does: arguments, the clocks,
// random bytes, reading standard input and writing standard output and error.
// There are no files (no directory is opened to the module), so reading a
// network or tablebase file is refused as the engine refuses a missing file.
// Standard input is a queue in shared memory ([`StdinQueue`]): a thread that
// reads it waits (`Atomics.wait`, allowed in a Worker) until the page or the
// terminal gives it a line.

// WASI error numbers.
const SUCCESS = 0;
const BADF = 8;
const NOSYS = 52;
const NOTCAPABLE = 76;

// File types of `fdstat` and `filestat`.
const CHARACTER_DEVICE = 2;

/** Thrown to unwind a thread when the program calls `proc_exit`. */
export class ProgramExit extends Error {
  constructor(code) {
    super(`the program exited with status ${code}`);
    this.code = code;
  }
}

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

/**
 * The limits `{ initial, maximum }` (in 64 KiB pages) of the memory that the
 * module (its bytes) imports: the shared memory must be made with exactly
 * these. (A compiled module does not tell them.)
 */
export function memoryLimits(bytes) {
  bytes = new Uint8Array(bytes);
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
        if (kind === 3) { at.pos += 2; continue; } // a global: type, mutability
        if (kind === 1) at.pos++; // a table: its element type, then limits
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

/**
 * Standard input: a byte queue in a SharedArrayBuffer with one writer (the
 * page's messages, or node's stdin) and readers that wait for it.
 * Layout: four Int32 words — bytes written, bytes read (both counting on and
 * wrapping), closed, and an event count that every write and the close raise
 * (readers wait on it) — then the ring of bytes.
 */
export class StdinQueue {
  static create(capacity = 1 << 20) {
    return new StdinQueue(new SharedArrayBuffer(16 + capacity));
  }

  constructor(buffer) {
    this.buffer = buffer;
    this.state = new Int32Array(buffer, 0, 4);
    this.ring = new Uint8Array(buffer, 16);
    this.pending = []; // bytes the ring had no room for yet (writer only)
  }

  /** Appends `bytes`; what does not fit now is written as readers make room. */
  write(bytes) {
    this.pending.push(bytes);
    this.flush();
  }

  /** Moves pending bytes into the ring; true when none are left. */
  flush() {
    const { state, ring } = this;
    while (this.pending.length > 0) {
      const bytes = this.pending[0];
      const written = Atomics.load(state, 0), read = Atomics.load(state, 1);
      const room = ring.length - ((written - read) | 0);
      const n = Math.min(room, bytes.length);
      if (n === 0) break;
      for (let i = 0; i < n; i++) ring[((written + i) >>> 0) % ring.length] = bytes[i];
      Atomics.store(state, 0, (written + n) | 0);
      if (n === bytes.length) this.pending.shift();
      else this.pending[0] = bytes.subarray(n);
      Atomics.add(state, 3, 1);
      Atomics.notify(state, 3);
    }
    if (this.pending.length > 0 && !this.retry) {
      this.retry = setTimeout(() => { this.retry = null; this.flush(); }, 1);
    }
    return this.pending.length === 0;
  }

  /** No more input: readers get the end of file once the ring is empty. */
  close() {
    if (!this.flush()) { setTimeout(() => this.close(), 1); return; }
    Atomics.store(this.state, 2, 1);
    Atomics.add(this.state, 3, 1);
    Atomics.notify(this.state, 3);
  }

  /** Up to `max` bytes, waiting for some; empty at the end of input. */
  read(max) {
    const { state, ring } = this;
    for (;;) {
      const event = Atomics.load(state, 3);
      const written = Atomics.load(state, 0), read = Atomics.load(state, 1);
      const available = (written - read) | 0;
      if (available > 0) {
        const n = Math.min(available, max);
        const bytes = new Uint8Array(n);
        for (let i = 0; i < n; i++) bytes[i] = ring[((read + i) >>> 0) % ring.length];
        Atomics.store(state, 1, (read + n) | 0);
        return bytes;
      }
      if (Atomics.load(state, 2)) return new Uint8Array(0);
      Atomics.wait(state, 3, event);
    }
  }
}

const encoder = new TextEncoder();

/**
 * The imports of one instance (one thread): `env.memory`, WASI preview 1 and
 * `wasi.thread-spawn`.
 * - `memory`: the shared WebAssembly.Memory;
 * - `args`: the program's arguments, its name first;
 * - `stdin`: a StdinQueue;
 * - `write(fd, bytes)`: output (fd 1 or 2) of this thread, a Uint8Array of its own;
 * - `spawn(arg)`: starts a thread that will call `wasi_thread_start(tid, arg)`
 *   and returns its tid (a positive number), or a negative number if it cannot;
 * - `exit(code)`: the program ends (called before the thread unwinds).
 */
export function imports({ memory, args, stdin, write, spawn, exit }) {
  const view = () => new DataView(memory.buffer);
  const bytes = () => new Uint8Array(memory.buffer);
  const argBytes = args.map((a) => encoder.encode(`${a}\0`));

  // The (pointer, length) pairs of an iovec array.
  const iovecs = (iovs, count) => {
    const v = view();
    return Array.from({ length: count }, (_, i) => [
      v.getUint32(iovs + 8 * i, true),
      v.getUint32(iovs + 8 * i + 4, true),
    ]);
  };
  const isStdio = (fd) => fd === 0 || fd === 1 || fd === 2;

  const wasi = {
    args_sizes_get(countPtr, sizePtr) {
      const v = view();
      v.setUint32(countPtr, argBytes.length, true);
      v.setUint32(sizePtr, argBytes.reduce((sum, a) => sum + a.length, 0), true);
      return SUCCESS;
    },
    args_get(argvPtr, bufPtr) {
      const v = view(), b = bytes();
      argBytes.forEach((a, i) => {
        v.setUint32(argvPtr + 4 * i, bufPtr, true);
        b.set(a, bufPtr);
        bufPtr += a.length;
      });
      return SUCCESS;
    },
    environ_sizes_get(countPtr, sizePtr) {
      const v = view();
      v.setUint32(countPtr, 0, true);
      v.setUint32(sizePtr, 0, true);
      return SUCCESS;
    },
    environ_get() {
      return SUCCESS;
    },
    // Both clocks read the same time, in nanoseconds since 1970: the origin of
    // `performance.now()` differs between Workers, `timeOrigin` plus it does
    // not, so one thread's deadline means the same to another.
    clock_time_get(_id, _precision, timePtr) {
      const ns = Math.round((performance.timeOrigin + performance.now()) * 1e6);
      view().setBigUint64(timePtr, BigInt(ns), true);
      return SUCCESS;
    },
    random_get(ptr, length) {
      // getRandomValues refuses a view of shared memory: fill a copy.
      const copy = new Uint8Array(length);
      for (let at = 0; at < length; at += 65536) {
        crypto.getRandomValues(copy.subarray(at, Math.min(at + 65536, length)));
      }
      bytes().set(copy, ptr);
      return SUCCESS;
    },
    fd_write(fd, iovs, count, writtenPtr) {
      if (fd !== 1 && fd !== 2) return BADF;
      const parts = iovecs(iovs, count);
      const total = parts.reduce((sum, [, len]) => sum + len, 0);
      const out = new Uint8Array(total), b = bytes();
      let at = 0;
      for (const [ptr, len] of parts) {
        out.set(b.subarray(ptr, ptr + len), at);
        at += len;
      }
      if (total > 0) write(fd, out);
      view().setUint32(writtenPtr, total, true);
      return SUCCESS;
    },
    fd_read(fd, iovs, count, readPtr) {
      if (fd !== 0) return BADF;
      const parts = iovecs(iovs, count);
      const input = stdin.read(parts.reduce((sum, [, len]) => sum + len, 0));
      const b = bytes();
      let at = 0;
      for (const [ptr, len] of parts) {
        const n = Math.min(len, input.length - at);
        b.set(input.subarray(at, at + n), ptr);
        at += n;
      }
      view().setUint32(readPtr, input.length, true);
      return SUCCESS;
    },
    fd_close(fd) {
      return isStdio(fd) ? SUCCESS : BADF;
    },
    fd_fdstat_get(fd, ptr) {
      if (!isStdio(fd)) return BADF;
      const v = view();
      v.setUint8(ptr, CHARACTER_DEVICE);
      v.setUint16(ptr + 2, 0, true);
      v.setBigUint64(ptr + 8, 0xffffffffn, true);
      v.setBigUint64(ptr + 16, 0n, true);
      return SUCCESS;
    },
    fd_filestat_get(fd, ptr) {
      if (!isStdio(fd)) return BADF;
      bytes().fill(0, ptr, ptr + 64);
      view().setUint8(ptr + 16, CHARACTER_DEVICE);
      return SUCCESS;
    },
    // No directory is opened to the module: the C library asks from fd 3 up
    // until it is told there is none.
    fd_prestat_get: () => BADF,
    fd_prestat_dir_name: () => BADF,
    fd_readdir: () => BADF,
    path_open: () => NOTCAPABLE,
    path_filestat_get: () => NOTCAPABLE,
    path_remove_directory: () => NOTCAPABLE,
    path_unlink_file: () => NOTCAPABLE,
    sched_yield: () => SUCCESS,
    proc_exit(code) {
      exit(code);
      throw new ProgramExit(code);
    },
  };

  // Anything else a later build imports fails plainly instead of at link time.
  const preview1 = new Proxy(wasi, {
    get: (target, name) => target[name] ?? (() => NOSYS),
  });
  return {
    env: { memory },
    wasi_snapshot_preview1: preview1,
    wasi: { 'thread-spawn': (arg) => spawn(arg) },
  };
}

/**
 * Runs one thread of the program in this Worker: `tid` 0 is the program
 * itself (`_start`), any other a spawned thread. Returns the exit status when
 * the program ends here (`_start` returned or `proc_exit`), otherwise null.
 */
export function runThread({ module, tid, arg, ...host }) {
  let status = null;
  const exit = (code) => {
    status = code;
    host.exit(code);
  };
  const instance = new WebAssembly.Instance(module, imports({ ...host, exit }));
  try {
    if (tid === 0) {
      instance.exports._start();
      exit(0);
    } else {
      instance.exports.wasi_thread_start(tid, arg);
    }
  } catch (error) {
    if (!(error instanceof ProgramExit)) throw error;
  }
  return status;
}
