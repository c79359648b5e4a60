// Once the file `go` exists, writes one row to each given session in random order, with short
// random pauses, then exits; prints `ack <session> <id>` only after its create resolved (committed).
// Rows carry the current time, so a session written here is no longer idle.
import { existsSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { fail, openTarget } from './open-target.mjs';

const [spec, namespace, list, go] = process.argv.slice(2);
const sessions = list.split(',').sort(() => Math.random() - 0.5);
try {
  const store = await openTarget(spec);
  process.stdout.write('ready\n');
  while (!existsSync(go)) await sleep(1);
  for (const sessionId of sessions) {
    await sleep(Math.random() * 8);
    const cp = await store.create({ namespace, sessionId, payload: { pid: process.pid } });
    process.stdout.write(`ack ${sessionId} ${cp.id}\n`);
  }
  process.stdout.write('done\n');
  await store.close();
} catch (error) {
  fail(error);
}
