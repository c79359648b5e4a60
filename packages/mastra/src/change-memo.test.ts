import type { CheckpointStore } from '@session-checkpoint/core';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { backends, RUNTIME_OK } from './test-support/backends.js';

/*
 * The differential test of the change memo (`Remembered` in remembered.ts): a message save checks the newest
 * change row it remembers for a thread (by ref and SHA-256, in the statement that reads the
 * saved ids' rows) instead of reading the thread's newest change, and trusts it only while the
 * next number is free (the insert's unique ref). Random sequences of saves (new ids, ids saved
 * again, ids moved between threads), updates, deletes of messages and threads, thread saves and
 * updates, thread copies (of a part of the messages, onto a thread that may exist), saves that
 * fail after writing (a message whose role the store refuses, or one nested as deep as a row may
 * be: its change row, which holds it one level deeper, is refused after every message row was
 * made; ids saved again in the same call were deleted by then), clears and reads, by two domain
 * objects on one store (two processes: each remembers what it wrote, the other moves the threads
 * on behind its back, deletes and re-creates them), against the same calls by one object without
 * a memo on a store of its own. After every call the answers (or errors) and every row (refs,
 * kinds, payloads; a copy's random ids named by the call and source id) must be the same, and
 * every remembered change row a save checked must be one the store committed: a memo set by a
 * transaction that then rolled back names a row that never was.
 * Where the store has `insertPreparedManyIfPresent`, a save to remembered threads is first tried
 * as one conditional insert (requiring each thread's remembered change row by ref and SHA-256,
 * every ref of the save free); the run must have taken it and seen it refused.
 */

const THREADS = ['t1', 't2'];
/** A copy may make a thread no other call names first. */
const COPY_TARGETS = ['t1', 't2', 't3'];
const IDS = ['m1', 'm2', 'm3', 'm4'];
const AT = Date.UTC(2026, 0, 1);

type Msg = { id: string; threadId: string; text: string; at: number };
type Op =
  | { op: 'save'; by: number; msgs: Msg[] }
  | { op: 'update'; by: number; id: string; text: string }
  | { op: 'deleteMessages'; by: number; ids: string[] }
  | { op: 'deleteThread'; by: number; id: string }
  | { op: 'saveThread'; by: number; id: string }
  | { op: 'updateThread'; by: number; id: string; title: string }
  | { op: 'copyThread'; by: number; from: string; to: string; limit: number | undefined; ids: string[] | undefined }
  | { op: 'failedSave'; by: number; msgs: Msg[]; bad: { threadId: string; how: 'role' | 'depth' } }
  | { op: 'clear'; by: number }
  | { op: 'list'; by: number; threadId: string };

const by = fc.integer({ min: 0, max: 1 });
const thread = fc.constantFrom(...THREADS);
const msg = fc.record({ id: fc.constantFrom(...IDS), threadId: thread, text: fc.constantFrom('a', 'b', 'c'), at: fc.integer({ min: 0, max: 5 }) });
const opArb: fc.Arbitrary<Op> = fc.oneof(
  { weight: 8, arbitrary: fc.record({ op: fc.constant('save' as const), by, msgs: fc.array(msg, { minLength: 1, maxLength: 3 }) }) },
  { weight: 1, arbitrary: fc.record({ op: fc.constant('update' as const), by, id: fc.constantFrom(...IDS), text: fc.constantFrom('x', 'y') }) },
  { weight: 1, arbitrary: fc.record({ op: fc.constant('deleteMessages' as const), by, ids: fc.subarray(IDS, { minLength: 1 }) }) },
  { weight: 1, arbitrary: fc.record({ op: fc.constant('deleteThread' as const), by, id: thread }) },
  { weight: 2, arbitrary: fc.record({ op: fc.constant('saveThread' as const), by, id: thread }) },
  { weight: 1, arbitrary: fc.record({ op: fc.constant('updateThread' as const), by, id: thread, title: fc.constantFrom('p', 'q') }) },
  { weight: 1, arbitrary: fc.record({ op: fc.constant('copyThread' as const), by, from: fc.constantFrom(...COPY_TARGETS), to: fc.constantFrom(...COPY_TARGETS), limit: fc.option(fc.integer({ min: 1, max: 3 }), { nil: undefined }), ids: fc.option(fc.subarray(IDS, { minLength: 1 }), { nil: undefined }) }) },
  { weight: 2, arbitrary: fc.record({ op: fc.constant('failedSave' as const), by, msgs: fc.array(msg, { maxLength: 3 }), bad: fc.record({ threadId: thread, how: fc.constantFrom('role' as const, 'depth' as const) }) }) },
  { weight: 1, arbitrary: fc.record({ op: fc.constant('clear' as const), by }) },
  { weight: 1, arbitrary: fc.record({ op: fc.constant('list' as const), by, threadId: thread }) },
);

