import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LibSQLStore } from '@mastra/libsql';
import { InMemoryStore, type MemoryStorage, type ObservationalMemoryRecord } from '@mastra/core/storage';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { CheckpointMemoryStorage } from './index.js';
import { backends, fallbackBackend, RUNTIME_OK } from './test-support/backends.js';

/*
 * The differential oracle of observational memory (OM): random sequences of every OM method of
 * the memory domain (and deleteThread, which leaves OM alone in every Mastra store) run against
 * this domain (SQLite, PostgreSQL, the memory adapter without sourceRefAt), @mastra/libsql and
 * Mastra's in-memory store. Every answer of this domain is compared with libsql's, and whether
 * each call failed. The clock is one faked `Date` that every store reads, so the records' dates
 * (createdAt, updatedAt, a chunk's createdAt) are compared too; record ids, made by each store,
 * are compared by the order they were made in.
 *
 * Where Mastra's in-memory store and libsql disagree, this domain answers as libsql (and
 * @mastra/pg, whose code is the same) does; docs/mastra.md lists the differences:
 * - the current record: the newest generation (libsql) or the record made last (memory);
 * - a history without a limit: 10 records (libsql) or all of them (memory); among one
 *   generation's records, the oldest first (libsql) or the newest (memory);
 * - initializeObservationalMemory and a reflection: no metadata (libsql) or `{}` (memory); a
 *   reflection of a record never observed: lastObservedAt absent (libsql) or now (memory);
 * - updateActiveObservations without observedMessageIds clears them (libsql) or keeps them (memory);
 * - insertObservationalMemoryRecord of an id already there fails (libsql) or adds a second record
 *   (memory), and keeps only the columns libsql has (memory keeps the object, deprecated fields too);
 * - swapBufferedReflectionToActive makes the generation from the record as given (libsql) or as
 *   stored (memory);
 * - a buffered chunk's dates come back as ISO text (libsql) or `Date` (memory): here as `Date`.
 * And where the interface's own doc says what to do and libsql does not: swapBufferedToActive with
 * `bufferedChunks` uses them (the doc, memory) where libsql and pg ignore them; the second property
 * compares that with the in-memory store.
 */

const KEYS = [
  { threadId: 't1', resourceId: 'r1' },
  { threadId: 't2', resourceId: 'r1' },
  { threadId: null, resourceId: 'r1' },
  { threadId: null, resourceId: 'r2' },
] as const;
const TEXTS = ['', 'a', 'b\nc', 'd\ne\nf', '- x\n- y'];
const T0 = Date.UTC(2026, 0, 1);
const STEP = 60_000;
const at = (k: number) => new Date(T0 + k * STEP);

type Key = (typeof KEYS)[number];
type Op =
  | { op: 'init'; key: number; config: number; tz: string | undefined }
  | { op: 'get'; key: number }
  | { op: 'history'; key: number; limit: number | undefined; offset: number | undefined; from: number | undefined; to: number | undefined }
  | { op: 'active'; rec: number; text: string; tokens: number; observed: number; ids: string[] | undefined }
  | { op: 'buffer'; rec: number; cycle: string; text: string; tokens: number; ids: string[]; messageTokens: number; observed: number; bufferedAt: number | undefined; task: string | undefined }
  | { op: 'swap'; rec: number; ratio: number; threshold: number; pending: number; force: boolean; observed: number | undefined }
  | { op: 'reflect'; key: number; text: string; tokens: number }
  | { op: 'bufferReflection'; rec: number; text: string; tokens: number; input: number; lines: number }
  | { op: 'swapReflection'; key: number; tokens: number }
  | { op: 'flag'; rec: number; which: 'reflecting' | 'observing' | 'bufferingObservation' | 'bufferingReflection'; value: boolean; tokens: number | undefined }
  | { op: 'insert'; key: number; id: string; generation: number; text: string; pending: number; chunk: boolean; observed: number | undefined }
  | { op: 'clear'; key: number }
  | { op: 'pending'; rec: number; tokens: number }
  | { op: 'config'; rec: number; patch: Record<string, unknown> }
  | { op: 'deleteThread'; threadId: string };

