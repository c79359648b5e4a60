/**
 * `threads`, `state` and `diff` through the real binary, over stores written by the real LangGraph
 * saver (a multi-turn StateGraph with a fork made by updateState), an OpenAI Agents session and
 * plain checkpoints, on a SQLite file and a PostgreSQL schema: `state` equals the saver's
 * `getTuple` (serialised) and the session's `getItems`; every diff patch applied to A gives B,
 * across the fork too; `--first-change` finds the step the test planted; a tampered row is a clear
 * error object (and a failed timeline entry), and the store stays byte-identical.
 */
import { AIMessage, HumanMessage } from '@langchain/core/messages';
import { Annotation, MessagesAnnotation, START, StateGraph } from '@langchain/langgraph';
import type { CheckpointTuple } from '@langchain/langgraph-checkpoint';
import type { CheckpointStore } from '@session-checkpoint/core';
import { SessionCheckpointSaver } from '@session-checkpoint/langgraph';
import { CheckpointSession } from '@session-checkpoint/openai-agents';
import { openPostgresStore, openSqliteStore } from '@session-checkpoint/store-kysely';
import Database from 'better-sqlite3';
import fastJsonPatch from 'fast-json-patch';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readTimeline } from './inspect/index.js';
import { fileHash, removeTempDirs, startCliSession, tempDir, type CliSession } from './test-support/run-cli.js';

const PG_URL = process.env.SC_PG_URL;
if (!PG_URL) console.warn('SC_PG_URL is not set: the PostgreSQL inspection tests are SKIPPED');

const State = Annotation.Root({
  ...MessagesAnnotation.spec,
  turns: Annotation<number>({ reducer: (_, b) => b, default: () => 0 }),
  flag: Annotation<string>({ reducer: (_, b) => b, default: () => 'ok' }),
});

/** Turn 3 plants `flag: "bad"`: the step `--first-change /flag` must find. */
function buildGraph(saver: SessionCheckpointSaver) {
  return new StateGraph(State)
    .addNode('agent', (s) => ({
      turns: s.turns + 1,
      messages: [new AIMessage({ content: `answer ${s.turns + 1}`, id: `ai-${s.turns + 1}` })],
      ...(s.turns + 1 === 3 ? { flag: 'bad' } : {}),
    }))
    .addEdge(START, 'agent')
    .compile({ checkpointer: saver });
}

/** What the serializer writes for a value: the form `state` prints. */
async function serialised(saver: SessionCheckpointSaver, value: unknown): Promise<unknown> {
  const [, bytes] = await saver.serde.dumpsTyped(value);
  return JSON.parse(new TextDecoder().decode(bytes));
}

interface Expected {
  tuples: { id: string; parent: string | null; values: unknown; metadata: unknown; pendingWrites: unknown }[];
  planted: string;
  forkId: string;
  items: unknown[];
}

