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
 * updates, clears and reads, by two domain objects on one store (two processes: each remembers
 * what it wrote, the other moves the threads on behind its back, deletes and re-creates them),
 * against the same calls by one object without a memo on a store of its own. After every call
 * the answers (or errors) and every row (refs, kinds, payloads) must be the same. Where the store
 * has `insertPreparedManyIfPresent`, a save to remembered threads is first tried as one
 * conditional insert (requiring each thread's remembered change row by ref and SHA-256, every
 * ref of the save free); the run must have taken it and seen it refused.
 */

const THREADS = ['t1', 't2'];
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
  { weight: 1, arbitrary: fc.record({ op: fc.constant('clear' as const), by }) },
  { weight: 1, arbitrary: fc.record({ op: fc.constant('list' as const), by, threadId: thread }) },
);

type Memory = import('./memory-storage.js').CheckpointMemoryStorage;

async function apply(m: Memory, op: Op): Promise<unknown> {
  try {
    switch (op.op) {
      case 'save':
        return await m.saveMessages({ messages: op.msgs.map((x) => ({ id: x.id, threadId: x.threadId, resourceId: 'r', role: 'user', type: 'v2', createdAt: new Date(AT + x.at * 1000), content: { format: 2, parts: [{ type: 'text', text: x.text }] } })) as never });
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

/** The clock the domain stamps (a change's `at`, a thread's `updatedAt`) left out. */
function unclocked(value: unknown): unknown {
  if (value instanceof Date) return value.getTime();
  if (Array.isArray(value)) return value.map(unclocked);
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) if (k !== 'updatedAt' && k !== 'at') out[k] = unclocked(v);
    return out;
  }
  return value;
}

/** Every row of the domain's namespace: ref, kind and payload (the clock left out), in ref order. */
async function rows(store: CheckpointStore): Promise<unknown[]> {
  const all = await store.list({ namespace: 'mastra', limit: 1000 });
  return all.map((r) => ({ ref: r.sourceRef, kind: r.kind, payload: unclocked(r.payload) })).sort((a, b) => String(a.ref).localeCompare(String(b.ref)));
}

/** What the shortcuts did: the memo checked in a save's transaction, and the save as one conditional insert. */
interface Tally {
  taken: number;
  refused: number;
  /** Saves written by one `insertPreparedManyIfPresent`. */
  oneStatement: number;
  /** Saves it refused (nothing written; the transaction followed). */
  oneStatementRefused: number;
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
            const written = await t.insertPreparedManyIfPresent(...args);
            if (written === undefined) tally.oneStatementRefused++;
            else tally.oneStatement++;
            return written;
          };
        }
        if (key === 'findBySourceRefs' && attempt) {
          return (namespace: string, refs: string[]) => {
            if (refs.some((ref) => ref.startsWith('c/'))) attempt.checked = true;
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
    const tally: Tally = { taken: 0, refused: 0, oneStatement: 0, oneStatementRefused: 0 };
    let oneStatement = false;
    const runs = Number(process.env.SC_SOAK === '1' ? (process.env.SC_SOAK_RUNS ?? 300) : 40);
    await fc.assert(
      fc.asyncProperty(fc.array(opArb, { minLength: 1, maxLength: 25, size: 'max' }), async (ops) => {
        const shared = await backend.open(backend.target());
        const alone = await backend.open(backend.target());
        oneStatement ||= shared.canInsertManyIfPresent;
        try {
          const writers = [new CheckpointMemoryStorage(counted(shared, tally)), new CheckpointMemoryStorage(counted(shared, tally))];
          const reference = new CheckpointMemoryStorage(alone, { rememberedThreads: 0 });
          for (const [i, op] of ops.entries()) {
            const where = `op ${i}: ${JSON.stringify(op)}`;
            const ours = unclocked(await apply(writers[op.by] as Memory, op));
            const theirs = unclocked(await apply(reference, op));
            expect(ours, where).toEqual(theirs);
            expect(await rows(shared), where).toEqual(await rows(alone));
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
  }, 600_000);
});
