import { createHash } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { AIMessage, HumanMessage } from '@langchain/core/messages';
import { Annotation, Command, END, interrupt, MessagesAnnotation, START, StateGraph } from '@langchain/langgraph';
import { JsonPlusSerializer, type BaseCheckpointSaver, type CheckpointTuple } from '@langchain/langgraph-checkpoint';
import { PostgresSaver } from '@langchain/langgraph-checkpoint-postgres';
import { SqliteSaver } from '@langchain/langgraph-checkpoint-sqlite';
import Database from 'better-sqlite3';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { dropSchema, PG_URL, tempDir, uniqueSchema } from '../test-support/backends.js';
import { officialChannelValues, officialState, officialThreads, officialTimeline, officialWrites, openOfficialStore, UndecodableValueError, type OfficialStore } from './index.js';
import { officialStoreStats } from './stats.js';

/*
 * The official-store reader gives what the official savers give: a real graph (a subgraph that
 * interrupts, a fork made by updateState, a waiting interrupt, a Map, a 300 KB message) runs on a
 * real SqliteSaver file and a real PostgresSaver schema; then for every checkpoint `list` lists,
 * officialState equals getTuple in serialised form, and the timeline pages are list's order. The
 * SQLite file is byte-identical afterwards, with no -wal or -shm left.
 */

const tmp = tempDir();
const schemas: string[] = [];
afterAll(async () => {
  tmp.remove();
  for (const schema of schemas) await dropSchema(schema);
});

const State = Annotation.Root({
  ...MessagesAnnotation.spec,
  count: Annotation<number>({ reducer: (_, b) => b, default: () => 0 }),
  notes: Annotation<Map<string, number>>({ reducer: (_, b) => b, default: () => new Map() }),
});

const review = new StateGraph(State)
  .addNode('ask', (s) => {
    if (s.count === 2) return { messages: [new HumanMessage(`review: ${interrupt({ question: `continue after ${s.count}?` }) as string}`)] };
    return { messages: [new HumanMessage('review: auto')] };
  })
  .addEdge(START, 'ask')
  .compile();

const BIG = 'x'.repeat(300_000);

function buildGraph(checkpointer: BaseCheckpointSaver) {
  return new StateGraph(State)
    .addNode('agent', (s) => ({
      count: s.count + 1,
      messages: [new AIMessage(s.count === 0 ? BIG : `step ${s.count + 1}`)],
      notes: new Map([...s.notes, [`agent-${s.count + 1}`, s.count + 1]]),
    }))
    .addNode('review', review)
    .addEdge(START, 'agent')
    .addEdge('agent', 'review')
    .addConditionalEdges('review', (s) => (s.count < 3 ? 'agent' : END))
    .compile({ checkpointer });
}

const THREAD = { configurable: { thread_id: 'chat-1' } };

/** A run through the subgraph's interrupt, a resume, a fork from an earlier checkpoint left waiting, and a second thread. */
async function runScenario(saver: BaseCheckpointSaver): Promise<void> {
  const graph = buildGraph(saver);
  await graph.invoke({ messages: [new HumanMessage('hello')] }, THREAD);
  await graph.invoke(new Command({ resume: 'yes' }), THREAD);
  const history = [];
  for await (const s of graph.getStateHistory(THREAD)) history.push(s);
  const earlier = history.find((s) => s.next[0] === 'review' && s.values.count === 1);
  if (!earlier) throw new Error('no earlier checkpoint');
  await graph.invoke(null, await graph.updateState(earlier.config, { messages: [new HumanMessage('forked')], count: 1 }));
  await graph.invoke({ messages: [new HumanMessage('other thread')] }, { configurable: { thread_id: 'chat-2' } });
}

const serde = new JsonPlusSerializer();
/** What the serializer writes for a value: the JSON form the readers return. */
async function serialised(value: unknown): Promise<unknown> {
  const [type, bytes] = await serde.dumpsTyped(value);
  expect(type).toBe('json');
  return JSON.parse(new TextDecoder().decode(bytes));
}

