import { uuid6, type BaseCheckpointSaver, type Checkpoint, type PendingWrite } from '@langchain/langgraph-checkpoint';
import { agentState } from './payloads.js';

/** The thread every saver-calls chain writes. */
export const THREAD = 'bench-thread';
/** Two pending writes, as a step leaves them: a message list and a branch marker. */
export const writes: PendingWrite[] = [['messages', agentState(512, 3)], ['branch:to:tools', null]];

/** One call kind made `calls` times on contender `k`. */
export type SaverCall = (k: number, calls: number) => Promise<void>;

/**
 * The same calls on each saver of a group, so that contenders compare like for like: `put` grows
 * a chain on {@link THREAD} with one of three channels changed per put (an agent loop's messages;
 * its profile and tools unchanged), `putWrites` two {@link writes} per call to the chain's first
 * or latest checkpoint, `getTuple` the thread's latest. `ids(k)` are contender k's checkpoint ids.
 */
export function saverCalls(savers: readonly BaseCheckpointSaver[], writesTo: 'first' | 'latest'): { put: SaverCall; putWrites: SaverCall; getTuple: SaverCall; ids: (k: number) => string[] } {
  const chains = savers.map(() => ({ config: { configurable: { thread_id: THREAD, checkpoint_ns: '' } } as { configurable: Record<string, unknown> }, ids: [] as string[], task: 0 }));
  const profile = agentState(1024, 1);
  const tools = agentState(1024, 2);
  const thread = { configurable: { thread_id: THREAD, checkpoint_ns: '' } };
  return {
    ids: (k) => chains[k]!.ids,
    put: async (k, calls) => {
      const chain = chains[k]!;
      for (let c = 0; c < calls; c++) {
        const i = chain.ids.length;
        const checkpoint: Checkpoint = { v: 4, id: uuid6(-1), ts: new Date().toISOString(), channel_values: { messages: agentState(1024, i), profile, tools }, channel_versions: { messages: i + 1, profile: 1, tools: 1 }, versions_seen: { agent: { messages: i } } };
        const newVersions: Record<string, number> = i === 0 ? { messages: 1, profile: 1, tools: 1 } : { messages: i + 1 };
        chain.config = (await savers[k]!.put(chain.config, checkpoint, { source: 'loop', step: i, parents: {} }, newVersions)) as typeof chain.config;
        chain.ids.push(checkpoint.id);
      }
    },
    putWrites: async (k, calls) => {
      const chain = chains[k]!;
      const target = { configurable: { thread_id: THREAD, checkpoint_ns: '', checkpoint_id: writesTo === 'first' ? chain.ids[0] : chain.ids.at(-1) } };
      for (let c = 0; c < calls; c++) await savers[k]!.putWrites(target, writes, `task-${chain.task++}`);
    },
    getTuple: async (k, calls) => {
      for (let c = 0; c < calls; c++) if ((await savers[k]!.getTuple(thread)) === undefined) throw new Error('getTuple found nothing');
    },
  };
}

/**
 * `call` on every contender in `rounds` interleaved rounds of `round` calls, the order rotating per
 * round (shifted by `turn`), so that the machine's drift over the run hits all alike
 * (docs/decisions/0023); 20 untimed calls each first compile the code. Seconds of wall time and of
 * this process's CPU time (user + system) per contender.
 */
export async function interleavedRounds(contenders: number, rounds: number, round: number, call: SaverCall, turn = 0): Promise<{ wall: number[]; cpu: number[] }> {
  for (let k = 0; k < contenders; k++) await call(k, 20);
  const wall = new Array<number>(contenders).fill(0);
  const cpu = new Array<number>(contenders).fill(0);
  for (let r = 0; r < rounds; r++) {
    for (let j = 0; j < contenders; j++) {
      const k = (j + r + turn) % contenders;
      const cpu0 = process.cpuUsage();
      const t0 = process.hrtime.bigint();
      await call(k, round);
      wall[k]! += Number(process.hrtime.bigint() - t0) / 1e9;
      const used = process.cpuUsage(cpu0);
      cpu[k]! += (used.user + used.system) / 1e6;
    }
  }
  return { wall, cpu };
}
