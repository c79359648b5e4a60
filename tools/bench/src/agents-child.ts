/**
 * Child process of the agents scenario (scenarios/agents.ts): one worker process of a deployment.
 * It opens one saver (one pool, as a worker would), runs two untimed warm-up turns on a thread of
 * its own, prints `ready`, waits for `go` on stdin, then runs its agents at once, each
 * `turnsPerAgent` chat turns (one `graph.invoke` each) on its thread, and prints one JSON line:
 * the latency of every turn and the failed turns.
 *
 * Agents that share a thread take turns: each turn runs under that thread's lock (a promise
 * chain in this process; the parent puts every agent of a thread in one process). LangGraph has
 * no cross-process guard of its own: two concurrent turns on one thread both continue from the
 * same checkpoint and one of them is lost from the history, on every saver.
 *
 *   node tools/bench/dist/agents-child.js '{"backend":"SQLite","which":"ours","path":"/tmp/x.sqlite","agents":[{"thread":"a0"}],"turnsPerAgent":4}'
 */
import { createInterface } from 'node:readline';
import { openAgentsSaver, type AgentsResult, type AgentsSpec } from './agents-saver.js';
import { chatGraph, userMessage } from './chat-graph.js';

const firstLine = (error: unknown) => (error instanceof Error ? `${error.name}: ${error.message}` : String(error)).split('\n')[0]!.slice(0, 160);

async function main(): Promise<void> {
  const spec = JSON.parse(process.argv[2] ?? '{}') as AgentsSpec;
  const { saver, close } = await openAgentsSaver(spec);
  try {
    const graph = chatGraph(saver, 'plain');
    const warm = { configurable: { thread_id: `warm-up-${process.pid}` } };
    for (let turn = 0; turn < 2; turn++) await graph.invoke({ messages: [userMessage(turn)] }, warm);
    process.stdout.write('ready\n');
    await new Promise<void>((resolve) => {
      const lines = createInterface({ input: process.stdin });
      lines.on('line', (line) => {
        if (line === 'go') {
          lines.close();
          // An open stdin would keep this process alive after its answer.
          process.stdin.destroy();
          resolve();
        }
      });
    });
    // Per thread: the next turn's index and the tail of its lock chain.
    const threads = new Map<string, { next: number; tail: Promise<void> }>();
    for (const { thread } of spec.agents) threads.set(thread, { next: 0, tail: Promise.resolve() });
    const latencies: number[] = [];
    const failures: string[] = [];
    const turn = async (thread: string) => {
      const state = threads.get(thread)!;
      const run = state.tail.then(async () => {
        const index = state.next++;
        const start = process.hrtime.bigint();
        try {
          await graph.invoke({ messages: [userMessage(index)] }, { configurable: { thread_id: thread } });
          latencies.push(Number(process.hrtime.bigint() - start) / 1e6);
        } catch (error) {
          // The turn is not on the thread: the next one reuses its index.
          state.next--;
          failures.push(firstLine(error));
        }
      });
      state.tail = run;
      await run;
    };
    await Promise.all(
      spec.agents.map(async ({ thread }) => {
        for (let i = 0; i < spec.turnsPerAgent; i++) await turn(thread);
      }),
    );
    process.stdout.write(`${JSON.stringify({ latencies, failures } satisfies AgentsResult)}\n`);
  } finally {
    await close();
  }
}

await main();
