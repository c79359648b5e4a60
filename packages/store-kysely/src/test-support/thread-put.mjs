// Puts <count> states to one thread through the Checkpointer with maxHistory <max>.
import { Checkpointer } from '@session-checkpoint/core';
import { fail, openTarget } from './open-target.mjs';

const [spec, count, max] = process.argv.slice(2);
try {
  const store = await openTarget(spec);
  const threads = new Checkpointer(store, { namespace: 'threads', maxHistory: Number(max) });
  for (let i = 0; i < Number(count); i++) await threads.put('shared-thread', { i, pid: process.pid });
  await store.close();
  process.stdout.write(`done ${count}\n`);
} catch (error) {
  fail(error);
}