/** Every check of the reader against the saver that wrote the store. */
async function checkAgainst(saver: BaseCheckpointSaver, store: OfficialStore): Promise<void> {
  const tuples: CheckpointTuple[] = [];
  for await (const t of saver.list({ configurable: { thread_id: 'chat-1' } })) tuples.push(t);
  const namespaces = new Set(tuples.map((t) => t.config.configurable?.checkpoint_ns as string));
  expect(namespaces.size).toBeGreaterThan(1); // the subgraph's namespace
  let forks = 0;
  let waiting = 0;
  for (const tuple of tuples) {
    const c = tuple.config.configurable as { checkpoint_ns: string; checkpoint_id: string };
    const selector = { threadId: 'chat-1', checkpointNs: c.checkpoint_ns, checkpointId: c.checkpoint_id };
    const state = await officialState(store, selector);
    expect(state.source).toBe(store.kind === 'sqlite' ? 'SqliteSaver' : 'PostgresSaver');
    expect(state.verified).toBe(false);
    expect(state.values).toEqual(await serialised(tuple.checkpoint.channel_values));
    expect(state.metadata).toEqual(await serialised(tuple.metadata));
    expect(state.pending_writes).toEqual(await serialised(tuple.pendingWrites ?? []));
    expect(state.parent_checkpoint_id).toBe(tuple.parentConfig?.configurable?.checkpoint_id ?? null);
    const { channel_values: _, ...rest } = tuple.checkpoint;
    expect(state.checkpoint).toEqual(await serialised(rest));
    const writes = await officialWrites(store, selector);
    expect(writes.map((w) => [w.task_id, w.channel, w.value])).toEqual(state.pending_writes);
    if (state.pending_writes.some(([, channel]) => channel === '__interrupt__')) waiting++;
    if ((tuple.metadata?.source as string) === 'update') forks++;
    const only = await officialChannelValues(store, { ...selector, channels: ['messages'] });
    expect(only).toEqual('messages' in state.values ? { messages: state.values.messages } : {});
  }
  expect(forks).toBe(1);
  expect(waiting).toBeGreaterThan(0);
  // The large message is there in full.
  const latest = await officialState(store, { threadId: 'chat-1' });
  expect(latest.checkpoint_id).toBe((await saver.getTuple(THREAD))?.config.configurable?.checkpoint_id);
  expect(JSON.stringify(latest.values.messages)).toContain(BIG);
  // The timeline of each namespace, in pages of 2, is list's order; the changes are the versions that moved.
  for (const ns of namespaces) {
    const listed = tuples.filter((t) => t.config.configurable?.checkpoint_ns === ns);
    const entries = [];
    let cursor: string | undefined;
    do {
      const page = await officialTimeline(store, { threadId: 'chat-1', checkpointNs: ns, limit: 2, ...(cursor === undefined ? {} : { cursor }) });
      expect(page.entries.length).toBeLessThanOrEqual(2);
      entries.push(...page.entries);
      cursor = page.next_cursor ?? undefined;
    } while (cursor !== undefined);
    expect(entries.map((e) => e.checkpoint_id)).toEqual(listed.map((t) => t.config.configurable?.checkpoint_id));
    expect(entries.map((e) => e.parent_checkpoint_id)).toEqual(listed.map((t) => t.parentConfig?.configurable?.checkpoint_id ?? null));
    for (const [i, e] of entries.entries()) {
      const t = listed[i] as CheckpointTuple;
      expect(e.status).toBe('unverified');
      expect(e.row_id).toBeNull();
      expect(e.bytes).toBeGreaterThan(0);
      expect(e.ts).toBe(t.checkpoint.ts);
      expect(e.metadata).toEqual(await serialised(t.metadata));
      expect(e.channels).toEqual(Object.keys(t.checkpoint.channel_values).sort());
      const parent = listed.find((p) => p.config.configurable?.checkpoint_id === t.parentConfig?.configurable?.checkpoint_id);
      const changed = Object.keys(t.checkpoint.channel_values).filter((ch) => parent === undefined || String(parent.checkpoint.channel_versions[ch]) !== String(t.checkpoint.channel_versions[ch]));
      expect(e.changed_channels).toEqual(changed.sort());
      expect(e.write_channels).toEqual([...new Set((t.pendingWrites ?? []).map((w) => w[1]))].sort());
    }
  }
  // The step with the large message counts its bytes.
  const threads = await officialThreads(store);
  expect(threads.map((t) => t.thread_id).sort()).toEqual(['chat-1', 'chat-2']);
  const one = threads.find((t) => t.thread_id === 'chat-1');
  expect(one).toMatchObject({ family: 'langgraph', verified: false, count: tuples.length, checkpoint_ns: [...namespaces].sort() });
  expect(one?.bytes).toBeGreaterThan(BIG.length);
  expect(one?.first_created_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
  // Stats count what the tables hold.
  const stats = await officialStoreStats(store);
  const s1 = stats.threads.find((t) => t.thread_id === 'chat-1');
  expect(s1?.checkpoints).toBe(tuples.length);
  expect(s1?.writes).toBe(tuples.reduce((n, t) => n + (t.pendingWrites?.length ?? 0), 0));
  expect(s1?.bytes).toBe(one?.bytes);
  expect(s1?.estimated_bytes_in_our_layout).toBeGreaterThan(0);
  // Not found is typed.
  await expect(officialState(store, { threadId: 'nobody' })).rejects.toMatchObject({ name: 'CheckpointNotFoundError' });
  await expect(officialTimeline(store, { threadId: 'chat-1', cursor: '!' })).rejects.toMatchObject({ name: 'CheckpointValidationError' });
}

const sha = (path: string) => createHash('sha256').update(readFileSync(path)).digest('hex');

describe('the official-store reader on SqliteSaver', () => {
  it('gives getTuple and list for every checkpoint (subgraph, fork, interrupt, large value), writing nothing', async () => {
    const path = join(tmp.dir, 'saver.db');
    const saver = SqliteSaver.fromConnString(path);
    await runScenario(saver);
    saver.db.close();
    const before = sha(path);
    expect(existsSync(`${path}-wal`)).toBe(false);
    const reading = SqliteSaver.fromConnString(path);
    const store = await openOfficialStore(`sqlite:${path}`);
    try {
      await checkAgainst(reading, store);
    } finally {
      await store.close();
      reading.db.close();
    }
    // The saver's own reading connection leaves the file as it was too; ours is checked after its own close.
    const store2 = await openOfficialStore(`sqlite:${path}`);
    await officialTimeline(store2, { threadId: 'chat-1' });
    await officialState(store2, { threadId: 'chat-1' });
    await expect(store2.query(`DELETE FROM checkpoints RETURNING thread_id`)).rejects.toMatchObject({ code: 'SQLITE_READONLY' });
    await store2.close();
    expect(sha(path)).toBe(before);
    expect(existsSync(`${path}-wal`)).toBe(false);
    expect(existsSync(`${path}-shm`)).toBe(false);
  });

  it('fails with a typed error on a value of a type it cannot decode, and on a missing file or tables', async () => {
    const path = join(tmp.dir, 'odd.db');
    const saver = SqliteSaver.fromConnString(path);
    await buildGraph(saver).invoke({ messages: [new HumanMessage('hi')] }, { configurable: { thread_id: 't' } });
    saver.db.prepare(`UPDATE writes SET type = 'msgpack'`).run();
    const [w] = saver.db.prepare(`SELECT checkpoint_id FROM writes LIMIT 1`).all() as { checkpoint_id: string }[];
    saver.db.close();
    const store = await openOfficialStore(`sqlite:${path}`);
    try {
      const error = await officialWrites(store, { threadId: 't', checkpointNs: '', checkpointId: w?.checkpoint_id ?? '' }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(UndecodableValueError);
      expect((error as UndecodableValueError).valueType).toBe('msgpack');
      expect((error as Error).message).toContain('"msgpack"');
    } finally {
      await store.close();
    }
    await expect(openOfficialStore(`sqlite:${join(tmp.dir, 'none.db')}`)).rejects.toMatchObject({ name: 'StoreNotFoundError' });
    expect(existsSync(join(tmp.dir, 'none.db'))).toBe(false);
    const empty = join(tmp.dir, 'empty.db');
    new Database(empty).close();
    await expect(openOfficialStore(`sqlite:${empty}`)).rejects.toMatchObject({ name: 'StoreNotFoundError' });
    const junk = join(tmp.dir, 'junk.db');
    writeFileSync(junk, 'not a database at all, just text that is long enough to have a header');
    await expect(openOfficialStore(`sqlite:${junk}`)).rejects.toMatchObject({ name: 'StoreNotFoundError' });
    await expect(openOfficialStore('mysql://x')).rejects.toMatchObject({ name: 'CheckpointValidationError' });
    // A PostgreSQL URL naming neither host nor database is refused before any connection (not left to the driver's defaults).
    for (const bad of ['postgres://', 'postgresql:///', 'postgres://?schema=s']) {
      await expect(openOfficialStore(bad), bad).rejects.toMatchObject({ name: 'CheckpointValidationError', message: expect.stringContaining('names no host or database') });
    }
  });
});

describe.skipIf(!PG_URL)('the official-store reader on PostgresSaver', () => {
  it('gives getTuple and list for every checkpoint (subgraph, fork, interrupt, large value), in a read-only session', async () => {
    const schema = uniqueSchema('sc_off');
    schemas.push(schema);
    const saver = PostgresSaver.fromConnString(PG_URL ?? '', { schema });
    await saver.setup();
    await runScenario(saver);
    const store = await openOfficialStore(`${PG_URL}?schema=${schema}`);
    try {
      await checkAgainst(saver, store);
      await expect(store.query(`DELETE FROM "${schema}".checkpoints`)).rejects.toMatchObject({ code: '25006' });
    } finally {
      await store.close();
      await saver.end();
    }
    // The schema option beats the URL's, and a schema without the tables is StoreNotFoundError.
    const pool = new pg.Pool({ connectionString: PG_URL, max: 1 });
    await pool.query(`CREATE SCHEMA "${schema}_empty"`);
    await pool.end();
    schemas.push(`${schema}_empty`);
    await expect(openOfficialStore(`${PG_URL}?schema=${schema}`, { schema: `${schema}_empty` })).rejects.toMatchObject({ name: 'StoreNotFoundError' });
    const viaOption = await openOfficialStore(PG_URL ?? '', { schema });
    expect((await officialThreads(viaOption)).length).toBe(2);
    await viaOption.close();
  });
});
