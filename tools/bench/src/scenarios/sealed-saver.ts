/**
 * Issue 36, item 8, for the LangGraph saver: the same calls through SessionCheckpointSaver on a
 * plain store and on a store opened with keys (sealed, chained, AES-256-GCM, compressed: the
 * defaults), each on storage of its own, in one run. Two parts:
 *
 * - put (1 of 3 channels of 1 KiB agent states changed), putWrites (2 writes, each call to the
 *   chain's latest checkpoint) and getTuple of the latest checkpoint (by then it carries the writes
 *   of every putWrites call of the run: a heavy tuple, read alike by both), in interleaved rounds of 50 calls whose order alternates (the machine's
 *   drift hits both alike; docs/decisions/0019-bench-method.md): CPU time of this process per
 *   call (`process.cpuUsage`) and wall time per call, on SQLite at "full" (the default) and at
 *   "normal", and on PostgreSQL when SC_PG_URL is set;
 * - the 60-turn chat of the chat scenario (a real StateGraph, about 20 KB appended per turn; the
 *   unchanged messages channel): total wall and CPU time of the turns, and bytes stored (SQLite:
 *   the files; PostgreSQL: tables with indexes and TOAST). The history read back afresh must be
 *   the turns', or the contender's figures are withheld.
 *
 *   SC_PG_URL=<url> node tools/bench/dist/main.js --only sealedSaver --runs 5 --no-write
 */
import type { BaseMessage } from '@langchain/core/messages';
import type { BaseCheckpointSaver } from '@langchain/langgraph-checkpoint';
import { Keyring, type CheckpointStore } from '@session-checkpoint/core';
import { SessionCheckpointSaver } from '@session-checkpoint/langgraph';
import { openPostgresStore, openSqliteStore } from '@session-checkpoint/store-kysely';
import { join } from 'node:path';
import pg from 'pg';
import { chatGraph, expectedHistory, historyOf, userMessage } from '../chat-graph.js';
import { n, type BenchContext, type Sample } from '../context.js';
import { interleavedRounds, saverCalls } from '../saver-calls.js';
import { fileBytes } from '../saver-backends.js';
import type { RatioSpec } from '../targets.js';

const CONTENDERS = ['plain', 'sealed'] as const;
type Contender = (typeof CONTENDERS)[number];
const BACKENDS = ['SQLite (full)', 'SQLite (normal)', 'PostgreSQL'] as const;
type Backend = (typeof BACKENDS)[number];
const OPERATIONS = ['put', 'putWrites', 'getTuple'] as const;
const CHAT_TURNS = 60;

const opScenario = (backend: Backend, op: string, what: 'CPU' | 'wall') => `sealed saver: ${backend} ${op} (${what})`;
const chatScenario = (backend: Backend, what: 'total time' | 'CPU time' | 'bytes') => `sealed saver: chat ${CHAT_TURNS} turns, ${backend}: ${what}`;
/** The chat runs on the SQLite durability the chat scenario uses, and on PostgreSQL. */
const CHAT_BACKENDS: Backend[] = ['SQLite (normal)', 'PostgreSQL'];

const spec = (scenario: string, target?: number): RatioSpec => ({ label: `${scenario}, sealed / plain`, scenario, numerator: 'sealed', denominator: 'plain', direction: 'at most', ...(target === undefined ? {} : { target }) });

/** The bars: sealed and encrypted at most 1.15x the time of plain (both measures shown), bytes at most 1.1x. */
export const SEALED_SAVER_RATIOS: RatioSpec[] = [
  ...BACKENDS.flatMap((backend) => OPERATIONS.flatMap((op) => (['wall', 'CPU'] as const).map((what) => spec(opScenario(backend, op, what), 1.15)))),
  ...CHAT_BACKENDS.flatMap((backend) => [spec(chatScenario(backend, 'total time'), 1.15), spec(chatScenario(backend, 'CPU time'), 1.15), spec(chatScenario(backend, 'bytes'), 1.1)]),
];

const keys = Keyring.generate('bench');
const ROUND = 50;

interface Opened {
  contender: Contender;
  store: CheckpointStore;
  saver: BaseCheckpointSaver;
  bytes: () => Promise<number>;
  close: () => Promise<void>;
}

