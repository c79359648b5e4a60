import { Annotation, END, START, StateGraph } from '@langchain/langgraph';
import { isRetryablePostgresError, openPostgresStore } from '@session-checkpoint/store-kysely';
import pg from 'pg';
import { randomBytes } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { SessionCheckpointSaver } from './index.js';
import { dropSchema, PG_URL, uniqueSchema } from './test-support/backends.js';

/*
 * What the saver surfaces when the server ends its connections while 32 agents run turns
 * (`graph.invoke`) through one saver: a failed turn rejects with the store's error, unwrapped and
 * `retryable: true`; every acknowledged turn is in its thread's state afterwards; every thread's
 * latest checkpoint reads back (every row verified); and the same saver carries on. The test
 * terminates only the backends of its own store, found by an application_name made for it.
 */

const State = Annotation.Root({
  items: Annotation<string[]>({ reducer: (a, b) => [...a, ...b], default: () => [] }),
});

describe.skipIf(!PG_URL)('32 agents on the saver while the server terminates their connections', () => {
  const schema = uniqueSchema('sc_lg_killed');
  afterAll(() => dropSchema(schema));

  it('a failed turn is retryable, acknowledged turns stay, every thread reads back', async () => {
    const application = `sc-lg-${randomBytes(4).toString('hex')}`;
    const url = new URL(PG_URL!);
    url.searchParams.set('application_name', application);
    const store = await openPostgresStore(url.href, { schema, poolSize: 8 });
    const admin = new pg.Client({ connectionString: PG_URL });
    await admin.connect();
    try {
      const saver = new SessionCheckpointSaver(store);
      const graph = new StateGraph(State)
        .addNode('agent', (state) => ({ items: [`reply ${state.items.length}`] }))
        .addEdge(START, 'agent')
        .addEdge('agent', END)
        .compile({ checkpointer: saver });
      const acked = new Map<string, string[]>();
      const errors: unknown[] = [];
      let done = 0;
      let running = true;
      const agent = async (n: number) => {
        const thread = `agent-${n}`;
        acked.set(thread, []);
        for (let turn = 0; running; turn++) {
          const item = `${thread} turn ${turn}`;
          try {
            await graph.invoke({ items: [item] }, { configurable: { thread_id: thread } });
            acked.get(thread)!.push(item);
            done++;
          } catch (error) {
            errors.push(error);
            await new Promise((resolve) => setTimeout(resolve, 20));
          }
        }
      };
      const all = Promise.all(Array.from({ length: 32 }, (_, n) => agent(n)));
      const until = async (count: number) => {
        while (done < count) await new Promise((resolve) => setTimeout(resolve, 10));
      };
      try {
        for (let round = 1; round <= 3; round++) {
          await until(40 * round);
          await admin.query('select pg_terminate_backend(pid) from pg_stat_activity where application_name = $1', [application]);
        }
        await until(40 * 3 + 64);
      } finally {
        running = false;
        await all;
      }
      expect(errors.length, 'terminations were felt by running agents').toBeGreaterThan(0);
      const unmarked = errors.filter((e) => !isRetryablePostgresError(e) || (e as { retryable?: unknown }).retryable !== true);
      expect(unmarked.map((e) => String(e))).toEqual([]);
      for (const [thread, items] of acked) {
        const tuple = await saver.getTuple({ configurable: { thread_id: thread } });
        const state = (tuple?.checkpoint.channel_values.items ?? []) as string[];
        expect(items.filter((item) => !state.includes(item)), thread).toEqual([]);
      }
      // And the same saver simply works.
      await graph.invoke({ items: ['after'] }, { configurable: { thread_id: 'after' } });
    } finally {
      await admin.end();
      await store.close();
    }
  }, 600_000);
});