type Memory = import('./memory-storage.js').CheckpointMemoryStorage;

/**
 * How deep a message's content may nest for its own row to be taken while its change row (which
 * holds it in an array, one level deeper) is refused: found once, by preparing both payloads.
 */
let deepest: number | undefined;
function nested(depth: number): unknown {
  let value: unknown = 'x';
  for (let i = 0; i < depth; i++) value = { a: value };
  return value;
}
const messageOf = (x: Msg, content: unknown = { format: 2, parts: [{ type: 'text', text: x.text }] }, role = 'user') => ({ id: x.id, threadId: x.threadId, resourceId: 'r', role, type: 'v2', createdAt: new Date(AT + x.at * 1000), content });
function deepContent(store: CheckpointStore): unknown {
  const fits = (payload: unknown) => {
    try {
      store.prepare({ namespace: 'mastra', sessionId: 's', payload: payload as object });
      return true;
    } catch {
      return false;
    }
  };
  // As stored: JSON (the date as text).
  const row = (d: number) => ({ messageId: 'bad', value: JSON.parse(JSON.stringify(messageOf({ id: 'bad', threadId: 't1', text: '', at: 0 }, nested(d)))) as unknown });
  deepest ??= (() => {
    let d = 1;
    while (fits(row(d + 1))) d++;
    return d;
  })();
  // The change row's payload: the messages one level deeper (its other fields are flat).
  expect(fits({ threadId: 't1', seq: 1, op: 'save', count: 1, at: '', value: [row(deepest).value] })).toBe(false);
  return nested(deepest);
}

/** The random ids a copy gave, per writer store: named by the call and the source id, for the comparison. */
type Names = Map<string, string>;

async function apply(m: Memory, op: Op, names: Names, step: number): Promise<unknown> {
  try {
    switch (op.op) {
      case 'save':
        return await m.saveMessages({ messages: op.msgs.map((x) => messageOf(x)) as never });
      case 'failedSave': {
        const bad = { id: 'bad', threadId: op.bad.threadId, text: '', at: 5 };
        const last = op.bad.how === 'role' ? messageOf(bad, undefined, 'r'.repeat(300)) : messageOf(bad, deepContent(m.store));
        return await m.saveMessages({ messages: [...op.msgs.map((x) => messageOf(x)), last] as never });
      }
      case 'copyThread': {
        const copied = await m.copyThread({ sourceThreadId: op.from, newThreadId: op.to, ...(op.limit === undefined && op.ids === undefined ? {} : { options: { ...(op.limit === undefined ? {} : { messageLimit: op.limit }), ...(op.ids === undefined ? {} : { messageFilter: { messageIds: op.ids } }) } }) });
        for (const [source, id] of Object.entries(copied.messageIdMap ?? {})) names.set(id, `copy${step}:${source}`);
        return copied;
      }
      case 'update':
        return await m.updateMessages({ messages: [{ id: op.id, content: { format: 2, parts: [{ type: 'text', text: op.text }] } as never }] });
      case 'deleteMessages':
        return await m.deleteMessages(op.ids);
      case 'deleteThread':
        return await m.deleteThread({ threadId: op.id });
      case 'saveThread':
        return await m.saveThread({ thread: { id: op.id, resourceId: 'r', title: op.id, createdAt: new Date(AT), updatedAt: new Date(AT) } as never });
      case 'updateThread':
        return await m.updateThread({ id: op.id, title: op.title, metadata: {} });
      case 'clear':
        return await m.dangerouslyClearAll();
      case 'list':
        return await m.listMessages({ threadId: op.threadId, perPage: false });
    }
  } catch (error) {
    return { error: error instanceof Error ? error.message : String(error) };
  }
}

/**
 * The clock the domain stamps (a change's `at`, a thread's `updatedAt`; a copy's `clonedAt` and
 * its thread's `createdAt`) left out, and a copy's random ids named as `names` says.
 */
function unclocked(value: unknown, names: Names = new Map()): unknown {
  if (value instanceof Date) return value.getTime();
  if (typeof value === 'string') return names.get(value) ?? value.replace(/^i\/([0-9a-f-]{36})$/, (ref, id: string) => (names.has(id) ? `i/${names.get(id)}` : ref));
  if (Array.isArray(value)) return value.map((v) => unclocked(v, names));
  if (value && typeof value === 'object') {
    const copy = (value as { metadata?: { clone?: unknown } }).metadata?.clone !== undefined;
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) if (k !== 'updatedAt' && k !== 'at' && k !== 'clonedAt' && !(copy && k === 'createdAt')) out[names.get(k) ?? k] = unclocked(v, names);
    return out;
  }
  return value;
}

