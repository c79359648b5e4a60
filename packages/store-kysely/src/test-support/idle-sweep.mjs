// Runs one idle-expiry sweep (`expireIdle`, apply) of a namespace and prints its result as JSON.
import { fail, openTarget } from './open-target.mjs';

const [spec, namespace, idleFor] = process.argv.slice(2);
try {
  const store = await openTarget(spec);
  process.stdout.write('ready\n');
  const result = await store.expireIdle({ namespace, idleFor, apply: true });
  process.stdout.write(`${JSON.stringify(result)}\n`);
  await store.close();
} catch (error) {
  fail(error);
}
