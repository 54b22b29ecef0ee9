// One thread of the engine's program, in a Worker started by tessera.worker.js:
// the first one runs the program (`_start`), each other a thread it spawned.
// Output, spawn requests and the program's end go to tessera.worker.js as
// messages; this Worker never returns to its event loop while the thread runs.
import { StdinQueue, runThread } from './wasi-host.js';

self.onmessage = ({ data }) => {
  runThread({
    ...data,
    stdin: new StdinQueue(data.stdin),
    write: (fd, bytes) => self.postMessage({ out: fd, bytes }, [bytes.buffer]),
    spawn: (arg) => {
      const tid = Atomics.add(data.threads, 0, 1) + 1;
      self.postMessage({ spawn: { tid, arg } });
      return tid;
    },
    exit: (code) => self.postMessage({ exit: code }),
  });
};
