// Creates <count> checkpoints in <namespace> and prints "done <count>".
import { fail, openTarget } from './open-target.mjs';

const [spec, count, namespace] = process.argv.slice(2);
try {
  const store = await openTarget(spec);
  for (let i = 0; i < Number(count); i++) {
    await store.create({ namespace, sessionId: `p-${process.pid}`, payload: { i, pid: process.pid } });
  }
  await store.close();
  process.stdout.write(`done ${count}\n`);
} catch (error) {
  fail(error);
}
