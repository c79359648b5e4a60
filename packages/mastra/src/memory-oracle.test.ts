import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LibSQLStore } from '@mastra/libsql';
import { InMemoryStore, type MemoryStorage } from '@mastra/core/storage';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { CheckpointMemoryStorage } from './index.js';
import { backends, fallbackBackend, RUNTIME_OK } from './test-support/backends.js';

/*
 * A differential oracle: random sequences of memory-domain calls run against this package's
 * domain (SQLite; PostgreSQL when SC_PG_URL is set), Mastra's own in-memory domain and
 * @mastra/libsql's, comparing every answer (normalised: dates as milliseconds, updatedAt left out
 * because each store stamps its own clock) and whether each call failed. Where the two references
 * disagree with each other, the comparison follows @mastra/libsql, the durable reference, and the
 * difference is listed in docs/mastra.md ("Tested against Mastra's own stores"):
 * - saving a message id again keeps its createdAt in libsql (and here), replaces it in memory;
 * - libsql and this domain refuse a message without threadId or resourceId; memory stores it;
 * - saveMessages touches `updatedAt` of the first message's thread in libsql, of every thread here
 *   and in memory (updatedAt is not compared).
 */

const THREADS = ['t1', 't2', 't3'];
const IDS = ['m1', 'm2', 'm3', 'm4', 'm5', 'm6'];
const RESOURCES = ['r1', 'r2'];

type Op =
  | { op: 'saveThread'; id: string; resourceId: string; title: string; meta: number }
  | { op: 'saveMessages'; msgs: { id: string; threadId: string; resourceId: string; text: string; tag: number; role: 'user' | 'assistant' }[] }
  | { op: 'listMessages'; threadId: string | string[]; perPage: number | false | undefined; page: number; dir: 'ASC' | 'DESC'; tag: number | undefined; resourceId: string | undefined; include: string | undefined; noTotal: boolean }
  | { op: 'listThreads'; perPage: number | undefined; page: number; resourceId: string | undefined; dir: 'ASC' | 'DESC' }
  | { op: 'getThread'; id: string; resourceId: string | undefined }
  | { op: 'updateThread'; id: string; title: string | undefined; meta: number }
  | { op: 'deleteMessages'; ids: string[] }
  | { op: 'deleteThread'; id: string }
  | { op: 'updateMessages'; id: string; text: string }
  | { op: 'listById'; ids: string[] }
  | { op: 'resource'; id: string; workingMemory: string | undefined };