/** Mostly two keys (a thread's, a resource's), so calls meet the records made before. */
const key = fc.constantFrom(0, 0, 0, 1, 2, 2, 3);
/** A record by the order the store made it in; past the end, an id no store has. */
const rec = fc.oneof({ arbitrary: fc.integer({ min: 0, max: 2 }), weight: 8 }, { arbitrary: fc.integer({ min: 3, max: 9 }), weight: 1 });
const text = fc.constantFrom(...TEXTS);
const tokens = fc.integer({ min: 0, max: 400 });
const minute = fc.integer({ min: 0, max: 60 });
const ids = fc.subarray(['m1', 'm2', 'm3', 'm4']);
/** A chunk's message tokens: zero often (a leading chunk of none moves the activation boundary). */
const messageTokens = fc.oneof(fc.constant(0), fc.integer({ min: 1, max: 1500 }));

const opArb: fc.Arbitrary<Op> = fc.oneof(
  { arbitrary: fc.record({ op: fc.constant('init' as const), key, config: fc.integer({ min: 0, max: 3 }), tz: fc.option(fc.constantFrom('UTC', 'Europe/Paris'), { nil: undefined }) }), weight: 3 },
  { arbitrary: fc.record({ op: fc.constant('get' as const), key }), weight: 3 },
  { arbitrary: fc.record({ op: fc.constant('history' as const), key, limit: fc.option(fc.integer({ min: 0, max: 4 }), { nil: undefined }), offset: fc.option(fc.integer({ min: 0, max: 3 }), { nil: undefined }), from: fc.option(minute, { nil: undefined }), to: fc.option(minute, { nil: undefined }) }), weight: 2 },
  { arbitrary: fc.record({ op: fc.constant('active' as const), rec, text, tokens, observed: minute, ids: fc.option(ids, { nil: undefined }) }), weight: 2 },
  { arbitrary: fc.record({ op: fc.constant('buffer' as const), rec, cycle: fc.constantFrom('c1', 'c2', 'c3', 'c4'), text, tokens, ids, messageTokens, observed: minute, bufferedAt: fc.option(minute, { nil: undefined }), task: fc.option(fc.constantFrom('task'), { nil: undefined }) }), weight: 3 },
  { arbitrary: fc.record({ op: fc.constant('swap' as const), rec, ratio: fc.constantFrom(0, 0.5, 0.8, 1), threshold: fc.constantFrom(100, 1000, 3000), pending: fc.integer({ min: 0, max: 4000 }), force: fc.boolean(), observed: fc.option(minute, { nil: undefined }) }), weight: 3 },
  fc.record({ op: fc.constant('reflect' as const), key, text, tokens }),
  fc.record({ op: fc.constant('bufferReflection' as const), rec, text, tokens, input: tokens, lines: fc.integer({ min: 0, max: 3 }) }),
  fc.record({ op: fc.constant('swapReflection' as const), key, tokens }),
  fc.record({ op: fc.constant('flag' as const), rec, which: fc.constantFrom('reflecting' as const, 'observing' as const, 'bufferingObservation' as const, 'bufferingReflection' as const), value: fc.boolean(), tokens: fc.option(tokens, { nil: undefined }) }),
  fc.record({ op: fc.constant('insert' as const), key, id: fc.constantFrom('x1', 'x2', 'x3'), generation: fc.integer({ min: 0, max: 3 }), text, pending: tokens, chunk: fc.boolean(), observed: fc.option(minute, { nil: undefined }) }),
  fc.record({ op: fc.constant('clear' as const), key }),
  fc.record({ op: fc.constant('pending' as const), rec, tokens }),
  fc.record({ op: fc.constant('config' as const), rec, patch: fc.constantFrom<Record<string, unknown>>({ a: 1 }, { nested: { b: 2 } }, { nested: { c: [1, 2] } }, { n: null }) }),
  fc.record({ op: fc.constant('deleteThread' as const), threadId: fc.constantFrom('t1', 't2') }),
);

/** One store under test and the record ids it made, in order. */
interface Subject {
  memory: MemoryStorage;
  ids: string[];
}

