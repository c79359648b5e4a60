import { CheckpointStore, MemoryAdapter } from '@session-checkpoint/core';
import { n, type BenchContext, type Sample } from '../context.js';
import { opsPerSecond } from '../harness.js';
import { agentState } from '../payloads.js';
import { LangGraphPeer } from '../peers/langgraph.js';

/** The in-memory adapters side by side: our MemoryAdapter (with verification) and LangGraph's MemorySaver. */
export async function memory(ctx: BenchContext): Promise<Sample[]> {
  const payloads = Array.from({ length: 16 }, (_, i) => agentState(1024, i));
  const store = new CheckpointStore(new MemoryAdapter());
  const saver = LangGraphPeer.memory();
  const writes = n(ctx, 3000);
  const samples: Sample[] = [];
  const ids: number[] = [];
  samples.push({
    scenario: 'memory put 1KiB',
    impl: 'session-checkpoint',
    unit: 'ops/s',
    value: await opsPerSecond(async (i) => ids.push((await store.create({ namespace: 'bench', sessionId: 's-0', payload: payloads[Math.abs(i) & 15]! })).id), writes),
  });
  samples.push({ scenario: 'memory put 1KiB', impl: 'MemorySaver.put', unit: 'ops/s', value: await opsPerSecond((i) => saver.put('s-0', payloads[Math.abs(i) & 15]!), writes) });
  const reads = n(ctx, 3000);
  samples.push({ scenario: 'memory get latest', impl: 'session-checkpoint', unit: 'ops/s', value: await opsPerSecond(() => store.latest('s-0', { namespace: 'bench' }), reads) });
  samples.push({ scenario: 'memory get latest', impl: 'MemorySaver.getTuple', unit: 'ops/s', value: await opsPerSecond(() => saver.getTuple('s-0'), reads) });
  return samples;
}
