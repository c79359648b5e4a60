import { importBundle, readBundleFile, writeBundleFile } from '@session-checkpoint/bundle';
import { openSqliteStore } from '@session-checkpoint/store-kysely';
import { statSync } from 'node:fs';
import { join } from 'node:path';
import type { BenchContext, Sample } from '../context.js';
import { millis } from '../harness.js';
import { agentState } from '../payloads.js';

/** Export and import of 1000 checkpoints of 16 KiB (a 16 MiB bundle), SQLite to SQLite. */
export async function bundleTransfer(ctx: BenchContext): Promise<Sample[]> {
  const dir = ctx.dir();
  const count = Math.max(50, Math.round(1000 * Math.min(1, ctx.scale * 2)));
  const source = await openSqliteStore(join(dir, 'source.sqlite'), { durability: 'normal' });
  await source.transaction(async (tx) => {
    for (let i = 0; i < count; i++) await tx.create({ namespace: 'bench', sessionId: `s-${i % 10}`, payload: agentState(16 * 1024, i) });
  });
  const file = join(dir, 'bundle.json');
  const exportMs = await millis(() => writeBundleFile(source, file, { namespace: 'bench' }), false);
  const sizeMb = statSync(file).size / 1e6;
  let target = 0;
  const importMs = await millis(async () => {
    const store = await openSqliteStore(join(dir, `target-${target++}.sqlite`), { durability: 'normal' });
    await importBundle(store, await readBundleFile(file, store.limits), { apply: true });
    await store.close();
  }, false);
  await source.close();
  const scenario = `export/import ${count} x 16KiB (${sizeMb.toFixed(1)} MB)`;
  return [
    { scenario, impl: 'export (ms)', unit: 'ms', value: exportMs },
    { scenario, impl: 'import --apply (ms)', unit: 'ms', value: importMs },
  ];
}