const FLAG = { reflecting: 'setReflectingFlag', observing: 'setObservingFlag', bufferingObservation: 'setBufferingObservationFlag', bufferingReflection: 'setBufferingReflectionFlag' } as const;

function idOf(s: Subject, n: number): string {
  return s.ids[n] ?? 'no-such-record';
}

function remember(s: Subject, id: string): void {
  if (!s.ids.includes(id)) s.ids.push(id);
}

/** Runs one op on one store. */
async function apply(s: Subject, op: Op): Promise<unknown> {
  const m = s.memory;
  const k: Key | undefined = 'key' in op ? KEYS[op.key] : undefined;
  switch (op.op) {
    case 'init': {
      const r = await m.initializeObservationalMemory({ threadId: k!.threadId, resourceId: k!.resourceId, scope: k!.threadId ? 'thread' : 'resource', config: { n: op.config, nested: { a: op.config } }, ...(op.tz === undefined ? {} : { observedTimezone: op.tz }) });
      remember(s, r.id);
      return r;
    }
    case 'get':
      return m.getObservationalMemory(k!.threadId, k!.resourceId);
    case 'history':
      return m.getObservationalMemoryHistory(k!.threadId, k!.resourceId, op.limit, { ...(op.offset === undefined ? {} : { offset: op.offset }), ...(op.from === undefined ? {} : { from: at(op.from) }), ...(op.to === undefined ? {} : { to: at(op.to) }) });
    case 'active':
      return m.updateActiveObservations({ id: idOf(s, op.rec), observations: op.text, tokenCount: op.tokens, lastObservedAt: at(op.observed), ...(op.ids === undefined ? {} : { observedMessageIds: op.ids }) });
    case 'buffer':
      return m.updateBufferedObservations({
        id: idOf(s, op.rec),
        chunk: { cycleId: op.cycle, observations: op.text, tokenCount: op.tokens, messageIds: op.ids, messageTokens: op.messageTokens, lastObservedAt: at(op.observed), ...(op.task === undefined ? {} : { currentTask: op.task, suggestedContinuation: 'go on' }) },
        ...(op.bufferedAt === undefined ? {} : { lastBufferedAtTime: at(op.bufferedAt) }),
      });
    case 'swap':
      return m.swapBufferedToActive({ id: idOf(s, op.rec), activationRatio: op.ratio, messageTokensThreshold: op.threshold, currentPendingTokens: op.pending, forceMaxActivation: op.force, ...(op.observed === undefined ? {} : { lastObservedAt: at(op.observed) }) });
    case 'reflect': {
      const current = await m.getObservationalMemory(k!.threadId, k!.resourceId);
      if (!current) return 'none';
      const r = await m.createReflectionGeneration({ currentRecord: current, reflection: op.text, tokenCount: op.tokens });
      remember(s, r.id);
      return r;
    }
    case 'bufferReflection':
      return m.updateBufferedReflection({ id: idOf(s, op.rec), reflection: op.text, tokenCount: op.tokens, inputTokenCount: op.input, reflectedObservationLineCount: op.lines });
    case 'swapReflection': {
      const current = await m.getObservationalMemory(k!.threadId, k!.resourceId);
      if (!current) return 'none';
      const r = await m.swapBufferedReflectionToActive({ currentRecord: current, tokenCount: op.tokens });
      remember(s, r.id);
      return r;
    }
    case 'flag':
      if (op.which === 'bufferingObservation') return m.setBufferingObservationFlag(idOf(s, op.rec), op.value, op.tokens);
      return m[FLAG[op.which]](idOf(s, op.rec), op.value);
    case 'insert': {
      const record: ObservationalMemoryRecord = {
        id: op.id,
        scope: k!.threadId ? 'thread' : 'resource',
        threadId: k!.threadId,
        resourceId: k!.resourceId,
        createdAt: new Date(),
        updatedAt: new Date(),
        ...(op.observed === undefined ? {} : { lastObservedAt: at(op.observed) }),
        originType: op.generation > 0 ? 'reflection' : 'initial',
        generationCount: op.generation,
        activeObservations: op.text,
        totalTokensObserved: op.pending * 2,
        observationTokenCount: op.pending,
        pendingMessageTokens: op.pending,
        isReflecting: false,
        isObserving: op.pending % 2 === 0,
        isBufferingObservation: false,
        isBufferingReflection: false,
        lastBufferedAtTokens: op.pending,
        lastBufferedAtTime: null,
        config: { copied: true },
        metadata: { from: 'clone' },
        observedMessageIds: ['m1'],
        ...(op.chunk ? { bufferedObservationChunks: [{ id: 'ombuf-copied', cycleId: 'c9', observations: 'copied', tokenCount: 5, messageIds: ['m2'], messageTokens: 700, lastObservedAt: at(3), createdAt: at(2) }] } : {}),
      };
      await m.insertObservationalMemoryRecord(record);
      remember(s, op.id);
      return undefined;
    }
    case 'clear':
      return m.clearObservationalMemory(k!.threadId, k!.resourceId);
    case 'pending':
      return m.setPendingMessageTokens(idOf(s, op.rec), op.tokens);
    case 'config':
      return m.updateObservationalMemoryConfig({ id: idOf(s, op.rec), config: op.patch });
    case 'deleteThread':
      return m.deleteThread({ threadId: op.threadId });
  }
}

