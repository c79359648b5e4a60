// Creates checkpoints until killed; prints each id only after its create resolved (committed).
// Linux pipes are written synchronously, so a printed line is out before the next statement.
import { fail, openTarget } from './open-target.mjs';

const [spec, namespace] = process.argv.slice(2);
try {
  const store = await openTarget(spec);
  process.stdout.write('ready\n');
  for (let i = 0; ; i++) {
    const cp = await store.create({
      namespace,
      sessionId: `s-${i % 3}`,
      payload: { i, pid: process.pid, text: 'x'.repeat(i % 512), nested: { n: [i, i * 1.5] } },
    });
    process.stdout.write(`${cp.id}\n`);
  }
} catch (error) {
  fail(error);
}