const opArb: fc.Arbitrary<Op> = fc.oneof(
  fc.record({ op: fc.constant('saveThread' as const), id: fc.constantFrom(...THREADS), resourceId: fc.constantFrom(...RESOURCES), title: fc.string({ maxLength: 5 }), meta: fc.integer({ min: 0, max: 2 }) }),
  fc.record({
    op: fc.constant('saveMessages' as const),
    msgs: fc.array(fc.record({ id: fc.constantFrom(...IDS), threadId: fc.constantFrom(...THREADS), resourceId: fc.constantFrom(...RESOURCES), text: fc.string({ maxLength: 8 }), tag: fc.integer({ min: 0, max: 2 }), role: fc.constantFrom('user' as const, 'assistant' as const) }), { minLength: 1, maxLength: 3 }),
  }),
  fc.record({
    op: fc.constant('listMessages' as const),
    threadId: fc.oneof(fc.constantFrom(...THREADS), fc.subarray(THREADS, { minLength: 1 })),
    perPage: fc.constantFrom(undefined, 0, 1, 2, 3, false as const),
    page: fc.integer({ min: 0, max: 2 }),
    dir: fc.constantFrom('ASC' as const, 'DESC' as const),
    tag: fc.option(fc.integer({ min: 0, max: 2 }), { nil: undefined }),
    resourceId: fc.option(fc.constantFrom(...RESOURCES), { nil: undefined }),
    include: fc.option(fc.constantFrom(...IDS), { nil: undefined }),
    noTotal: fc.boolean(),
  }),
  fc.record({ op: fc.constant('listThreads' as const), perPage: fc.constantFrom(undefined, 1, 2), page: fc.integer({ min: 0, max: 2 }), resourceId: fc.option(fc.constantFrom(...RESOURCES), { nil: undefined }), dir: fc.constantFrom('ASC' as const, 'DESC' as const) }),
  fc.record({ op: fc.constant('getThread' as const), id: fc.constantFrom(...THREADS), resourceId: fc.option(fc.constantFrom(...RESOURCES), { nil: undefined }) }),
  fc.record({ op: fc.constant('updateThread' as const), id: fc.constantFrom(...THREADS), title: fc.option(fc.string({ maxLength: 5 }), { nil: undefined }), meta: fc.integer({ min: 0, max: 2 }) }),
  fc.record({ op: fc.constant('deleteMessages' as const), ids: fc.subarray(IDS, { minLength: 1, maxLength: 2 }) }),
  fc.record({ op: fc.constant('deleteThread' as const), id: fc.constantFrom(...THREADS) }),
  fc.record({ op: fc.constant('updateMessages' as const), id: fc.constantFrom(...IDS), text: fc.string({ maxLength: 8 }) }),
  fc.record({ op: fc.constant('listById' as const), ids: fc.subarray(IDS, { minLength: 1 }) }),
  fc.record({ op: fc.constant('resource' as const), id: fc.constantFrom(...RESOURCES), workingMemory: fc.option(fc.string({ maxLength: 8 }), { nil: undefined }) }),
);

/** A message or thread in the form compared: dates as milliseconds, `updatedAt` left out. */
function norm(value: unknown): unknown {
  if (value instanceof Date) return value.getTime();
  if (Array.isArray(value)) return value.map(norm);
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(value).sort()) {
      if (key === 'updatedAt') continue;
      const v = (value as Record<string, unknown>)[key];
      if (v !== undefined) out[key] = norm(key === 'createdAt' && typeof v === 'string' ? new Date(v) : v);
    }
    return out;
  }
  return value;
}

/** Runs one op on one domain; `clock` gives the createdAt of new messages and threads (the same for all). */
async function apply(memory: MemoryStorage, op: Op, clock: () => Date): Promise<unknown> {
  switch (op.op) {
    case 'saveThread':
      return memory.saveThread({ thread: { id: op.id, resourceId: op.resourceId, title: op.title, metadata: { k: op.meta }, createdAt: clock(), updatedAt: clock() } });
    case 'saveMessages':
      return (await memory.saveMessages({ messages: op.msgs.map((m) => ({ id: m.id, threadId: m.threadId, resourceId: m.resourceId, role: m.role, type: 'v2', createdAt: clock(), content: { format: 2 as const, parts: [{ type: 'text' as const, text: m.text }], metadata: { tag: m.tag } } })) })).messages.map((m) => m.id);
    case 'listMessages': {
      const r = await memory.listMessages({ threadId: op.threadId, page: op.page, orderBy: { field: 'createdAt', direction: op.dir }, ...(op.perPage === undefined ? {} : { perPage: op.perPage }), ...(op.resourceId ? { resourceId: op.resourceId } : {}), ...(op.tag === undefined ? {} : { filter: { metadata: { tag: op.tag } } }), ...(op.include ? { include: [{ id: op.include, withPreviousMessages: 1, withNextMessages: 1 }] } : {}), ...(op.noTotal ? { includeTotal: false } : {}) });
      // With includeTotal: false, `total` is not a count (Mastra's contract; libsql counts anyway).
      return op.noTotal ? { messages: r.messages, hasMore: r.hasMore, page: r.page, perPage: r.perPage } : r;
    }
    case 'listThreads':
      return memory.listThreads({ page: op.page, orderBy: { field: 'createdAt', direction: op.dir }, ...(op.perPage === undefined ? {} : { perPage: op.perPage }), ...(op.resourceId ? { filter: { resourceId: op.resourceId } } : {}) });
    case 'getThread':
      return memory.getThreadById({ threadId: op.id, ...(op.resourceId ? { resourceId: op.resourceId } : {}) });
    case 'updateThread':
      return memory.updateThread({ id: op.id, ...(op.title === undefined ? {} : { title: op.title }), metadata: { u: op.meta } });
    case 'deleteMessages':
      return memory.deleteMessages(op.ids);
    case 'deleteThread':
      return memory.deleteThread({ threadId: op.id });
    case 'updateMessages':
      return (await memory.updateMessages({ messages: [{ id: op.id, content: { metadata: { edited: op.text } } as never }] })).map((m) => m.id);
    case 'listById':
      return (await memory.listMessagesById({ messageIds: op.ids })).messages;
    case 'resource':
      return memory.updateResource({ resourceId: op.id, ...(op.workingMemory === undefined ? {} : { workingMemory: op.workingMemory }) });
  }
}