const DATE_KEYS = new Set(['createdAt', 'updatedAt', 'lastObservedAt', 'lastBufferedAtTime']);

/** An answer in the form compared: dates as milliseconds, undefined members left out, record ids by the order the store made them in. */
function norm(s: Subject, value: unknown, key?: string): unknown {
  if (value instanceof Date) return value.getTime();
  if (typeof value === 'string' && key !== undefined && DATE_KEYS.has(key)) return new Date(value).getTime();
  if (typeof value === 'string' && key === 'id') return value.startsWith('ombuf-') && value !== 'ombuf-copied' ? 'chunk' : s.ids.includes(value) ? `#${s.ids.indexOf(value)}` : value;
  if (Array.isArray(value)) return value.map((v) => norm(s, v));
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const k of Object.keys(value).sort()) {
      const v = (value as Record<string, unknown>)[k];
      if (v !== undefined) out[k] = norm(s, v, k);
    }
    return out;
  }
  return value;
}

async function settle(s: Subject, op: Op, time: number): Promise<{ ok: boolean; value: unknown }> {
  vi.setSystemTime(time);
  try {
    const value = await apply(s, op);
    return { ok: true, value: norm(s, value) };
  } catch (error) {
    return { ok: false, value: String((error as Error)?.message ?? error) };
  }
}

/**
 * A sequence random ones seldom make: a first chunk of no message tokens, so the activation rule
 * can find no chunk below its target and takes every chunk up to the first one over it.
 */
const LEADING_EMPTY_CHUNK: Op[] = [
  { op: 'init', key: 0, config: 1, tz: undefined },
  { op: 'buffer', rec: 0, cycle: 'c1', text: 'a', tokens: 3, ids: ['m1'], messageTokens: 0, observed: 1, bufferedAt: undefined, task: undefined },
  { op: 'buffer', rec: 0, cycle: 'c2', text: 'b\nc', tokens: 4, ids: ['m2'], messageTokens: 500, observed: 2, bufferedAt: 2, task: 'task' },
  { op: 'buffer', rec: 0, cycle: 'c3', text: 'd', tokens: 5, ids: ['m3'], messageTokens: 700, observed: 3, bufferedAt: undefined, task: undefined },
  { op: 'swap', rec: 0, ratio: 1, threshold: 100, pending: 300, force: false, observed: undefined },
  { op: 'get', key: 0 },
];

/** Every key's records, newest first (all of them: a limit past any run's count). */
async function state(s: Subject, time: number): Promise<unknown> {
  vi.setSystemTime(time);
  return norm(s, await Promise.all(KEYS.map((k) => s.memory.getObservationalMemoryHistory(k.threadId, k.resourceId, 1000))));
}

