import { spawn } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { AIMessage, HumanMessage, type BaseMessage } from '@langchain/core/messages';
import type { RunnableConfig } from '@langchain/core/runnables';
import { Annotation, Command, END, interrupt, MessagesAnnotation, START, StateGraph, type StateSnapshot } from '@langchain/langgraph';
import type { BaseCheckpointSaver } from '@langchain/langgraph-checkpoint';
import { PostgresSaver } from '@langchain/langgraph-checkpoint-postgres';
import { SqliteSaver } from '@langchain/langgraph-checkpoint-sqlite';
import { openSqliteStore } from '@session-checkpoint/store-kysely';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { migrateCheckpoints, MissingPackageError, openOfficialSaver, SessionCheckpointSaver, verifyMigration, type MigrationProgress } from '../index.js';
import { dropSchema, PG_URL, tempDir, uniqueSchema } from '../test-support/backends.js';

/*
 * Moving threads between LangGraph's official savers and ours, with real graphs on real files and
 * the real PostgreSQL server: a graph with a subgraph that interrupts, a fork and an unresumed
 * interrupt (pending writes) is run on the source, moved, compared, and then run on from the
 * moved state on both sides with the same answers; and back again. A migration killed part way
 * (SIGKILL) and run again ends like a clean one.
 */

const tmp = tempDir();
const schemas: string[] = [];
afterAll(async () => {
  tmp.remove();
  for (const schema of schemas) await dropSchema(schema);
});
let files = 0;
const file = (name: string) => join(tmp.dir, `${files++}-${name}`);

const State = Annotation.Root({
  ...MessagesAnnotation.spec,
  count: Annotation<number>({ reducer: (_, b) => b, default: () => 0 }),
  notes: Annotation<Map<string, number>>({ reducer: (_, b) => b, default: () => new Map() }),
});

/** The subgraph: a review that interrupts for an answer when the count is 2. */
const review = new StateGraph(State)
  .addNode('ask', (s) => {
    if (s.count === 2) {
      const answer = interrupt({ question: `continue after ${s.count}?` }) as string;
      return { messages: [new HumanMessage(`review: ${answer}`)] };
    }
    return { messages: [new HumanMessage('review: auto')] };
  })
  .addEdge(START, 'ask')
  .compile();

function buildGraph(checkpointer: BaseCheckpointSaver) {
  return new StateGraph(State)
    .addNode('agent', (s) => ({
      count: s.count + 1,
      messages: [new AIMessage(`step ${s.count + 1}`)],
      notes: new Map([...s.notes, [`agent-${s.count + 1}`, s.count + 1]]),
    }))
    .addNode('review', review)
    .addEdge(START, 'agent')
    .addEdge('agent', 'review')
    .addConditionalEdges('review', (s) => (s.count < 3 ? 'agent' : END))
    .compile({ checkpointer });
}

const THREAD = { configurable: { thread_id: 'chat-1' } };

function interruptOf(result: object): unknown {
  return (result as { __interrupt__?: { value: unknown }[] }).__interrupt__?.[0]?.value;
}

/**
 * On `saver`: a run through the subgraph's interrupt, time travel, a fork that interrupts again
 * and is left waiting (its interrupt is a pending write), and a second thread.
 */
async function runScenario(saver: BaseCheckpointSaver, forkInterrupts = true): Promise<void> {
  const graph = buildGraph(saver);
  expect(interruptOf(await graph.invoke({ messages: [new HumanMessage('hello')] }, THREAD))).toEqual({ question: 'continue after 2?' });
  expect((await graph.invoke(new Command({ resume: 'yes' }), THREAD)).count).toBe(3);
  const history: StateSnapshot[] = [];
  for await (const s of graph.getStateHistory(THREAD)) history.push(s);
  const earlier = history.find((s) => s.next[0] === 'review' && s.values.count === 1);
  if (!earlier) throw new Error('no earlier checkpoint');
  const forkConfig = await graph.updateState(earlier.config, { messages: [new HumanMessage('forked')], count: 1 });
  const forked = await graph.invoke(null, forkConfig);
  if (forkInterrupts) expect(interruptOf(forked)).toEqual({ question: 'continue after 2?' });
  await graph.invoke({ messages: [new HumanMessage('other thread')] }, { configurable: { thread_id: 'chat-2' } });
}

