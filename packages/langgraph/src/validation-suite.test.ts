import { validate } from '@langchain/langgraph-checkpoint-validation';
import { describe, it } from 'vitest';
import { CheckpointStore, MemoryAdapter } from '@session-checkpoint/core';
import { openPostgresStore, openSqliteStore } from '@session-checkpoint/store-kysely';
import { join } from 'node:path';
import { SessionCheckpointSaver } from './index.js';
import { dropSchema, PG_URL, tempDir, uniqueSchema } from './test-support/backends.js';

/*
 * The official LangGraph.js checkpointer suite (pinned @langchain/langgraph-checkpoint-validation),
 * on each backend, under our own name: no test is skipped for us, including "should only store
 * channel_values that have changed". Each checkpointer gets empty storage: a fresh MemoryAdapter,
 * a fresh SQLite file, or a fresh namespace of one PostgreSQL schema made for this run.
 */

validate<SessionCheckpointSaver>({
  checkpointerName: '@session-checkpoint/langgraph (MemoryAdapter)',
  createCheckpointer: () => new SessionCheckpointSaver(new CheckpointStore(new MemoryAdapter())),
  destroyCheckpointer: (saver) => saver.store.close(),
});

const tmp = tempDir();
let files = 0;
validate<SessionCheckpointSaver>({
  checkpointerName: '@session-checkpoint/langgraph (SQLite)',
  createCheckpointer: async () => new SessionCheckpointSaver(await openSqliteStore(join(tmp.dir, `suite-${files++}.db`))),
  destroyCheckpointer: (saver) => saver.store.close(),
  afterAll: () => tmp.remove(),
});

const pgUrl = PG_URL;
if (pgUrl) {
  const schema = uniqueSchema('sc_lg_suite');
  let store: CheckpointStore | undefined;
  let namespaces = 0;
  validate<SessionCheckpointSaver>({
    checkpointerName: '@session-checkpoint/langgraph (PostgreSQL)',
    beforeAll: async () => {
      store = await openPostgresStore(pgUrl, { schema, poolSize: 4 });
    },
    beforeAllTimeout: 1_200_000,
    createCheckpointer: () => new SessionCheckpointSaver(store as CheckpointStore, { namespace: `suite-${namespaces++}` }),
    afterAll: async () => {
      await store?.close();
      await dropSchema(schema);
    },
  });
} else {
  describe.skip('official validation suite on PostgreSQL (SC_PG_URL is not set: SKIPPED)', () => {
    it('needs SC_PG_URL', () => undefined);
  });
}
