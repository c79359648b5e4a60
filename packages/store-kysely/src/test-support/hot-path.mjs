// Opens a SQLite store and runs every hot operation once, then closes it and prints the CommonJS
// modules loaded (the ES modules are recorded by load-log.mjs). Args: <path> <create|existing|prune>.
import { createRequire } from 'node:module';
import { openSqliteStore } from '@session-checkpoint/store-kysely';
import { fail } from './open-target.mjs';

const [path, mode] = process.argv.slice(2);
try {
  const store = await openSqliteStore(path, { create: mode !== 'existing' });
  const a = await store.create({ sessionId: 's1', payload: { n: 1 }, sourceRef: 'ref/a' });
  await store.create({ sessionId: 's1', payload: { n: 2 }, sourceRef: 'ref/b' }, { keepLatest: 5 });
  await store.get(a.id);
  await store.findById(a.id);
  await store.findBySourceRef('default', 'ref/a');
  await store.listBySourceRefPrefix({ namespace: 'default', prefix: 'ref/', limit: 10 });
  await store.list({ limit: 10 });
  await store.latest('s1');
  await store.history('s1');
  for await (const checkpoint of store.scan()) void checkpoint;
  await store.verify();
  await store.sessions();
  await store.transaction(async (tx) => {
    await tx.create({ sessionId: 's2', payload: { n: 3 } });
    await tx.list({ sessionId: 's2' });
  });
  await store.delete(a.id, { apply: true });
  await store.deleteSession('s2', { apply: true });
  if (mode === 'prune') await store.prune({ keepLatest: 1, apply: true });
  await store.close();
  const cjs = Object.keys(createRequire(import.meta.url).cache);
  process.stdout.write(`${JSON.stringify({ cjs })}\n`);
} catch (error) {
  fail(error);
}
