import { openSqliteStore } from '@session-checkpoint/store-kysely';
import { join } from 'node:path';
import { n, type BenchContext, type Sample } from '../context.js';
import { opsPerSecond } from '../harness.js';
import { agentState } from '../payloads.js';
import { LangGraphPeer } from '../peers/langgraph.js';
import { RawFloor } from '../peers/raw-floor.js';

const CREATED_AT = '2026-08-08T07:00:00Z';

/**
 * create with 1 KiB and 900 KiB payloads at both durabilities: our store, the raw floor and
 * LangGraph's SqliteSaver.put, each on its own fresh file in the same directory.
 */
export async function sqliteWrites(ctx: BenchContext): Promise<Sample[]> {
  const samples: Sample[] = [];
  for (const [label, bytes, count] of [['1KiB', 1024, 2000], ['900KiB', 900 * 1024, 40]] as const) {
    const payloads = Array.from({ length: 16 }, (_, i) => agentState(bytes, i));
    for (const durability of ['full', 'normal'] as const) {
      const scenario = `create ${label} (${durability})`;
      const iterations = n(ctx, durability === 'full' && bytes < 2048 ? count / 2 : count);
      const dir = ctx.dir();

      const store = await openSqliteStore(join(dir, 'ours.sqlite'), { durability });
      samples.push({
        scenario,
        impl: 'session-checkpoint',
        unit: 'ops/s',
        value: await opsPerSecond((i) => store.create({ namespace: 'bench', sessionId: `s-${i & 7}`, payload: payloads[i & 15]!, createdAt: CREATED_AT }), iterations),
      });
      await store.close();

      const floor = new RawFloor(join(dir, 'floor.sqlite'), durability);
      samples.push({ scenario, impl: 'raw floor', unit: 'ops/s', value: await opsPerSecond((i) => floor.insert(`s-${i & 7}`, payloads[i & 15]!, CREATED_AT), iterations) });
      floor.close();

      const saver = LangGraphPeer.sqlite(join(dir, 'langgraph.sqlite'), durability);
      samples.push({ scenario, impl: 'SqliteSaver.put', unit: 'ops/s', value: await opsPerSecond((i) => saver.put(`s-${i & 7}`, payloads[i & 15]!), iterations) });
      saver.close();
    }
  }
  return samples;
}