/** Every row of the domain's namespace: ref, kind and payload (the clock left out), in ref order. */
async function rows(store: CheckpointStore, names: Names = new Map()): Promise<{ ref: unknown; kind: string; payload: unknown }[]> {
  const all = await store.list({ namespace: 'mastra', limit: 1000 });
  return all.map((r) => ({ ref: unclocked(r.sourceRef, names), kind: r.kind, payload: unclocked(r.payload, names) })).sort((a, b) => String(a.ref).localeCompare(String(b.ref)));
}

/** What the shortcuts did: the memo checked in a save's transaction, and the save as one conditional insert. */
interface Tally {
  taken: number;
  refused: number;
  /** Saves written by one `insertPreparedManyIfPresent`. */
  oneStatement: number;
  /** Saves it refused (nothing written; the transaction followed). */
  oneStatementRefused: number;
  /** Remembered change rows checked since the last call (in a transaction or by the one statement). */
  checkedRefs: string[];
}

/**
 * The store, counting the remembered change rows a save's transaction checked (through the store
 * or, for the hash alone, its adapter): `taken` when the
 * transaction committed on it, `refused` when it then read the newest change (the row was gone or
 * different) or failed (the next number was taken) and was retried.
 */
function counted(store: CheckpointStore, tally: Tally): CheckpointStore {
  const wrap = (target: CheckpointStore, attempt: { checked: boolean; fellBack: boolean } | undefined): CheckpointStore =>
    new Proxy(target, {
      get(t, key) {
        const value: unknown = Reflect.get(t, key, t);
        if (key === 'transaction') {
          return async <T>(fn: (tx: CheckpointStore) => Promise<T>) => {
            const state = { checked: false, fellBack: false };
            try {
              const result = await t.transaction((tx) => fn(wrap(tx, state)));
              if (state.checked && !state.fellBack) tally.taken++;
              return result;
            } catch (error) {
              if (state.checked && !state.fellBack) tally.refused++;
              throw error;
            }
          };
        }
        if (key === 'insertPreparedManyIfPresent' && !attempt) {
          return async (...args: Parameters<CheckpointStore['insertPreparedManyIfPresent']>) => {
            tally.checkedRefs.push(...args[1].present.map((p) => p.sourceRef).filter((ref) => ref.startsWith('c/')));
            const written = await t.insertPreparedManyIfPresent(...args);
            if (written === undefined) tally.oneStatementRefused++;
            else tally.oneStatement++;
            return written;
          };
        }
        if (key === 'findBySourceRefs' && attempt) {
          return (namespace: string, refs: string[]) => {
            if (refs.some((ref) => ref.startsWith('c/'))) attempt.checked = true;
            tally.checkedRefs.push(...refs.filter((ref) => ref.startsWith('c/')));
            return t.findBySourceRefs(namespace, refs);
          };
        }
        // The remembered row's hash is read raw from the adapter (plain stores with findBySourceRefs).
        if (key === 'adapter' && attempt) {
          const adapter = t.adapter;
          return new Proxy(adapter, {
            get(a, k) {
              const member: unknown = Reflect.get(a, k, a);
              if (k === 'findBySourceRefs' && typeof member === 'function') {
                return (namespace: string, refs: string[]) => {
                  if (refs.some((ref) => ref.startsWith('c/'))) attempt.checked = true;
                  tally.checkedRefs.push(...refs.filter((ref) => ref.startsWith('c/')));
                  return (member as (n: string, r: string[]) => unknown).call(a, namespace, refs);
                };
              }
              return typeof member === 'function' ? (member as (...x: unknown[]) => unknown).bind(a) : member;
            },
          });
        }
        if (key === 'listBySourceRefPrefix' && attempt) {
          return (query: Parameters<CheckpointStore['listBySourceRefPrefix']>[0]) => {
            if (attempt.checked && !attempt.fellBack && query.prefix.startsWith('c/') && query.descending === true && query.limit === 1) {
              attempt.fellBack = true;
              tally.refused++;
            }
            return t.listBySourceRefPrefix(query);
          };
        }
        return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(t) : value;
      },
    });
  return wrap(store, undefined);
}

const save = (writer: number, ...msgs: [string, string, number][]): Op => ({ op: 'save', by: writer, msgs: msgs.map(([id, threadId, at]) => ({ id, threadId, text: 'a', at })) });

const list = backends();
afterAll(async () => {
  for (const b of list) await b.cleanup();
});

