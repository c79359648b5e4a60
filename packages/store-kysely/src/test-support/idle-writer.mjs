// Writes to the given sessions until killed, one row at a time, each in random order; prints
// `ack <session> <id>` only after its create resolved (committed). Rows carry the current time, so
// every session written here is no longer idle.
import { fail, openTarget } from './open-target.mjs';

const [spec, namespace, list] = process.argv.slice(2);
const sessions = list.split(',');
try {
  const store = await openTarget(spec);
  process.stdout.write('ready\n');
  for (let i = 0; ; i++) {
    const sessionId = sessions[Math.floor(Math.random() * sessions.length)];
    const cp = await store.create({ namespace, sessionId, payload: { i, pid: process.pid } });
    process.stdout.write(`ack ${sessionId} ${cp.id}\n`);
  }
} catch (error) {
  fail(error);
}
