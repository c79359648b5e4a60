/**
 * `threads`, `state`, `diff`, `stats` and `inspect` on the official savers' stores through the real binary
 * (`--from` / `--source`): a real graph (a subgraph that interrupts, a fork by updateState, a
 * waiting interrupt, a 200 KB message) written by the real SqliteSaver and PostgresSaver. `state`
 * equals the saver's getTuple (serialised) at every checkpoint, every diff patch applied to A
 * gives B, the viewer's API answers the same JSON with every step unverified, bad locations are
 * JSON errors, and the SqliteSaver file is byte-identical afterwards with no -wal or -shm left.
 */
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { AIMessage, HumanMessage } from '@langchain/core/messages';
import { Annotation, Command, END, interrupt, MessagesAnnotation, START, StateGraph } from '@langchain/langgraph';
import { JsonPlusSerializer, type BaseCheckpointSaver, type CheckpointTuple } from '@langchain/langgraph-checkpoint';
import { PostgresSaver } from '@langchain/langgraph-checkpoint-postgres';
import { SqliteSaver } from '@langchain/langgraph-checkpoint-sqlite';
import fastJsonPatch from 'fast-json-patch';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { rawRequest, startInspect } from './test-support/inspect-server.js';
import { fileHash, removeTempDirs, runCli, runCliBatch, tempDir } from './test-support/run-cli.js';

const PG_URL = process.env.SC_PG_URL;
const schemas: string[] = [];
afterAll(async () => {
  removeTempDirs();
  if (PG_URL && schemas.length > 0) {
    const pool = new pg.Pool({ connectionString: PG_URL, max: 1 });
    for (const s of schemas) await pool.query(`DROP SCHEMA IF EXISTS "${s}" CASCADE`);
    await pool.end();
  }
});

const State = Annotation.Root({
  ...MessagesAnnotation.spec,
  count: Annotation<number>({ reducer: (_, b) => b, default: () => 0 }),
});
const review = new StateGraph(State)
  .addNode('ask', (s) => (s.count === 2 ? { messages: [new HumanMessage(`review: ${interrupt({ question: 'go on?' }) as string}`)] } : { messages: [new HumanMessage('review: auto')] }))
  .addEdge(START, 'ask')
  .compile();
const BIG = 'y'.repeat(200_000);

async function populate(saver: BaseCheckpointSaver): Promise<CheckpointTuple[]> {
  const graph = new StateGraph(State)
    .addNode('agent', (s) => ({ count: s.count + 1, messages: [new AIMessage(s.count === 0 ? BIG : `step ${s.count + 1}`)] }))
    .addNode('review', review)
    .addEdge(START, 'agent')
    .addEdge('agent', 'review')
    .addConditionalEdges('review', (s) => (s.count < 3 ? 'agent' : END))
    .compile({ checkpointer: saver });
  const thread = { configurable: { thread_id: 'chat-1' } };
  await graph.invoke({ messages: [new HumanMessage('hello')] }, thread);
  await graph.invoke(new Command({ resume: 'yes' }), thread);
  const history = [];
  for await (const s of graph.getStateHistory(thread)) history.push(s);
  const earlier = history.find((s) => s.next[0] === 'review' && s.values.count === 1);
  if (!earlier) throw new Error('no earlier checkpoint');
  await graph.invoke(null, await graph.updateState(earlier.config, { messages: [new HumanMessage('forked')], count: 1 }));
  await graph.invoke({ messages: [new HumanMessage('other')] }, { configurable: { thread_id: 'chat-2' } });
  const tuples: CheckpointTuple[] = [];
  for await (const t of saver.list({ configurable: { thread_id: 'chat-1' } })) tuples.push(t);
  return tuples;
}

const serde = new JsonPlusSerializer();
async function serialised(value: unknown): Promise<unknown> {
  const [, bytes] = await serde.dumpsTyped(value);
  return JSON.parse(new TextDecoder().decode(bytes));
}