/** Resumes the waiting interrupt on `saver` and returns the answer and the whole history, ids by position. */
async function runOn(saver: BaseCheckpointSaver): Promise<unknown> {
  const graph = buildGraph(saver);
  const done = await graph.invoke(new Command({ resume: 'again' }), THREAD);
  const all: StateSnapshot[] = [];
  for await (const s of graph.getStateHistory(THREAD)) all.push(s);
  const ids = new Map<string, number>();
  const idOf = (config: RunnableConfig | undefined) => {
    const id = config?.configurable?.checkpoint_id as string | undefined;
    if (id === undefined) return null;
    if (!ids.has(id)) ids.set(id, ids.size);
    return ids.get(id);
  };
  const values = (v: Record<string, unknown>) => ({
    count: v.count,
    notes: [...((v.notes as Map<string, number> | undefined) ?? [])],
    messages: (v.messages as BaseMessage[] | undefined)?.map((m) => [m.getType(), m.content]),
  });
  return {
    done: values(done as Record<string, unknown>),
    history: all.map((s) => ({ id: idOf(s.config), parent: idOf(s.parentConfig), values: values(s.values as Record<string, unknown>), next: s.next, source: s.metadata?.source, step: s.metadata?.step })),
  };
}

async function sqliteSaver(path: string): Promise<SqliteSaver> {
  return SqliteSaver.fromConnString(path);
}

