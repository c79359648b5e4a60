import { join } from 'node:path';
import { AIMessage, HumanMessage } from '@langchain/core/messages';
import type { RunnableConfig } from '@langchain/core/runnables';
import { Annotation, MessagesAnnotation, START, StateGraph } from '@langchain/langgraph';
import { BaseCheckpointSaver, type CheckpointListOptions, type CheckpointTuple } from '@langchain/langgraph-checkpoint';
import { SqliteSaver } from '@langchain/langgraph-checkpoint-sqlite';
import { openSqliteStore } from '@session-checkpoint/store-kysely';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { migrateCheckpoints, SessionCheckpointSaver } from '../index.js';
import { tempDir } from '../test-support/backends.js';
import { tupleReader } from './decoded-source.js';

/*
 * The migration reads SqliteSaver through the `./official` decoder. Its result is the same, byte
 * for byte, as reading through the saver's own getTuple: the same graph's checkpoints (messages, a
 * Map, a Uint8Array, a pending write) moved both ways give rows with the same payloads and hashes.
 */

const tmp = tempDir();
afterAll(() => tmp.remove());

/** A saver that only delegates, so the migration cannot see the SqliteSaver under it and reads through getTuple and list. */
class Opaque extends BaseCheckpointSaver {
  constructor(private readonly inner: BaseCheckpointSaver) {
    super();
  }
  getTuple(config: RunnableConfig): Promise<CheckpointTuple | undefined> {
    return this.inner.getTuple(config);
  }
  list(config: RunnableConfig, options?: CheckpointListOptions): AsyncGenerator<CheckpointTuple> {
    return this.inner.list(config, options);
  }
  put(): never {
    throw new Error('read only');
  }
  putWrites(): never {
    throw new Error('read only');
  }
  deleteThread(): never {
    throw new Error('read only');
  }
}

const State = Annotation.Root({
  ...MessagesAnnotation.spec,
  notes: Annotation<Map<string, number>>({ reducer: (_, b) => b, default: () => new Map() }),
  blob: Annotation<Uint8Array>({ reducer: (_, b) => b, default: () => new Uint8Array() }),
});

const rows = (path: string) =>
  new Database(path, { readonly: true }).prepare('SELECT namespace, session_id, kind, name, payload_json, payload_sha256, source_ref FROM checkpoints ORDER BY id').all();

describe('migrate reads SqliteSaver through the ./official decoder', () => {
  it('moves the same bytes as reading through the saver getTuple', async () => {
    const path = join(tmp.dir, 'source.db');
    const source = SqliteSaver.fromConnString(path);
    const graph = new StateGraph(State)
      .addNode('agent', (s) => ({ messages: [new AIMessage(`answer ${s.messages.length}`)], notes: new Map([...s.notes, [`n${s.notes.size}`, s.notes.size]]), blob: new Uint8Array([1, 2, s.notes.size]) }))
      .addEdge(START, 'agent')
      .compile({ checkpointer: source });
    for (let i = 0; i < 3; i++) await graph.invoke({ messages: [new HumanMessage(`q${i}`)] }, { configurable: { thread_id: 't' } });
    expect(tupleReader(source)).not.toBe(source); // the decoder path is taken
    const decoded = await openSqliteStore(join(tmp.dir, 'decoded.sqlite'));
    const direct = await openSqliteStore(join(tmp.dir, 'direct.sqlite'));
    try {
      const a = await migrateCheckpoints(source, new SessionCheckpointSaver(decoded), { apply: true });
      const b = await migrateCheckpoints(new Opaque(source), new SessionCheckpointSaver(direct), { apply: true });
      expect(a.verification?.differences).toEqual([]);
      expect(b.verification?.differences).toEqual([]);
      expect(a.checkpoints).toBe(b.checkpoints);
      expect(a.writes).toBe(b.writes);
    } finally {
      await decoded.close();
      await direct.close();
      source.db.close();
    }
    const [x, y] = [rows(join(tmp.dir, 'decoded.sqlite')), rows(join(tmp.dir, 'direct.sqlite'))];
    expect(x.length).toBeGreaterThan(6);
    expect(x).toEqual(y);
  });
});
