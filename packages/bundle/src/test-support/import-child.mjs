// Child process for the SIGKILL test: imports a bundle file into a SQLite store with apply,
// reporting each insert on stdout so the parent can kill it mid-transaction. With a third
// argument N it stalls after insert N (inside the transaction) until it is killed, so that the
// kill cannot miss the open transaction however loaded the machine is (a 30 s stall once ran out
// on a busy CI machine and the import committed). Runs the built packages (dist), as an
// application would.
import { openSqliteStore } from '@session-checkpoint/store-kysely';
import { importBundle, readBundleFile } from '@session-checkpoint/bundle';

const [storePath, bundlePath, stallAt] = process.argv.slice(2);
const store = await openSqliteStore(storePath);
const text = await readBundleFile(bundlePath, store.limits);
process.stdout.write('ready\n');
const result = await importBundle(store, text, {
  apply: true,
  onProgress: (e) => {
    if (e.phase !== 'insert') return;
    // Pipe writes are synchronous on Linux: the parent has the line before the stall begins.
    process.stdout.write(`insert ${e.done}\n`);
    if (String(e.done) === stallAt) Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0);
  },
});
await store.close();
process.stdout.write(`done ${result.inserted.length}\n`);
