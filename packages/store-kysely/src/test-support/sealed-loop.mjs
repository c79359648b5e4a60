// A child of sealed-processes.test.ts on a sealed store (`sqlite:<path>` or `pg:<schema>`), with
// the keys of a key file. `write <namespace> <tag>`: creates and thread puts (retention in the
// same transaction) until killed, printing each id once its write resolved (committed).
// `rekey <batch> [pauseAfter]`: rotates the store to the key file's active key, printing `batch <n>`
// per batch and `done` at the end; with pauseAfter, once that many rows are done it prints `paused`
// and blocks until killed (a kill that surely falls mid-rotation, however fast the machine).
import { Checkpointer, loadKeyFile } from '@session-checkpoint/core';
import { fail, openTarget } from './open-target.mjs';

const [spec, keyFile, mode, arg, tag] = process.argv.slice(2);
try {
  const store = await openTarget(spec, { keys: await loadKeyFile(keyFile) });
  process.stdout.write('ready\n');
  if (mode === 'rekey') {
    const pauseAfter = tag === undefined ? undefined : Number(tag);
    const onProgress = (p) => {
      process.stdout.write(`batch ${p.done}\n`);
      if (pauseAfter !== undefined && p.done >= pauseAfter) {
        // libuv writes to a pipe at once when nothing is queued: block only when `paused` has left
        // this process (else the parent could wait for it forever), and not past two minutes.
        process.stdout.write('paused\n');
        if (process.stdout.writableLength > 0) {
          process.stderr.write('paused: stdout still queued\n');
          process.exit(3);
        }
        Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 120_000);
        process.exit(3);
      }
    };
    await store.rekey({ apply: true, batchSize: Number(arg), onProgress });
    await store.close();
    process.stdout.write('done\n');
  } else {
    const threads = new Checkpointer(store, { namespace: arg, maxHistory: 6 });
    for (let i = 0; ; i++) {
      const id =
        i % 3 === 2
          ? await threads.put(`thread-${tag}`, { i, tag })
          : (await store.create({ namespace: arg, sessionId: i % 2 ? 'shared' : `own-${tag}`, payload: { i, tag, text: 'x'.repeat(i % 300) } })).id;
      process.stdout.write(`${i % 3 === 2 ? 'put' : 'create'} ${id}\n`);
    }
  }
} catch (error) {
  fail(error);
}
