// Opens (creating if needed) and closes a store: many of these at once race to create it.
import { fail, openTarget } from './open-target.mjs';

try {
  const store = await openTarget(process.argv[2]);
  await store.create({ namespace: 'race', sessionId: `p-${process.pid}`, payload: { pid: process.pid } });
  await store.close();
  process.stdout.write('done\n');
} catch (error) {
  fail(error);
}