const ok = (r: { code: number | null; stdout: string }) => {
  const document = JSON.parse(r.stdout) as { ok: boolean; result?: unknown; error?: string; type?: string };
  if (!document.ok) throw new Error(`CLI failed: ${r.stdout}`);
  return document.result as Record<string, unknown> & unknown[];
};

/** The commands against one official store; `source` is the location flag's value and `extra` any --schema. */
async function checkCommands(tuples: CheckpointTuple[], source: string, extra: string[], cwd: string): Promise<void> {
  const ids = tuples.map((t) => t.config.configurable as { checkpoint_ns: string; checkpoint_id: string });
  const results = await runCliBatch([
    { args: ['threads', '--from', source, ...extra], cwd },
    // --internal: the whole of getTuple's channel values (LangGraph's internal channels included).
    ...ids.map((c) => ({ args: ['state', '--source', source, ...extra, '--thread', 'chat-1', '--checkpoint-ns', c.checkpoint_ns, '--checkpoint', c.checkpoint_id, '--internal'], cwd })),
  ]);
  const threads = ok(results[0]!) as unknown as { thread_id: string; verified: boolean; source: string; count: number }[];
  expect(threads.map((t) => t.thread_id).sort()).toEqual(['chat-1', 'chat-2']);
  expect(threads.every((t) => t.verified === false)).toBe(true);
  expect(threads.find((t) => t.thread_id === 'chat-1')?.count).toBe(tuples.length);
  for (const [i, tuple] of tuples.entries()) {
    const state = ok(results[i + 1]!) as unknown as { values: unknown; metadata: unknown; pending_writes: unknown; verified: boolean };
    expect(state.verified).toBe(false);
    expect(state.values).toEqual(await serialised(tuple.checkpoint.channel_values));
    expect(state.metadata).toEqual(await serialised(tuple.metadata));
    expect(state.pending_writes).toEqual(await serialised(tuple.pendingWrites ?? []));
  }
  // diff (--from is the checkpoint there): across the fork, the patch turns A into B.
  const root = tuples.filter((t) => t.config.configurable?.checkpoint_ns === '');
  const [a, b] = [root[root.length - 1]!, root[0]!];
  const diff = ok(await runCli(['diff', '--source', source, ...extra, '--internal', '--thread', 'chat-1', '--from', a.config.configurable?.checkpoint_id as string, '--to', b.config.configurable?.checkpoint_id as string], { cwd })) as unknown as { patch: fastJsonPatch.Operation[] };
  const applied = fastJsonPatch.applyPatch(structuredClone(await serialised(a.checkpoint.channel_values)) as object, diff.patch, false, false).newDocument;
  expect(applied).toEqual(await serialised(b.checkpoint.channel_values));
  // The latest, with a pointer.
  const latest = ok(await runCli(['state', '--from', source, ...extra, '--thread', 'chat-1', '--path', '/messages/0'], { cwd }));
  // timeline, state --step and diff --from-step read through the same source: the numbers timeline
  // prints name the same checkpoints in state and diff, and every entry is unverified.
  const story = ok(await runCli(['timeline', '--from', source, ...extra, '--thread', 'chat-1', '--limit', '500'], { cwd })) as unknown as {
    entries: { checkpoint_id: string; step: number; status: string; on_latest_line: boolean; nodes: string[] }[];
  };
  expect(story.entries.map((e) => e.checkpoint_id)).toEqual(root.map((t) => t.config.configurable?.checkpoint_id));
  expect(story.entries.every((e) => e.status === 'unverified')).toBe(true);
  expect(story.entries.some((e) => e.nodes.includes('agent'))).toBe(true);
  const line = story.entries.filter((e) => e.on_latest_line && e.step >= 0);
  const [older, newer] = [line[line.length - 1]!, line[0]!];
  const byStep = ok(await runCli(['state', '--from', source, ...extra, '--thread', 'chat-1', '--step', String(older.step)], { cwd }));
  expect(byStep).toMatchObject({ checkpoint_id: older.checkpoint_id });
  const stepDiff = ok(await runCli(['diff', '--source', source, ...extra, '--thread', 'chat-1', '--from-step', String(older.step), '--to-step', String(newer.step)], { cwd }));
  const idDiff = ok(await runCli(['diff', '--source', source, ...extra, '--thread', 'chat-1', '--from', older.checkpoint_id, '--to', newer.checkpoint_id], { cwd }));
  expect(stepDiff).toEqual(idDiff);
  // diff --first-change on their store: the first checkpoint on the latest line where /messages/1
  // differs from its parent's, as the saver's own tuples say; walked counts the whole line.
  const byId = new Map(root.map((t) => [t.config.configurable?.checkpoint_id as string, t]));
  const chain: CheckpointTuple[] = [];
  for (let t: CheckpointTuple | undefined = root[0]; t !== undefined; t = byId.get(t.parentConfig?.configurable?.checkpoint_id as string)) chain.unshift(t);
  const second = async (t: CheckpointTuple) => ((await serialised(t.checkpoint.channel_values)) as { messages?: unknown[] }).messages?.[1];
  let expected: string | null = null;
  for (const [i, t] of chain.entries()) {
    if (JSON.stringify(await second(t)) !== JSON.stringify(i === 0 ? undefined : await second(chain[i - 1]!))) {
      expected = t.config.configurable?.checkpoint_id as string;
      break;
    }
  }
  const change = ok(await runCli(['diff', '--source', source, ...extra, '--thread', 'chat-1', '--first-change', '/messages/1'], { cwd })) as unknown as { checkpoint_id: string | null; walked: number };
  expect(expected).not.toBeNull();
  expect(change.checkpoint_id).toBe(expected);
  expect(change.walked).toBe(chain.length);
  // stats --from: every thread, chat-1 holding the 200 KB message (so the largest), its checkpoints counted.
  const stats = ok(await runCli(['stats', '--from', source, ...extra], { cwd })) as unknown as {
    threads: { thread_id: string; checkpoints: number; bytes: number; estimated_bytes_in_our_layout: number }[];
    totals: { threads: number; checkpoints: number };
  };
  expect(stats.threads.map((t) => t.thread_id)).toEqual(['chat-1', 'chat-2']);
  expect(stats.threads[0]?.checkpoints).toBe(tuples.length);
  expect(stats.threads[0]?.bytes).toBeGreaterThan(200_000);
  expect(stats.threads[0]?.estimated_bytes_in_our_layout).toBeGreaterThan(200_000);
  expect(stats.totals.threads).toBe(2);
  expect(latest).toMatchObject({ checkpoint_id: root[0]?.config.configurable?.checkpoint_id, path: '/messages/0', value: { kwargs: { content: 'hello' } } });
  // The viewer serves the same, every step unverified.
  const inspector = await startInspect(['--from', source, ...extra, '--no-open'], cwd);
  try {
    const headers = { Host: `127.0.0.1:${inspector.port}`, 'X-Session-Checkpoint-Token': inspector.token };
    const get = async (path: string) => {
      const r = await rawRequest(inspector.port, path, headers);
      expect(r.status, r.body).toBe(200);
      return JSON.parse(r.body) as Record<string, unknown>;
    };
    const listed = (await get('/api/threads')) as unknown as { threads?: unknown[] } & unknown[];
    expect(JSON.stringify(listed)).toContain('chat-1');
    const ns = encodeURIComponent((threads[0] as unknown as { namespace: string }).namespace);
    const timeline = (await get(`/api/timeline?family=langgraph&namespace=${ns}&thread=chat-1&limit=3`)) as { entries: { status: string; checkpoint_id: string }[]; next_cursor: string | null };
    expect(timeline.entries.map((e) => e.checkpoint_id)).toEqual(root.slice(0, 3).map((t) => t.config.configurable?.checkpoint_id));
    expect(timeline.entries.every((e) => e.status === 'unverified')).toBe(true);
    expect(timeline.next_cursor).not.toBeNull();
    const state = (await get(`/api/state?family=langgraph&namespace=${ns}&thread=chat-1&internal=1&checkpoint=${root[1]?.config.configurable?.checkpoint_id as string}`)) as { values?: unknown; state?: { values: unknown } };
    expect(state.values ?? state.state?.values).toEqual(await serialised(root[1]?.checkpoint.channel_values));
    // The sortable table of what takes the space: the threads of `stats --from`, in its shape for our store.
    const space = (await get('/api/stats')) as { namespaces: { sessions: { session_id: string; bytes: number }[] }[] };
    expect(space.namespaces[0]?.sessions.map((t) => [t.session_id, t.bytes])).toEqual(stats.threads.map((t) => [t.thread_id, t.bytes]));
  } finally {
    await inspector.stop();
  }
}

