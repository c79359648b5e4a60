// Reads pages of a namespace until killed (a reader attached to the store); prints `read <n>` now and then.
import { fail, openTarget } from './open-target.mjs';

const [spec, namespace] = process.argv.slice(2);
try {
  const store = await openTarget(spec);
  process.stdout.write('ready\n');
  for (let i = 0; ; i++) {
    const page = await store.list({ namespace, limit: 50 });
    if (i % 50 === 0) process.stdout.write(`read ${page.length}\n`);
  }
} catch (error) {
  fail(error);
}
