import type { CheckpointTuple } from '@langchain/langgraph-checkpoint';
import { langgraphState } from '@session-checkpoint/langgraph/rows';
import { join } from 'node:path';
import { chatGraph, userMessage } from '../chat-graph.js';
import type { BenchContext, Sample } from '../context.js';
import { median } from '../harness.js';
import { openOurSqliteSaver } from '../saver-backends.js';

/*
 * The CLI's inspection readers (issue 29) on a real chat thread (chat-graph.ts, about 20 KB
 * appended per turn) on our saver over SQLite:
 * - the state of the latest checkpoint as `state` reads it (`langgraphState`, the framework-free
 *   reader, values in serialised JSON) against the saver's own `getTuple` of it, in paired rounds;
 * - `diff` of two neighbouring checkpoints whose states are about 2 MB each (`diffSteps`: both
 *   states read and verified, then fast-json-patch's compare).
 */

const THREAD = { configurable: { thread_id: 'chat' } };
/** Turns of the thread; its latest state holds 4 messages a turn. */
export const INSPECT_TURNS = 300;
/** Bytes a state should have for the diff measurement. */
const DIFF_STATE_BYTES = 2_000_000;
const ROUNDS = 15;

/** The CLI's inspection module, from the built CLI (not an export of the package). */
async function inspectModule(): Promise<{ diffSteps: (store: unknown, s: { threadId: string; from: string; to: string }) => Promise<{ patch: unknown[] }> }> {
  return import(new URL('../../../../packages/cli/dist/inspect/index.js', import.meta.url).href) as never;
}

export async function inspect(ctx: BenchContext): Promise<Sample[]> {
  const turns = Math.max(10, Math.round(INSPECT_TURNS * ctx.scale));
  const path = join(ctx.dir(), 'inspect.sqlite');
  const opened = await openOurSqliteSaver(path);
  const store = (opened.saver as unknown as { store: Parameters<typeof langgraphState>[0] }).store;
  const samples: Sample[] = [];
  try {
    const graph = chatGraph(opened.saver, 'plain');
    for (let turn = 0; turn < turns; turn++) await graph.invoke({ messages: [userMessage(turn)] }, THREAD);

    // Paired rounds: a busy machine slows both members of a round alike.
    const stateMs: number[] = [];
    const tupleMs: number[] = [];
    let messages = 0;
    for (let round = 0; round < ROUNDS + 2; round++) {
      let t = process.hrtime.bigint();
      const state = await langgraphState(store, { threadId: 'chat' });
      const s = Number(process.hrtime.bigint() - t) / 1e6;
      t = process.hrtime.bigint();
      const tuple = (await opened.saver.getTuple(THREAD)) as CheckpointTuple;
      const g = Number(process.hrtime.bigint() - t) / 1e6;
      messages = (state.values.messages as unknown[]).length;
      if (messages !== (tuple.checkpoint.channel_values.messages as unknown[]).length) throw new Error('state and getTuple disagree');
      if (round >= 2) {
        stateMs.push(s);
        tupleMs.push(g);
      }
    }
    const scenario = `inspect: latest state of a ${turns}-turn chat (${messages} messages), SQLite`;
    samples.push({ scenario, impl: 'state (langgraphState)', unit: 'ms', value: median(stateMs) });
    samples.push({ scenario, impl: 'SessionCheckpointSaver.getTuple', unit: 'ms', value: median(tupleMs) });

    // Two neighbouring checkpoints of about 2 MB each: the first whose messages pass the size.
    const ids: string[] = [];
    for await (const t of opened.saver.list(THREAD)) {
      const bytes = JSON.stringify(t.checkpoint.channel_values.messages ?? []).length;
      if (bytes >= DIFF_STATE_BYTES) ids.push(t.config.configurable?.checkpoint_id as string);
    }
    const [to, from] = ids.slice(-2).reverse();
    if (from !== undefined && to !== undefined) {
      const { diffSteps } = await inspectModule();
      const diffMs: number[] = [];
      for (let round = 0; round < ROUNDS + 2; round++) {
        const t = process.hrtime.bigint();
        const { patch } = await diffSteps(store, { threadId: 'chat', from, to });
        const ms = Number(process.hrtime.bigint() - t) / 1e6;
        if (patch.length === 0) throw new Error('no difference between neighbouring checkpoints');
        if (round >= 2) diffMs.push(ms);
      }
      samples.push({ scenario: `inspect: diff of two 2 MB states (neighbouring checkpoints), SQLite`, impl: 'diff (diffSteps)', unit: 'ms', value: median(diffMs) });
    }
  } finally {
    await opened.close();
  }
  return samples;
}