describe('migrateCheckpoints between SqliteSaver and SessionCheckpointSaver', () => {
  it('moves every checkpoint, namespace, fork and pending write; the graph runs on alike; and back', async () => {
    const source = await sqliteSaver(file('source.db'));
    await runScenario(source);
    const namespaces = source.db.prepare("SELECT count(DISTINCT checkpoint_ns) AS n FROM checkpoints WHERE checkpoint_ns != ''").get() as { n: number };
    expect(namespaces.n).toBeGreaterThan(0); // the subgraph's checkpoints
    const sourceCount = (source.db.prepare('SELECT count(*) AS n FROM checkpoints').get() as { n: number }).n;
    const sourceWrites = (source.db.prepare('SELECT count(*) AS n FROM writes').get() as { n: number }).n;
    expect(sourceWrites).toBeGreaterThan(0);

    const store = await openSqliteStore(file('ours.sqlite'));
    const ours = new SessionCheckpointSaver(store);
    // A dry run counts and writes nothing.
    const events: MigrationProgress[] = [];
    const dry = await migrateCheckpoints(source, ours, { onProgress: (e) => events.push(e) });
    expect(dry).toEqual({ dryRun: true, threads: 2, checkpoints: sourceCount, writes: sourceWrites, present: 0 });
    expect(events.at(-1)).toEqual({ phase: 'count', done: sourceCount, total: sourceCount });
    expect(await store.list({ namespace: 'langgraph' })).toEqual([]);

    const applied = await migrateCheckpoints(source, ours, { apply: true });
    expect(applied).toMatchObject({ dryRun: false, threads: 2, checkpoints: sourceCount, writes: sourceWrites, present: 0 });
    expect(applied.verification).toEqual({ checkpoints: sourceCount, differences: [] });
    expect((await store.verify()).failures).toEqual([]);

    // Run again: nothing is copied twice.
    const again = await migrateCheckpoints(source, ours, { apply: true });
    expect(again).toMatchObject({ checkpoints: 0, writes: 0, present: sourceCount, verification: { differences: [] } });

    // The graph runs on from the moved state with the same answers as on the source.
    const onSource = await runOn(source);
    const onOurs = await runOn(ours);
    expect(onOurs).toEqual(onSource);
    expect((onOurs as { done: { count: number } }).done.count).toBe(3);

    // And back, into a fresh SqliteSaver: the same on both sides.
    const back = await sqliteSaver(file('back.db'));
    const reverse = await migrateCheckpoints(ours, back, { apply: true });
    expect(reverse.verification?.differences).toEqual([]);
    expect(reverse.checkpoints).toBeGreaterThan(sourceCount);
    expect(await runOn(back)).toEqual(await runOn(ours));
    await store.close();
  });

  it('reports every difference it finds', async () => {
    const source = await sqliteSaver(file('diff-source.db'));
    await runScenario(source);
    const target = await sqliteSaver(file('diff-target.db'));
    await migrateCheckpoints(source, target, { apply: true });
    // Change one checkpoint's metadata, drop another, and add a write, behind the savers' backs.
    const [first, second] = source.db.prepare("SELECT checkpoint_id AS id FROM checkpoints WHERE thread_id = 'chat-2' AND checkpoint_ns = '' ORDER BY checkpoint_id").all() as { id: string }[];
    target.db.prepare("UPDATE checkpoints SET metadata = CAST('{\"source\":\"input\",\"step\":99,\"parents\":{}}' AS BLOB) WHERE checkpoint_id = ?").run(first!.id);
    target.db.prepare('DELETE FROM checkpoints WHERE checkpoint_id = ?').run(second!.id);
    await target.putWrites({ configurable: { thread_id: 'chat-2', checkpoint_ns: '', checkpoint_id: first!.id } }, [['extra', 1]], 'task-x');
    const { differences } = await verifyMigration(source, target);
    expect(differences.map((d) => [d.threadId, d.checkpointId, d.what])).toEqual([
      ['chat-2', first!.id, 'metadata'],
      ['chat-2', first!.id, 'pending writes'],
      ['chat-2', second!.id, 'missing'],
    ]);
    expect(differences[0]?.target).toContain('"step":99');

    // A target that fails closed: the rows the newest checkpoint of chat-1 links to (its parent's
    // list, values carried with inlineCarriedBytes 0) are gone, so it cannot be read back. Reported,
    // and the comparison goes on.
    const storePath = file('damaged.sqlite');
    const store = await openSqliteStore(storePath);
    await migrateCheckpoints(source, new SessionCheckpointSaver(store, { inlineCarriedBytes: 0 }), { apply: true });
    await store.close();
    const ids = (source.db.prepare("SELECT checkpoint_id AS id FROM checkpoints WHERE thread_id = 'chat-1' AND checkpoint_ns = '' ORDER BY checkpoint_id").all() as { id: string }[]).map((r) => r.id);
    const newest = ids.pop()!;
    const db = new Database(storePath);
    for (const id of ids) db.prepare(`DELETE FROM checkpoints WHERE kind = 'langgraph.checkpoint' AND source_ref LIKE ?`).run(`lg/chat-1//${id}`);
    db.close();
    const reopened = await openSqliteStore(storePath);
    const damaged = await verifyMigration(source, new SessionCheckpointSaver(reopened));
    await reopened.close();
    expect(damaged.differences.filter((d) => d.what === 'missing').map((d) => d.checkpointId)).toEqual(ids);
    const unreadable = damaged.differences.filter((d) => d.what === 'unreadable');
    expect(unreadable.map((d) => d.checkpointId)).toEqual([newest]);
    expect(unreadable[0]?.target).toContain('CheckpointIntegrityError');
  });

  it('resumes after a SIGKILL, between a put and its writes or anywhere, and ends like a clean run', async () => {
    const sourcePath = file('big-source.db');
    const source = await sqliteSaver(sourcePath);
    const chat = new StateGraph(MessagesAnnotation)
      .addNode('reply', (s) => ({ messages: [new AIMessage(`answer ${s.messages.length}: ${'x'.repeat(2000)}`)] }))
      .addEdge(START, 'reply')
      .addEdge('reply', END)
      .compile({ checkpointer: source });
    for (let turn = 0; turn < 25; turn++) {
      for (const thread of ['long-1', 'long-2']) await chat.invoke({ messages: [new HumanMessage(`turn ${turn}`)] }, { configurable: { thread_id: thread } });
    }
    const clean = new SessionCheckpointSaver(await openSqliteStore(file('clean.sqlite')));
    const cleanReport = await migrateCheckpoints(source, clean, { apply: true });
    expect(cleanReport.verification?.differences).toEqual([]);

    for (const how of [{ SC_MIGRATE_HANG_WRITES: '17' }, {}]) {
      const storePath = file('killed.sqlite');
      const child = spawn(process.execPath, [join(dirname(fileURLToPath(import.meta.url)), '..', 'test-support', 'migrate-child.mjs'), sourcePath, storePath], {
        stdio: ['ignore', 'pipe', 'pipe'],
        env: { ...process.env, ...how },
      });
      let out = '';
      let stderr = '';
      child.stderr.setEncoding('utf8').on('data', (c: string) => (stderr += c));
      const exited = new Promise<NodeJS.Signals | null>((resolve) => child.on('close', (_code, signal) => resolve(signal)));
      await new Promise<void>((resolve) => {
        child.stdout.setEncoding('utf8').on('data', (c: string) => {
          out += c;
          // Hanging in a putWrites, or 30 checkpoints in: kill it there.
          if (out.includes('hang\n') || (out.match(/^progress /gm)?.length ?? 0) >= 30) resolve();
        });
        void exited.then(() => resolve());
      });
      child.kill('SIGKILL');
      expect(await exited, stderr).toBe('SIGKILL');
      expect(out).not.toContain('done');

      const store = await openSqliteStore(storePath);
      const resumed = new SessionCheckpointSaver(store);
      const before = await verifyMigration(source, resumed);
      expect(before.differences.length).toBeGreaterThan(0); // it was cut short
      // Killed between a put and its writes: that checkpoint is there without them.
      if (how.SC_MIGRATE_HANG_WRITES !== undefined) expect(before.differences.some((d) => d.what === 'pending writes')).toBe(true);
      const report = await migrateCheckpoints(source, resumed, { apply: true });
      expect(report.present).toBeGreaterThan(0);
      expect(report.present + report.checkpoints).toBe(cleanReport.checkpoints);
      expect(report.verification?.differences).toEqual([]);
      expect((await verifyMigration(clean, resumed)).differences).toEqual([]);
      expect((await store.verify()).failures).toEqual([]);
      await store.close();
    }
  });
});