/** Ops whose answers carry each store's own clock (a resource's createdAt): only their failure is compared. */
const TIMESTAMPED = new Set(['resource']);
/** Ops where Mastra's in-memory store answers otherwise than libsql (see the header): only their failure is compared. */
const IN_MEMORY_DIFFERS = new Set(['resource']);

const tmp = mkdtempSync(join(tmpdir(), 'sc-mastra-oracle-'));
// The memory backend without sourceRefAt runs the fallback of a page's offset and a snapshot's seq.
const list = [...backends().filter((b) => b.name !== 'memory'), fallbackBackend()];
afterAll(async () => {
  for (const b of list) await b.cleanup();
  rmSync(tmp, { recursive: true, force: true });
});

/** `value` with every `type: 'v2'` member of an object left out. */
function withoutDefaultType(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutDefaultType);
  if (value && typeof value === 'object' && !(value instanceof Date)) {
    return Object.fromEntries(Object.entries(value).filter(([k, v]) => !(k === 'type' && v === 'v2')).map(([k, v]) => [k, withoutDefaultType(v)]));
  }
  return value;
}

/** Fresh message ids per save: the one behaviour where Mastra's in-memory store departs from libsql (a re-saved id) stays out. */
function freshIds(ops: Op[]): Op[] {
  let next = 0;
  const ids: string[] = [];
  const map = (id: string) => ids[IDS.indexOf(id) % Math.max(1, ids.length)] ?? id;
  return ops.map((op) => {
    if (op.op === 'saveMessages') return { ...op, msgs: op.msgs.map((m) => { const id = `n${next++}`; ids.push(id); return { ...m, id }; }) };
    if (op.op === 'deleteMessages' || op.op === 'listById') return { ...op, ids: op.ids.map(map) };
    if (op.op === 'updateMessages') return { ...op, id: map(op.id) };
    if (op.op === 'listMessages' && op.include) return { ...op, include: map(op.include) };
    return op;
  });
}