/** Writes a LangGraph thread, an Agents session and plain checkpoints; returns what the libraries read back. */
async function populate(store: CheckpointStore): Promise<Expected> {
  const saver = new SessionCheckpointSaver(store);
  const graph = buildGraph(saver);
  const thread = { configurable: { thread_id: 'chat' } };
  for (let turn = 1; turn <= 4; turn++) await graph.invoke({ messages: [new HumanMessage(`question ${turn}`)] }, thread);
  const history = [];
  for await (const s of graph.getStateHistory(thread)) history.push(s);
  const old = history.find((s) => s.values.turns === 1 && s.next.length === 0);
  if (!old) throw new Error('no checkpoint after turn 1');
  const fork = await graph.updateState(old.config, { messages: [new HumanMessage('forked question')] });
  await graph.invoke(null, fork);
  await graph.invoke({ messages: [new HumanMessage('after the fork')] }, thread);
  // The planted step: the oldest checkpoint of the first branch whose flag is "bad".
  const planted = history.filter((s) => s.values.flag === 'bad').pop()?.config.configurable?.checkpoint_id as string;
  const tuples: CheckpointTuple[] = [];
  for await (const t of saver.list({ configurable: { thread_id: 'chat' } })) tuples.push(t);

  const session = new CheckpointSession(store, { sessionId: 'user-42' });
  await session.addItems([{ role: 'user', content: 'hello' }]);
  await session.addItems([
    { type: 'message', role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: 'hi there' }] },
    { type: 'function_call', callId: 'c1', name: 'lookup', status: 'completed', arguments: '{"q":1}' },
  ]);
  await session.addItems([{ type: 'function_call_result', callId: 'c1', name: 'lookup', status: 'completed', output: { type: 'text', text: 'found' } }]);
  const items = JSON.parse(JSON.stringify(await session.getItems())) as unknown[];

  await store.create({ sessionId: 'plain', payload: { step: 1, note: 'first' } });
  await store.create({ sessionId: 'plain', payload: { step: 2, note: 'second' } });

  return {
    tuples: await Promise.all(
      tuples.map(async (t) => ({
        id: t.config.configurable?.checkpoint_id as string,
        parent: (t.parentConfig?.configurable?.checkpoint_id as string | undefined) ?? null,
        values: await serialised(saver, t.checkpoint.channel_values),
        metadata: await serialised(saver, t.metadata),
        pendingWrites: await serialised(saver, t.pendingWrites ?? []),
      })),
    ),
    planted,
    forkId: fork.configurable?.checkpoint_id as string,
    items,
  };
}

interface Target {
  name: string;
  available: boolean;
  /** Opens the store in-process. */
  open: () => Promise<CheckpointStore>;
  /** The store flags for the CLI. */
  flags: () => string[];
  /** Rewrites a row's payload text behind the store's back. */
  tamper?: (id: number, from: string, to: string) => Promise<void>;
  bytes?: () => string | null;
  cleanup: () => Promise<void>;
}

const dir = tempDir('sc-inspect-');
const schema = `sc_cli_inspect_${process.pid}`;
const targets: Target[] = [
  {
    name: 'sqlite',
    available: true,
    open: () => openSqliteStore(join(dir, 'app.sqlite')),
    flags: () => ['--store', join(dir, 'app.sqlite')],
    tamper: async (id, from, to) => {
      const db = new Database(join(dir, 'app.sqlite'));
      try {
        db.prepare('UPDATE checkpoints SET payload_json = replace(payload_json, ?, ?) WHERE id = ?').run(from, to, id);
      } finally {
        db.close();
      }
    },
    bytes: () => fileHash(join(dir, 'app.sqlite')),
    cleanup: async () => undefined,
  },
  {
    name: 'postgres',
    available: PG_URL !== undefined,
    open: () => openPostgresStore(PG_URL ?? '', { schema, poolSize: 2 }),
    flags: () => ['--database-url', PG_URL ?? '', '--schema', schema],
    cleanup: async () => {
      const pool = new pg.Pool({ connectionString: PG_URL, max: 1 });
      try {
        await pool.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
      } finally {
        await pool.end();
      }
    },
  },
];

let cli: CliSession;
beforeAll(() => {
  cli = startCliSession();
});
afterAll(async () => {
  await cli.close();
  for (const t of targets) if (t.available) await t.cleanup();
  removeTempDirs();
});