describe.skipIf(!PG_URL)('migrateCheckpoints with PostgresSaver', () => {
  it('moves a PostgresSaver into ours and ours into a PostgresSaver, and the graph runs on alike', async () => {
    const schema = uniqueSchema('sc_mig');
    schemas.push(schema);
    const { saver: source, close } = await openOfficialSaver(`${PG_URL}?schema=${schema}`, { ifMissing: 'create' });
    const back = PostgresSaver.fromConnString(PG_URL ?? '', { schema: `${schema}_back` });
    schemas.push(`${schema}_back`);
    const store = await openSqliteStore(file('from-pg.sqlite'));
    try {
      // On PostgresSaver the fork's invoke does not stop at the subgraph's interrupt (on SqliteSaver
      // and ours it does): its own behaviour, which the moved copies must keep.
      await runScenario(source, false);
      const ours = new SessionCheckpointSaver(store);
      const report = await migrateCheckpoints(source, ours, { apply: true });
      expect(report.checkpoints).toBeGreaterThan(10);
      expect(report.writes).toBeGreaterThan(0);
      expect(report.verification?.differences).toEqual([]);

      // Into a PostgresSaver: it stores only the channels in newVersions, so these must be right.
      await back.setup();
      const reverse = await migrateCheckpoints(ours, back, { apply: true });
      expect(reverse.verification?.differences).toEqual([]);
      const onSource = await runOn(source);
      expect(await runOn(ours)).toEqual(onSource);
      expect(await runOn(back)).toEqual(onSource);
    } finally {
      await close();
      await back.end();
      await store.close();
    }
  });
});

describe('openOfficialSaver', () => {
  it('refuses what it cannot open with typed errors', async () => {
    await expect(openOfficialSaver(`sqlite:${file('missing.db')}`)).rejects.toMatchObject({ name: 'StoreNotFoundError' });
    await expect(openOfficialSaver('sqlite:')).rejects.toMatchObject({ name: 'CheckpointValidationError' });
    await expect(openOfficialSaver(`sqlite:${tmp.dir}`)).rejects.toMatchObject({ name: 'CheckpointValidationError' });
    await expect(openOfficialSaver('postgres://[bad')).rejects.toMatchObject({ name: 'CheckpointValidationError' });
    await expect(openOfficialSaver('mysql://x/y')).rejects.toMatchObject({ name: 'CheckpointValidationError', message: expect.stringContaining('sqlite:PATH') });
    const empty = await openOfficialSaver(`sqlite:${file('missing.db')}`, { ifMissing: 'empty' });
    expect(empty.kind).toBe('empty');
    // A SQLite file that is not a SqliteSaver's.
    const other = file('other.db');
    const created = await openOfficialSaver(`sqlite:${other}`, { ifMissing: 'create' });
    await created.close();
    const opened = await openOfficialSaver(`sqlite:${other}`);
    expect(opened.kind).toBe('sqlite');
    await opened.close();
    expect(new MissingPackageError('@langchain/langgraph-checkpoint-sqlite', 'A sqlite: location').message).toBe(
      'A sqlite: location needs @langchain/langgraph-checkpoint-sqlite, which is not installed: run npm install @langchain/langgraph-checkpoint-sqlite',
    );
  });
});