describe.skipIf(!RUNTIME_OK)('the memory domain against Mastra in-memory store', () => {
  it('answers as the in-memory store where it agrees with libsql (fresh message ids)', async () => {
    const [memoryBackend] = backends();
    if (!memoryBackend) throw new Error('no memory backend');
    await fc.assert(
      fc.asyncProperty(fc.array(opArb, { minLength: 1, maxLength: 25 }), async (generated) => {
        const ops = freshIds(generated);
        const store = await memoryBackend.open(undefined);
        const ours = new CheckpointMemoryStorage(store);
        const inMemory = (await new InMemoryStore().getStore('memory')) as MemoryStorage;
        try {
          let t = Date.UTC(2026, 0, 1);
          for (const [i, op] of ops.entries()) {
            const stamp = t;
            t += 100_000;
            const clockFor = () => {
              let at = stamp;
              return () => new Date((at += 1000));
            };
            // The in-memory store keeps a message's `type: 'v2'` where libsql (and this domain) leave the default out.
            const settle = async (m: MemoryStorage) => apply(m, op, clockFor()).then((v) => ({ ok: true, value: norm(withoutDefaultType(v)) }), () => ({ ok: false, value: null }));
            const [a, c] = [await settle(ours), await settle(inMemory)];
            // The in-memory store refuses perPage: false with a page past 0 ("page value too large":
            // it multiplies MAX_SAFE_INTEGER by the page); libsql (and this domain) answer the whole list.
            if (op.op === 'listMessages' && op.perPage === false && op.page > 0) continue;
            const where = `op ${i}: ${JSON.stringify(op)}`;
            expect(a.ok, `${where}: ours ${JSON.stringify(a)} memory ${JSON.stringify(c)}`).toBe(c.ok);
            if (!a.ok || IN_MEMORY_DIFFERS.has(op.op)) continue;
            // The in-memory store's hasMore with an include is "fewer of the thread's messages
            // returned than its total", whatever the page: past the end it still says "more", and for
            // an array of threads (compared with === to each message's thread) always; libsql (and
            // this domain) also require offset + perPage < total.
            const comparable = (v: unknown) => (op.op === 'listMessages' && op.include ? { ...(v as object), hasMore: null } : v);
            expect(comparable(a.value), where).toEqual(comparable(c.value));
          }
        } finally {
          await store.close();
        }
      }),
      { numRuns: Number(process.env.SC_SOAK === '1' ? (process.env.SC_SOAK_RUNS ?? 300) : 25), seed: Number(process.env.SC_ORACLE_SEED ?? 38), endOnFailure: true },
    );
  });
});

describe.skipIf(!RUNTIME_OK).each(list)('the memory domain on $name against Mastra in-memory and @mastra/libsql', (backend) => {
  it.skipIf(!backend.available)('answers every call as @mastra/libsql does (and as memory does where the two agree)', async () => {
    let run = 0;
    const runs = Number(process.env.SC_SOAK === '1' ? (process.env.SC_SOAK_RUNS ?? 300) : 25);
    await fc.assert(
      fc.asyncProperty(fc.array(opArb, { minLength: 1, maxLength: 25 }), async (ops) => {
        run++;
        const store = await backend.open(backend.target());
        const libsql = new LibSQLStore({ id: `oracle-${run}`, url: `file:${join(tmp, `libsql-${backend.name}-${run}.db`)}` });
        await libsql.init();
        const reference = (await libsql.getStore('memory')) as MemoryStorage;
        const inMemory = (await new InMemoryStore().getStore('memory')) as MemoryStorage;
        const ours = new CheckpointMemoryStorage(store);
        try {
          let t = Date.UTC(2026, 0, 1);
          for (const [i, op] of ops.entries()) {
            const stamp = t;
            const clockFor = () => {
              let at = stamp;
              return () => new Date((at += 1000));
            };
            t += 100_000;
            const settle = async (m: MemoryStorage) => apply(m, op, clockFor()).then((v) => ({ ok: true, value: norm(v) }), (e: unknown) => ({ ok: false, value: String((e as Error).message ?? e).slice(0, 0) }));
            const [a, b, c] = [await settle(ours), await settle(reference), await settle(inMemory)];
            const where = `op ${i}: ${JSON.stringify(op)}`;
            expect(a.ok, `${where}: ours ${JSON.stringify(a)} libsql ${JSON.stringify(b)}`).toBe(b.ok);
            if (TIMESTAMPED.has(op.op) || !a.ok) continue;
            expect(a.value, where).toEqual(b.value);
            void c;
          }
        } finally {
          await store.close();
          await (libsql as unknown as { client?: { close(): void } }).client?.close();
        }
      }),
      { numRuns: runs, seed: Number(process.env.SC_ORACLE_SEED ?? 38), endOnFailure: true },
    );
  });
});