describe.each(targets)('threads, state and diff on $name', (target) => {
  let expected: Expected;
  const run = async (args: string[]) => {
    const r = await cli.call([...args, ...target.flags()], { cwd: dir });
    expect(r.stdout.endsWith('\n'), r.stdout).toBe(true);
    return { code: r.code, doc: JSON.parse(r.stdout) as { ok: boolean; result?: any; error?: any; type?: string } };
  };
  const ok = async (args: string[]) => {
    const { code, doc } = await run(args);
    expect(doc.ok, JSON.stringify(doc)).toBe(true);
    expect(code).toBe(0);
    return doc.result;
  };

  beforeAll(async () => {
    if (!target.available) return;
    const store = await target.open();
    try {
      expected = await populate(store);
    } finally {
      await store.close();
    }
  }, 600_000);

  it.skipIf(!target.available)('threads lists the three families', async () => {
    const threads = (await ok(['threads'])) as { family: string; thread_id: string; count: number; checkpoint_ns: string[]; bytes: number }[];
    const byFamily = Object.fromEntries(threads.map((t) => [t.family, t]));
    expect(byFamily.langgraph).toMatchObject({ thread_id: 'chat', count: expected.tuples.length, checkpoint_ns: [''] });
    expect(byFamily['openai-agents']).toMatchObject({ thread_id: 'user-42', count: 4, checkpoint_ns: [''] });
    expect(byFamily.checkpoints).toMatchObject({ thread_id: 'plain', count: 2 });
    for (const t of threads) expect(t.bytes).toBeGreaterThan(0);
    expect(await ok(['threads', '--namespace', 'nothing-here'])).toEqual([]);
  });

  it.skipIf(!target.available)('state equals getTuple for every checkpoint, and --path reads into it', async () => {
    for (const t of expected.tuples) {
      const state = await ok(['state', '--thread', 'chat', '--checkpoint', t.id, '--internal']);
      expect(state).toMatchObject({ family: 'langgraph', thread_id: 'chat', checkpoint_ns: '', checkpoint_id: t.id, parent_checkpoint_id: t.parent });
      expect(state.values).toEqual(t.values);
      expect(state.metadata).toEqual(t.metadata);
      expect(state.pending_writes).toEqual(t.pendingWrites);
      // By default LangGraph's wiring channels are left out, and named.
      const shown = await ok(['state', '--thread', 'chat', '--checkpoint', t.id]);
      const internal = (name: string) => name === '__start__' || name.startsWith('branch:') || name.startsWith('__pregel_');
      const values = t.values as Record<string, unknown>;
      expect(shown.values).toEqual(Object.fromEntries(Object.entries(values).filter(([name]) => !internal(name))));
      expect(shown.pending_writes).toEqual((t.pendingWrites as [string, string, unknown][]).filter(([, channel]) => !internal(channel)));
      const hidden = [...new Set([...Object.keys(values), ...(t.pendingWrites as [string, string][]).map(([, c]) => c)].filter(internal))].sort();
      expect(shown.internal_hidden).toEqual(hidden.length > 0 ? hidden : undefined);
    }
    const latest = await ok(['state', '--thread', 'chat']);
    expect(latest.checkpoint_id).toBe(expected.tuples[0]?.id);
    const first = await ok(['state', '--thread', 'chat', '--path', '/messages/0']);
    expect(first.value).toEqual((expected.tuples[0]?.values as { messages: unknown[] }).messages[0]);
    expect(first.values).toBeUndefined();
  });

  it.skipIf(!target.available)('state of a session equals getItems, up to --position; of plain checkpoints, the payload', async () => {
    expect(await ok(['state', '--thread', 'user-42'])).toEqual({ family: 'openai-agents', namespace: 'openai-agents', session_id: 'user-42', position: 4, items: expected.items });
    expect((await ok(['state', '--thread', 'user-42', '--position', '2'])).items).toEqual(expected.items.slice(0, 2));
    expect((await ok(['state', '--thread', 'user-42', '--path', '/1/content/0/text'])).value).toBe('hi there');
    const plain = await ok(['state', '--thread', 'plain']);
    expect(plain).toMatchObject({ family: 'checkpoints', session_id: 'plain', payload: { step: 2, note: 'second' } });
  });

  it.skipIf(!target.available)('every diff patch turns A into B, across the fork too', async () => {
    const ids = expected.tuples.map((t) => t.id);
    const valuesOf = new Map(expected.tuples.map((t) => [t.id, t.values]));
    // Every checkpoint against its neighbours, the first, the fork and the latest.
    const pairs = new Set<string>();
    for (const [i, id] of ids.entries()) {
      for (const other of [ids[i + 1], ids[0], ids[ids.length - 1], expected.forkId]) if (other !== undefined) pairs.add(`${id} ${other}`);
    }
    for (const pair of pairs) {
      const [a, b] = pair.split(' ') as [string, string];
      const { patch, family } = await ok(['diff', '--thread', 'chat', '--from', a, '--to', b, '--internal']);
      expect(family).toBe('langgraph');
      const applied = fastJsonPatch.applyPatch(structuredClone(valuesOf.get(a)), patch, true, false).newDocument;
      expect(applied, pair).toEqual(valuesOf.get(b));
    }
    const session = await ok(['diff', '--thread', 'user-42', '--from', '1', '--to', '4']);
    expect(fastJsonPatch.applyPatch(structuredClone(expected.items.slice(0, 1)), session.patch, true, false).newDocument).toEqual(expected.items);
  });

  it.skipIf(!target.available)('--first-change finds the planted step, on the first branch and not on the fork', async () => {
    const hit = await ok(['diff', '--thread', 'chat', '--first-change', '/flag', '--to', expected.tuples.find((t) => t.id !== expected.forkId && (t.values as { flag?: string }).flag === 'bad')?.id ?? '']);
    expect(hit).toMatchObject({ family: 'langgraph', pointer: '/flag', checkpoint_id: expected.planted, after: 'bad' });
    expect(hit.rebuilt).toBeLessThan(hit.walked);
    // `walked` is the whole line's length, as docs/cli.md says (it said 3 on a 16-checkpoint line).
    const parentOf = new Map(expected.tuples.map((t) => [t.id, t.parent]));
    let length = 0;
    for (let id: string | null | undefined = hit.checkpoint_id; id; id = parentOf.get(id)) length++;
    const end = expected.tuples.find((t) => t.id !== expected.forkId && (t.values as { flag?: string }).flag === 'bad')?.id ?? '';
    let line = 0;
    for (let id: string | null | undefined = end; id; id = parentOf.get(id)) line++;
    expect(hit.walked).toBe(line);
    expect(line).toBeGreaterThan(length);
    // The latest is on the fork, which left turn 1 before the flag was planted.
    expect((await ok(['diff', '--thread', 'chat', '--first-change', '/flag'])).checkpoint_id).not.toBe(expected.planted);
    const item = await ok(['diff', '--thread', 'user-42', '--first-change', '/3']);
    expect(item).toMatchObject({ family: 'openai-agents', checkpoint_id: '4', parent_checkpoint_id: '3' });
  });

  it.skipIf(!target.available)('timeline lists every checkpoint with its step, nodes, source, parent, fork marks and message previews, paged', async () => {
    const all = await ok(['timeline', '--thread', 'chat', '--limit', '500']);
    expect(all).toMatchObject({ family: 'langgraph', thread_id: 'chat', count: expected.tuples.length, latest_checkpoint_id: expected.tuples[0]?.id, waiting_on_interrupt: false, next_cursor: null });
    expect(all.entries.map((e: any) => e.checkpoint_id)).toEqual(expected.tuples.map((t) => t.id));
    for (const [i, e] of (all.entries as any[]).entries()) {
      const t = expected.tuples[i]!;
      const metadata = t.metadata as { step: number; source: string };
      expect(e).toMatchObject({ parent_checkpoint_id: t.parent, step: metadata.step, source: metadata.source, status: 'verified', latest: i === 0 });
      for (const channel of e.changed_channels) expect(channel).not.toMatch(/^(__start__|branch:|__pregel_)/u);
    }
    const entries = all.entries as any[];
    // The agent's steps: node "agent", one AI message added, previewed as role and text.
    const answers = entries.filter((e) => e.nodes.includes('agent') && e.source === 'loop');
    expect(answers.length).toBeGreaterThanOrEqual(5);
    for (const e of answers) expect(e.messages_added).toEqual([{ role: 'ai', text: expect.stringMatching(/^answer \d$/u) }]);
    // An input step ran no node; the step after it applied the input (node __start__) and added the question.
    for (const e of entries.filter((x) => x.source === 'input')) expect(e.nodes).toEqual([]);
    const asked = entries.find((e) => e.messages_added.some((m: any) => m.text === 'question 2'));
    expect(asked).toMatchObject({ nodes: ['__start__'], messages_added: [{ role: 'human', text: 'question 2' }] });
    // The fork: the checkpoint after turn 1 has two children; the original line stays the main line,
    // the fork's steps are on the latest line.
    const forkPoint = entries.find((e) => e.fork_point);
    expect(forkPoint).toMatchObject({ children: 2, main_line: true, on_latest_line: true });
    const forkStep = entries.find((e) => e.checkpoint_id === expected.forkId);
    expect(forkStep).toMatchObject({ parent_checkpoint_id: forkPoint.checkpoint_id, main_line: false, on_latest_line: true, messages_added: [{ role: 'human', text: 'forked question' }] });
    expect(entries.filter((e) => e.main_line && !e.on_latest_line).length).toBeGreaterThan(3);
    expect(entries[0]).toMatchObject({ latest: true, on_latest_line: true, main_line: false });
    // Paged: following next_cursor gives the same entries.
    const paged: string[] = [];
    let cursor: string | null = null;
    do {
      const page: any = await ok(['timeline', '--thread', 'chat', '--limit', '4', ...(cursor === null ? [] : ['--cursor', cursor])]);
      expect(page.entries.length).toBeLessThanOrEqual(4);
      paged.push(...page.entries.map((e: any) => e.checkpoint_id));
      cursor = page.next_cursor;
    } while (cursor !== null);
    expect(paged).toEqual(expected.tuples.map((t) => t.id));
    // Sessions: a step per row, the items it added.
    const session = await ok(['timeline', '--thread', 'user-42']);
    expect(session.entries.map((e: any) => e.step)).toEqual([4, 3, 1]);
    expect(session.entries[2].messages_added).toEqual([{ role: 'user', text: 'hello' }]);
    const plain = await ok(['timeline', '--thread', 'plain']);
    expect(plain.entries.map((e: any) => e.step)).toEqual([2, 1]);
  });

  it.skipIf(!target.available)('"what the agent believed at step 3 and what changed at step 4" takes two commands', async () => {
    const believed = await ok(['state', '--thread', 'chat', '--step', '3']);
    const changed = await ok(['diff', '--thread', 'chat', '--from-step', '3', '--to-step', '4']);
    const line = ((await ok(['timeline', '--thread', 'chat', '--limit', '500'])).entries as any[]).filter((e) => e.on_latest_line);
    const id3 = line.find((e) => e.step === 3).checkpoint_id;
    const id4 = line.find((e) => e.step === 4).checkpoint_id;
    expect(believed.checkpoint_id).toBe(id3);
    expect(changed).toMatchObject({ family: 'langgraph', from: id3, to: id4 });
    const full3 = expected.tuples.find((t) => t.id === id3)!.values as Record<string, unknown>;
    const full4 = expected.tuples.find((t) => t.id === id4)!.values as Record<string, unknown>;
    expect(believed.values.messages).toEqual(full3.messages);
    // Only the agent's change: its answer and the turn count, no wiring channel.
    expect(changed.patch.length).toBeGreaterThan(0);
    for (const op of changed.patch) expect(op.path).toMatch(/^\/(messages|turns|flag)(\/|$)/u);
    expect(changed.internal_hidden).toBeGreaterThan(0);
    const shown4 = await ok(['state', '--thread', 'chat', '--step', '4']);
    expect(fastJsonPatch.applyPatch(structuredClone(believed.values), changed.patch, true, false).newDocument).toEqual(shown4.values);
    const raw = await ok(['diff', '--thread', 'chat', '--from-step', '3', '--to-step', '4', '--internal']);
    expect(fastJsonPatch.applyPatch(structuredClone(full3), raw.patch, true, false).newDocument).toEqual(full4);
    expect(raw.patch.length).toBe(changed.patch.length + changed.internal_hidden);
    // Mixed forms, --first-change up to a step, sessions and plain checkpoints by step.
    expect((await ok(['diff', '--thread', 'chat', '--from', id3, '--to-step', '4'])).patch).toEqual(changed.patch);
    const upTo4 = await ok(['diff', '--thread', 'chat', '--first-change', '/turns', '--to-step', '4']);
    expect(upTo4).toEqual(await ok(['diff', '--thread', 'chat', '--first-change', '/turns', '--to', id4]));
    expect(upTo4.walked).toBe(line.filter((e) => e.step <= 4).length);
    expect(await ok(['state', '--thread', 'user-42', '--step', '2'])).toEqual(await ok(['state', '--thread', 'user-42', '--position', '2']));
    expect((await ok(['state', '--thread', 'plain', '--step', '1'])).payload).toMatchObject({ step: 1 });
    expect((await ok(['diff', '--thread', 'plain', '--from-step', '1', '--to-step', '2'])).patch.length).toBeGreaterThan(0);
  });

  it.skipIf(!target.available)('bad input is one JSON error object', async () => {
    const cases: [string[], string][] = [
      [['diff', '--thread', 'chat', '--from', 'x'], 'UsageError'],
      [['state', '--thread', 'chat', '--path', 'no-slash'], 'CheckpointValidationError'],
      [['state', '--thread', 'nobody'], 'CheckpointNotFoundError'],
      [['state', '--thread', 'chat', '--checkpoint', 'no-such-id'], 'CheckpointNotFoundError'],
      [['state', '--thread', 'chat', '--family', 'other'], 'UsageError'],
      [['state', '--thread', 'chat', '--path', '/nothing'], 'CheckpointNotFoundError'],
      [['state', '--thread', 'chat', '--step', '99'], 'CheckpointNotFoundError'],
      [['state', '--thread', 'chat', '--step', '1', '--checkpoint', 'x'], 'UsageError'],
      [['diff', '--thread', 'chat', '--from-step', '1', '--from', 'x', '--to-step', '2'], 'UsageError'],
      [['diff', '--thread', 'chat', '--from-step', '1'], 'UsageError'],
      [['diff', '--thread', 'chat', '--from-step', '-7', '--to-step', '2'], 'CheckpointNotFoundError'],
      [['timeline', '--thread', 'chat', '--cursor', 'bm90LWEtY3Vyc29y'], 'CheckpointValidationError'],
      [['timeline', '--thread', 'chat', '--limit', '0'], 'UsageError'],
      [['timeline', '--thread', 'nobody'], 'CheckpointNotFoundError'],
    ];
    for (const [args, type] of cases) {
      const { code, doc } = await run(args);
      expect(doc.ok, args.join(' ')).toBe(false);
      expect(doc.type, args.join(' ')).toBe(type);
      expect(code).not.toBe(0);
    }
  });

  it.skipIf(!target.available || target.tamper === undefined)('a tampered row: state is an integrity error, the timeline shows it failed, the store is unchanged', async () => {
    const store = await target.open();
    let rowId: number;
    const victim = expected.tuples[2]?.id as string;
    try {
      const page = await readTimeline(store, { threadId: 'chat', limit: 1000 });
      rowId = page.entries.find((e) => e.checkpoint_id === victim)?.row_id as number;
    } finally {
      await store.close();
    }
    await target.tamper?.(rowId, '"langgraph":', '"langgraph" :');
    const before = target.bytes?.();
    const { code, doc } = await run(['state', '--thread', 'chat', '--checkpoint', victim]);
    expect(code).toBe(1);
    expect(doc).toMatchObject({ ok: false, type: 'CheckpointIntegrityError' });
    expect(JSON.stringify(doc.error)).toContain(String(rowId));
    expect(target.bytes?.()).toBe(before);
    const again = await target.open();
    try {
      const page = await readTimeline(again, { threadId: 'chat', limit: 1000 });
      const failed = page.entries.filter((e) => e.status === 'failed');
      expect(failed.map((e) => e.checkpoint_id)).toEqual([victim]);
      expect(failed[0]?.error?.code).toBe('INTEGRITY');
      expect(page.entries.length).toBe(expected.tuples.length);
    } finally {
      await again.close();
    }
  });
});