describe.skipIf(!RUNTIME_OK).each(list)('the change memo on $name', (backend) => {
  it.skipIf(!backend.available)('two writers with memos leave the rows and answers of one writer without', async () => {
    const { CheckpointMemoryStorage } = await import('./index.js');
    const tally: Tally = { taken: 0, refused: 0, oneStatement: 0, oneStatementRefused: 0, checkedRefs: [] };
    let oneStatement = false;
    let copies = 0;
    const runs = Number(process.env.SC_SOAK === '1' ? (process.env.SC_SOAK_RUNS ?? 300) : 40);
    await fc.assert(
      fc.asyncProperty(fc.array(opArb, { minLength: 1, maxLength: 25, size: 'max' }), async (ops) => {
        const shared = await backend.open(backend.target());
        const alone = await backend.open(backend.target());
        oneStatement ||= shared.canInsertManyIfPresent;
        try {
          const writers = [new CheckpointMemoryStorage(counted(shared, tally)), new CheckpointMemoryStorage(counted(shared, tally))];
          const reference = new CheckpointMemoryStorage(alone, { rememberedThreads: 0 });
          const sharedNames: Names = new Map();
          const aloneNames: Names = new Map();
          // Every change row ref the shared store ever held after a call.
          const committed = new Set<string>();
          for (const [i, op] of ops.entries()) {
            const where = `op ${i}: ${JSON.stringify(op)}`;
            tally.checkedRefs = [];
            const ours = unclocked(await apply(writers[op.by] as Memory, op, sharedNames, i), sharedNames);
            const checked = tally.checkedRefs;
            if (op.op === 'failedSave') expect(ours, where).toHaveProperty('error');
            if (op.op === 'copyThread' && !(ours as { error?: unknown }).error) copies++;
            const theirs = unclocked(await apply(reference, op, aloneNames, i), aloneNames);
            expect(ours, where).toEqual(theirs);
            // A memo names a change row its writer committed (and saw committed): never one of a rolled-back transaction.
            for (const ref of checked) expect(committed.has(ref), `${where}: checked remembered ${ref}, never committed`).toBe(true);
            const now = await rows(shared, sharedNames);
            expect(now, where).toEqual(await rows(alone, aloneNames));
            for (const row of now) if (String(row.ref).startsWith('c/')) committed.add(String(row.ref));
          }
        } finally {
          await shared.close();
          await alone.close();
        }
      }),
      {
        numRuns: runs,
        examples: [
          // The other writer deletes the thread and fills it again up to the remembered number,
          // with another count: the remembered row is there by ref, with another hash.
          [[{ op: 'saveThread', by: 0, id: 't1' }, save(0, ['m1', 't1', 0]), { op: 'deleteThread', by: 1, id: 't1' }, { op: 'saveThread', by: 1, id: 't1' }, save(1, ['m2', 't1', 1], ['m3', 't1', 2]), save(0, ['m4', 't1', 3])]],
          // The other writer saves after it: the remembered row is there, unchanged, and not the newest.
          [[save(0, ['m1', 't1', 0]), save(1, ['m2', 't1', 1]), save(0, ['m3', 't1', 2])]],
          // A remembered thread saved to again with an id saved before (its i/ ref is taken), and
          // with new ids only, also to two remembered threads at once.
          [[save(0, ['m1', 't1', 0]), save(0, ['m2', 't2', 0]), save(0, ['m3', 't1', 1], ['m1', 't1', 2]), save(0, ['m4', 't1', 3], ['m2', 't1', 4]), save(0, ['m3', 't2', 5], ['m1', 't1', 5])]],
          // A save that fails after its first thread's change row was made (the second's is
          // refused), an id saved again deleted by then: the rows come back, and the memo of
          // t1 is not the change row that was never committed.
          [[save(0, ['m1', 't1', 0]), { op: 'failedSave', by: 0, msgs: [{ id: 'm1', threadId: 't1', text: 'b', at: 1 }], bad: { threadId: 't2', how: 'depth' } }, save(0, ['m2', 't1', 2])]],
          // A copy onto a new thread, then saves there by both writers.
          [[{ op: 'saveThread', by: 1, id: 't1' }, save(0, ['m1', 't1', 0], ['m2', 't1', 1]), { op: 'copyThread', by: 0, from: 't1', to: 't3', limit: undefined, ids: undefined }, save(1, ['m3', 't3', 2]), save(0, ['m4', 't3', 3])]],
        ],
      },
    );
    // The property must have run the shortcut both ways, or it proved nothing about it.
    expect(tally.taken).toBeGreaterThan(0);
    expect(tally.refused).toBeGreaterThan(0);
    // A save as one conditional insert, where the store has it: taken, and refused.
    if (oneStatement) {
      expect(tally.oneStatement).toBeGreaterThan(0);
      expect(tally.oneStatementRefused).toBeGreaterThan(0);
    } else expect(tally.oneStatement + tally.oneStatementRefused).toBe(0);
    expect(copies).toBeGreaterThan(0);
  }, 600_000);
});