const tmp = mkdtempSync(join(tmpdir(), 'sc-mastra-om-oracle-'));
const list = [...backends().filter((b) => b.name !== 'memory'), fallbackBackend()];
const runs = Number(process.env.SC_SOAK === '1' ? (process.env.SC_SOAK_RUNS ?? 300) : 40);
beforeAll(() => {
  // One clock for every store: the dates each stamps are the same, so they are compared.
  vi.useFakeTimers({ toFake: ['Date'] });
});
afterAll(async () => {
  vi.useRealTimers();
  for (const b of list) await b.cleanup();
  rmSync(tmp, { recursive: true, force: true });
});

describe.skipIf(!RUNTIME_OK).each(list)('observational memory on $name against @mastra/libsql (and Mastra in-memory)', (backend) => {
  it.skipIf(!backend.available)('answers every call as @mastra/libsql does', async () => {
    let run = 0;
    const differs = new Map<string, number>();
    const outcomes = new Map<string, number>();
    await fc.assert(
      fc.asyncProperty(fc.array(opArb, { minLength: 10, maxLength: 40, size: 'max' }), async (ops) => {
        run++;
        const store = await backend.open(backend.target());
        const libsql = new LibSQLStore({ id: `om-oracle-${run}`, url: `file:${join(tmp, `libsql-${backend.name.replace(/\W/g, '-')}-${run}.db`)}` });
        await libsql.init();
        const ours: Subject = { memory: new CheckpointMemoryStorage(store), ids: [] };
        const reference: Subject = { memory: (await libsql.getStore('memory')) as MemoryStorage, ids: [] };
        const inMemory: Subject = { memory: (await new InMemoryStore().getStore('memory')) as MemoryStorage, ids: [] };
        try {
          for (const [i, op] of ops.entries()) {
            const time = T0 + i * STEP;
            const a = await settle(ours, op, time);
            const b = await settle(reference, op, time);
            const c = await settle(inMemory, op, time);
            const where = `op ${i}: ${JSON.stringify(op)}`;
            expect(a.ok, `${where}: ours ${JSON.stringify(a)} libsql ${JSON.stringify(b)}`).toBe(b.ok);
            if (a.ok) expect(a.value, where).toEqual(b.value);
            // And the whole OM state after the call: every key's records (generations), newest first.
            const [sa, sb] = [await state(ours, time), await state(reference, time)];
            expect(sa, `${where}: state after`).toEqual(sb);
            // Counted for SC_ORACLE_REPORT=1: where the two references answer otherwise (the header's list).
            if (b.ok !== c.ok || (b.ok && JSON.stringify(b.value) !== JSON.stringify(c.value))) differs.set(op.op, (differs.get(op.op) ?? 0) + 1);
            const outcome = `${op.op} ${a.ok ? 'ok' : 'failed'}`;
            outcomes.set(outcome, (outcomes.get(outcome) ?? 0) + 1);
          }
          expect((await store.verify()).failures).toEqual([]);
        } finally {
          await store.close();
          await (libsql as unknown as { client?: { close(): void } }).client?.close();
        }
      }),
      { numRuns: runs, seed: Number(process.env.SC_ORACLE_SEED ?? 38), endOnFailure: true, examples: [[LEADING_EMPTY_CHUNK]] },
    );
    if (process.env.SC_ORACLE_REPORT === '1') console.log(`${backend.name}: calls by outcome`, Object.fromEntries([...outcomes].sort()), 'answers where Mastra in-memory differs from libsql, by op:', Object.fromEntries(differs));
  });
});

/*
 * swapBufferedToActive with refreshed chunks (`bufferedChunks`), which the interface says the
 * store uses and Mastra's in-memory store does use (libsql and pg read their stored chunks): only
 * the calls of that path, compared with the in-memory store, one record per key.
 */
type SwapOp = { op: 'buffer'; key: number; cycle: string; tokens: number; messageTokens: number } | { op: 'swap'; key: number; ratio: number; threshold: number; pending: number; refresh: number | undefined } | { op: 'get'; key: number } | { op: 'pending'; key: number; tokens: number };
const swapOpArb: fc.Arbitrary<SwapOp> = fc.oneof(
  fc.record({ op: fc.constant('buffer' as const), key, cycle: fc.constantFrom('c1', 'c2', 'c3', 'c4', 'c5'), tokens, messageTokens }),
  fc.record({ op: fc.constant('swap' as const), key, ratio: fc.constantFrom(0, 0.5, 0.8, 1), threshold: fc.constantFrom(100, 1000, 3000), pending: fc.integer({ min: 0, max: 4000 }), refresh: fc.option(fc.integer({ min: 0, max: 3 }), { nil: undefined }) }),
  fc.record({ op: fc.constant('get' as const), key }),
  fc.record({ op: fc.constant('pending' as const), key, tokens: fc.integer({ min: 0, max: 4000 }) }),
);