/** A store and saver for `contender` on fresh storage of `backend`. */
async function open(ctx: BenchContext, backend: Backend, contender: Contender, label: string): Promise<Opened> {
  const sealed = contender === 'sealed' ? { keys } : {};
  if (backend === 'PostgreSQL') {
    const schema = `sc_bench_sealsaver_${process.pid}_${Date.now().toString(36)}_${label}_${contender}`;
    const store = await openPostgresStore(ctx.pgUrl as string, { schema, poolSize: 2, ...sealed });
    const pool = new pg.Pool({ connectionString: ctx.pgUrl, max: 1 });
    return {
      contender,
      store,
      saver: new SessionCheckpointSaver(store),
      bytes: async () =>
        Number(
          (await pool.query<{ bytes: string | null }>(`select sum(pg_total_relation_size(c.oid))::text as bytes from pg_class c join pg_namespace n on n.oid = c.relnamespace where n.nspname = $1 and c.relkind = 'r'`, [schema])).rows[0]?.bytes ?? 0,
        ),
      close: async () => {
        await store.close();
        await pool.query(`drop schema if exists "${schema}" cascade`);
        await pool.end();
      },
    };
  }
  const path = join(ctx.dir(), `${label}-${contender}.sqlite`);
  const store = await openSqliteStore(path, { durability: backend === 'SQLite (full)' ? 'full' : 'normal', ...sealed });
  return { contender, store, saver: new SessionCheckpointSaver(store), bytes: async () => fileBytes(path), close: () => store.close() };
}

/** CPU and wall microseconds per call of each operation, for each contender, in interleaved rounds. */
async function operations(ctx: BenchContext, backend: Backend, turn: number): Promise<Sample[]> {
  const pair: Opened[] = [];
  for (const contender of CONTENDERS) pair.push(await open(ctx, backend, contender, 'ops'));
  const calls = saverCalls(pair.map((o) => o.saver), 'latest');
  const samples: Sample[] = [];
  try {
    const rounds = Math.ceil(n(ctx, backend === 'SQLite (normal)' ? 1000 : 400, 50) / ROUND);
    for (const op of OPERATIONS) {
      const { wall, cpu } = await interleavedRounds(pair.length, rounds, ROUND, calls[op], turn);
      pair.forEach(({ contender }, k) => {
        samples.push({ scenario: opScenario(backend, op, 'wall'), impl: contender, unit: 'µs/op', value: (wall[k]! * 1e6) / (rounds * ROUND) });
        samples.push({ scenario: opScenario(backend, op, 'CPU'), impl: contender, unit: 'µs/op', value: (cpu[k]! * 1e6) / (rounds * ROUND) });
      });
    }
  } finally {
    for (const o of pair) await o.close();
  }
  return samples;
}

/** The 60-turn chat on one contender: total wall and CPU time, bytes; the history read back must match. */
async function chatOn(ctx: BenchContext, backend: Backend, contender: Contender, expected: readonly string[]): Promise<Sample[]> {
  const opened = await open(ctx, backend, contender, 'chat');
  const failed = (failure: string): Sample[] =>
    (['total time', 'CPU time', 'bytes'] as const).map((what) => ({ scenario: chatScenario(backend, what), impl: contender, unit: what === 'bytes' ? 'KiB' : 'ms', value: NaN, failure }));
  try {
    const graph = chatGraph(opened.saver, 'plain');
    const thread = { configurable: { thread_id: 'chat' } };
    const cpu0 = process.cpuUsage();
    const t0 = process.hrtime.bigint();
    for (let turn = 0; turn < CHAT_TURNS; turn++) await graph.invoke({ messages: [userMessage(turn)] }, thread);
    const wall = Number(process.hrtime.bigint() - t0) / 1e6;
    const used = process.cpuUsage(cpu0);
    const bytes = await opened.bytes();
    const history = historyOf((await chatGraph(new SessionCheckpointSaver(opened.store), 'plain').getState(thread)).values.messages as BaseMessage[]);
    if (history.length !== expected.length || history.some((line, i) => line !== expected[i])) return failed(`${contender} read back a wrong history`);
    return [
      { scenario: chatScenario(backend, 'total time'), impl: contender, unit: 'ms', value: wall },
      { scenario: chatScenario(backend, 'CPU time'), impl: contender, unit: 'ms', value: (used.user + used.system) / 1e3 },
      { scenario: chatScenario(backend, 'bytes'), impl: contender, unit: 'KiB', value: bytes / 1024 },
    ];
  } catch (error) {
    return failed(`${contender}: ${String(error).split('\n')[0]}`);
  } finally {
    await opened.close();
  }
}

/** Calls so far: the contender measured first alternates from call to call. */
let calls = 0;

/** See the module comment. */
export async function sealedSaver(ctx: BenchContext): Promise<Sample[]> {
  const turn = calls++;
  const samples: Sample[] = [];
  const available = (backend: Backend) => backend !== 'PostgreSQL' || ctx.pgUrl !== undefined;
  for (const backend of BACKENDS.filter(available)) {
    process.stderr.write(`  sealed saver: ${backend} operations\n`);
    samples.push(...(await operations(ctx, backend, turn)));
  }
  const expected = expectedHistory(CHAT_TURNS);
  for (const backend of CHAT_BACKENDS.filter(available)) {
    for (let k = 0; k < CONTENDERS.length; k++) {
      const contender = CONTENDERS[(k + turn) % CONTENDERS.length] as Contender;
      process.stderr.write(`  sealed saver: chat on ${backend}, ${contender}\n`);
      samples.push(...(await chatOn(ctx, backend, contender, expected)));
    }
  }
  return samples;
}
