// A child process that migrates a SqliteSaver file into a SessionCheckpointSaver on a SQLite store
// (the built package), so that a test can kill it part way:
//   node migrate-child.mjs <sqlite-saver-file> <store-file>
// It prints "progress <n>" after each checkpoint and "done" at the end.
// SC_MIGRATE_HANG_WRITES=<n>: the n-th putWrites call hangs before writing (the checkpoint it
// belongs to is already put), so a kill lands between a put and its writes.
import { SqliteSaver } from '@langchain/langgraph-checkpoint-sqlite';
import { openSqliteStore } from '@session-checkpoint/store-kysely';
import { migrateCheckpoints, SessionCheckpointSaver } from '../../dist/index.js';

const [sourceFile, storeFile] = process.argv.slice(2);
const source = SqliteSaver.fromConnString(sourceFile);
const store = await openSqliteStore(storeFile, { busyTimeoutMs: 300_000 });
const target = new SessionCheckpointSaver(store);
const hangAt = process.env.SC_MIGRATE_HANG_WRITES === undefined ? undefined : Number(process.env.SC_MIGRATE_HANG_WRITES);
if (hangAt !== undefined) {
  const putWrites = target.putWrites.bind(target);
  let calls = 0;
  target.putWrites = async (...args) => {
    if (++calls === hangAt) {
      process.stdout.write('hang\n');
      await new Promise(() => undefined);
    }
    return putWrites(...args);
  };
}
await migrateCheckpoints(source, target, { apply: true, verify: false, onProgress: (e) => process.stdout.write(`progress ${e.done}\n`) });
process.stdout.write('done\n');
await store.close();
source.db.close();