describe.skipIf(!RUNTIME_OK)('observational memory: swapBufferedToActive with refreshed chunks', () => {
  it('activates as Mastra in-memory store does', async () => {
    const [sqlite] = backends().filter((b) => b.name === 'sqlite');
    if (!sqlite) throw new Error('no sqlite backend');
    try {
      await fc.assert(
        fc.asyncProperty(fc.array(swapOpArb, { minLength: 1, maxLength: 25 }), async (ops) => {
          const store = await sqlite.open(sqlite.target());
          const subjects: Subject[] = [
            { memory: new CheckpointMemoryStorage(store), ids: [] },
            { memory: (await new InMemoryStore().getStore('memory')) as MemoryStorage, ids: [] },
          ];
          try {
            const answers: unknown[][] = [[], []];
            for (const [n, s] of subjects.entries()) {
              for (const [i, k] of KEYS.entries()) {
                vi.setSystemTime(T0);
                const r = await s.memory.initializeObservationalMemory({ threadId: k.threadId, resourceId: k.resourceId, scope: k.threadId ? 'thread' : 'resource', config: {} });
                s.ids[i] = r.id;
              }
              for (const [i, op] of ops.entries()) {
                vi.setSystemTime(T0 + (i + 1) * STEP);
                const id = s.ids[op.key] as string;
                const k = KEYS[op.key] as Key;
                let answer: unknown;
                try {
                  if (op.op === 'buffer') answer = await s.memory.updateBufferedObservations({ id, chunk: { cycleId: op.cycle, observations: `obs ${op.cycle}`, tokenCount: op.tokens, messageIds: [op.cycle], messageTokens: op.messageTokens, lastObservedAt: at(i) } });
                  else if (op.op === 'pending') answer = await s.memory.setPendingMessageTokens(id, op.tokens);
                  else if (op.op === 'get') {
                    const r = await s.memory.getObservationalMemory(k.threadId, k.resourceId);
                    // Known difference, not this path's: memory's records have `metadata: {}`.
                    answer = r && { ...r, metadata: undefined };
                  } else {
                    const current = (await s.memory.getObservationalMemory(k.threadId, k.resourceId)) as ObservationalMemoryRecord;
                    const chunks = current.bufferedObservationChunks ?? [];
                    const bufferedChunks = op.refresh === undefined ? undefined : chunks.map((c, j) => ({ ...c, messageTokens: (c.messageTokens * (j + op.refresh! + 1)) % 1700 }));
                    answer = await s.memory.swapBufferedToActive({ id, activationRatio: op.ratio, messageTokensThreshold: op.threshold, currentPendingTokens: op.pending, ...(bufferedChunks ? { bufferedChunks } : {}) });
                  }
                  answers[n]?.push({ ok: true, value: norm(s, answer) });
                } catch (error) {
                  answers[n]?.push({ ok: false, value: String(error) });
                }
              }
            }
            expect(answers[0]).toEqual(answers[1]);
          } finally {
            await store.close();
          }
        }),
        {
          numRuns: runs,
          seed: Number(process.env.SC_ORACLE_SEED ?? 38),
          endOnFailure: true,
          examples: [[[
            { op: 'buffer', key: 0, cycle: 'c1', tokens: 3, messageTokens: 0 },
            { op: 'buffer', key: 0, cycle: 'c2', tokens: 4, messageTokens: 500 },
            { op: 'swap', key: 0, ratio: 1, threshold: 100, pending: 300, refresh: undefined },
            { op: 'get', key: 0 },
          ]]],
        },
      );
    } finally {
      await sqlite.cleanup();
    }
  });
});