describe('the CLI on a SqliteSaver file (--from sqlite:PATH)', () => {
  it('threads, state, diff and inspect answer as the saver does; the file is left byte-identical, with no -wal or -shm', async () => {
    const dir = tempDir('sc-official-');
    const path = join(dir, 'saver.db');
    const saver = SqliteSaver.fromConnString(path);
    const tuples = await populate(saver);
    saver.db.close();
    const before = fileHash(path);
    await checkCommands(tuples, `sqlite:${path}`, [], dir);
    expect(fileHash(path)).toBe(before);
    expect(existsSync(`${path}-wal`)).toBe(false);
    expect(existsSync(`${path}-shm`)).toBe(false);
  });

  it('answers a JSON error for a missing file, a file without the tables, a bad location and flags that do not fit, creating nothing', async () => {
    const dir = tempDir('sc-official-bad-');
    const fail = async (args: string[], type: string, text: RegExp) => {
      const r = await runCli(args, { cwd: dir });
      expect(r.code).not.toBe(0);
      const document = JSON.parse(r.stdout) as { ok: boolean; error: string; type: string };
      expect(document).toMatchObject({ ok: false, type });
      expect(document.error).toMatch(text);
      expect(r.stderr).not.toMatch(/\n\s+at /); // no stack trace
    };
    await fail(['threads', '--from', 'sqlite:missing.db'], 'StoreNotFoundError', /No SqliteSaver database/);
    expect(existsSync(join(dir, 'missing.db'))).toBe(false);
    writeFileSync(join(dir, 'text.db'), 'plain text, not SQLite at all, long enough for a header');
    await fail(['state', '--from', 'sqlite:text.db', '--thread', 't'], 'StoreNotFoundError', /not a SQLite database/);
    const empty = join(dir, 'empty.db');
    const db = SqliteSaver.fromConnString(empty);
    db.db.close(); // a file with no tables
    await fail(['threads', '--from', `sqlite:${empty}`], 'StoreNotFoundError', /no SqliteSaver tables/);
    await fail(['threads', '--from', 'mysql://x'], 'UsageError', /sqlite:PATH/);
    await fail(['threads', '--from', 'sqlite:a.db', '--source', 'sqlite:b.db'], 'UsageError', /not both/);
    await fail(['threads', '--from', 'sqlite:a.db', '--store', 'x.sqlite'], 'UsageError', /instead of --store/);
    await fail(['state', '--from', 'sqlite:a.db', '--thread', 't', '--family', 'openai-agents'], 'UsageError', /LangGraph/);
  });
});

describe.skipIf(!PG_URL)('the CLI on a PostgresSaver database (--from postgres://... --schema S)', () => {
  it('threads, state, diff and inspect answer as the saver does; a schema without the tables is a JSON error', async () => {
    const dir = tempDir('sc-official-pg-');
    const schema = `sc_offcli_${process.pid}`;
    schemas.push(schema, `${schema}_none`);
    const saver = PostgresSaver.fromConnString(PG_URL ?? '', { schema });
    try {
      await saver.setup();
      const tuples = await populate(saver);
      await checkCommands(tuples, PG_URL ?? '', ['--schema', schema], dir);
    } finally {
      await saver.end();
    }
    const r = await runCli(['threads', '--from', PG_URL ?? '', '--schema', `${schema}_none`], { cwd: dir });
    expect(JSON.parse(r.stdout)).toMatchObject({ ok: false, type: 'StoreNotFoundError' });
  });
});
