// A child process that drives a SessionCheckpointSaver (the built package) on one thread:
//   node saver-child.mjs <sqlite:path | postgres:schema | postgres-lockrow:schema> <thread> <count | forever | delete>
// Each step changes "turn" and carries "system" over; it prints "put <n>" after each put.
// SC_LG_MAX=<n> sets maxCheckpointsPerThread.
import { SessionCheckpointSaver } from '../../dist/index.js';
import { openTarget } from './open-target.mjs';
import { uuid6 } from '@langchain/langgraph-checkpoint';

const [target, thread, count] = process.argv.slice(2);
const store = await openTarget(target, { busyTimeoutMs: 300_000, poolSize: 1 });
const max = process.env.SC_LG_MAX === undefined ? undefined : Number(process.env.SC_LG_MAX);
// "system" is small: linked, not repeated (inlineCarriedBytes 0), so that every row links to an
// earlier one and the processes race on those links.
const saver = new SessionCheckpointSaver(store, { inlineCarriedBytes: 0, ...(max === undefined ? {} : { maxCheckpointsPerThread: max }) });
if (count === 'delete') {
  // Another process deletes the thread, then exits.
  await saver.deleteThread(thread);
  process.stdout.write('deleted\n');
  await store.close();
  process.exit(0);
}
const padding = 'p'.repeat(50_000);
let config = { configurable: { thread_id: thread, checkpoint_ns: '' } };
const limit = count === 'forever' ? Infinity : Number(count);
for (let i = 0; i < limit; i++) {
  const checkpoint = {
    v: 4,
    id: uuid6(-1),
    ts: new Date().toISOString(),
    channel_values: { system: `system of ${thread}`, turn: { step: i, thread, padding } },
    channel_versions: { system: 1, turn: i + 1 },
    versions_seen: {},
  };
  config = await saver.put(config, checkpoint, { source: 'loop', step: i, parents: {} }, i === 0 ? { system: 1, turn: 1 } : { turn: i + 1 });
  await saver.putWrites(config, [['turn', { step: i + 1 }]], `task-${i}`);
  process.stdout.write(`put ${i + 1}\n`);
}
await store.close();
