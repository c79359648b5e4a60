import { CheckpointStore, Keyring, MAX_CHECKPOINT_ID, MemoryAdapter, type Checkpoint, type CreateCheckpointInput } from '@session-checkpoint/core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { storeTargets, type StoreTarget } from './test-support/store-targets.js';

/*
 * A generated differential test of `createMany` (one multi-row insert instead of a create per
 * row): random stored rows, then a random batch whose refs often clash with the stored rows or
 * with each other, whose payloads are sometimes over the store's maxPayloadBytes, and which
 * sometimes reaches the id limit (a stored row with an id just below it). Each batch goes to one
 * store with `createMany` and to a twin store (same backend, same rows) as sequential `create`s
 * in one transaction, the reference (after preparing every input: createMany reports a bad input
 * before any clash, as its doc comment says). Compared: the records (ids included), the error (class,
 * message, and the ids it names that are stored rows), every row read back after, and the id the
 * next create is given (the failed batch took no id the reference kept; PostgreSQL's sequence is
 * not rolled back, so there the batch may only take fewer). The batch runs outside a transaction,
 * inside one that its error ends, or inside one that catches its error and commits: all or
 * nothing there too, except on a sealed store, whose createMany is the sequential creates (its
 * doc comment says so) and is not run in that mode.
 */

const REFS = ['r/a', 'r/b', 'r/c', 'r/d', 'r/e', 'r/f'];
const refArb = fc.oneof({ arbitrary: fc.constant(null), weight: 1 }, { arbitrary: fc.constantFrom(...REFS), weight: 3 });
const inputArb = fc.record({
  namespace: fc.constantFrom('app', 'app', 'other'),
  sessionId: fc.constantFrom('s1', 's2'),
  kind: fc.constantFrom('k.a', 'k.b'),
  sourceRef: refArb,
  // Over 300 bytes (the store's maxPayloadBytes here) one time in ten or so.
  text: fc.oneof({ arbitrary: fc.string({ maxLength: 40 }), weight: 9 }, { arbitrary: fc.string({ minLength: 300, maxLength: 320 }), weight: 1 }),
  second: fc.integer({ min: 0, max: 59 }),
});
const caseArb = fc.record({
  stored: fc.array(inputArb.filter((i) => i.text.length < 200), { maxLength: 4 }),
  // A stored row with an explicit id this far below the id limit, one time in eight.
  nearLimit: fc.oneof({ arbitrary: fc.constant(undefined), weight: 7 }, { arbitrary: fc.integer({ min: 1, max: 8 }), weight: 1 }),
  batch: fc.array(inputArb, { minLength: 1, maxLength: 8 }),
  mode: fc.constantFrom('own', 'inTx', 'inTxCatch'),
});

type Input = { namespace: string; sessionId: string; kind: string; sourceRef: string | null; text: string; second: number };
const toCreate = (i: Input): CreateCheckpointInput => ({
  namespace: i.namespace,
  sessionId: i.sessionId,
  kind: i.kind,
  sourceRef: i.sourceRef,
  payload: { text: i.text },
  createdAt: `2026-12-06T10:00:${String(i.second).padStart(2, '0')}Z`,
});

const keys = Keyring.generate();
const limits = { maxPayloadBytes: 300 };
const [sqlite, postgres] = storeTargets('many', { store: { limits } }) as [StoreTarget, StoreTarget];
const [sealedSqlite] = storeTargets('many-sealed', { store: { limits, keys } }) as [StoreTarget];
// The concurrent writer's test: a PostgreSQL schema of its own, three connections.
const [, racePostgres] = storeTargets('many-race', { poolSize: 3 }) as [StoreTarget, StoreTarget];
const targets: { name: string; available: boolean; sealed: boolean; pg: boolean; open: () => Promise<CheckpointStore> }[] = [
  { name: 'memory', available: true, sealed: false, pg: false, open: async () => new CheckpointStore(new MemoryAdapter(), { limits }) },
  { ...sqlite, sealed: false },
  { ...postgres, sealed: false },
  { ...sealedSqlite, name: 'sealed sqlite', sealed: true },
];

/** Every row of the store, verified, by id. */
async function contents(store: CheckpointStore): Promise<Checkpoint[]> {
  const out: Checkpoint[] = [];
  for await (const row of store.scan()) out.push(row);
  return out.sort((a, b) => a.id - b.id);
}

/** What a failure says, with the ids it names that are stored rows (a row of a failed batch never is). */
function outcome(error: unknown, stored: readonly Checkpoint[]) {
  if (!(error instanceof Error)) return { ok: true as const };
  const ids = ((error as { ids?: readonly number[] }).ids ?? []).filter((id) => stored.some((row) => row.id === id));
  return { ok: false as const, name: error.name, message: error.message, ids };
}

describe.each(targets)('createMany on $name', (target) => {
  it.skipIf(!target.available)('gives what sequential creates in a transaction give, and leaves the store unchanged when it fails', async () => {
    const seen = { ok: 0, conflict: 0, validation: 0, idLimit: 0 };
    await fc.assert(
      fc.asyncProperty(caseArb, async ({ stored, nearLimit, batch, mode }) => {
        if (target.sealed && mode === 'inTxCatch') return;
        const [store, reference] = [await target.open(), await target.open()];
        try {
          for (const s of [store, reference]) {
            for (const i of stored) await s.create(toCreate(i)).catch(() => undefined);
            if (nearLimit !== undefined) await s.insertPrepared({ ...s.prepare({ namespace: 'app', sessionId: 's1', payload: {}, createdAt: '2026-12-06T09:00:00Z' }), id: MAX_CHECKPOINT_ID - nearLimit });
          }
          const inputs = batch.map(toCreate);
          let got: Checkpoint[] | undefined;
          let gotError: unknown;
          const run = (s: CheckpointStore) => s.createMany(inputs);
          try {
            if (mode === 'own') got = await run(store);
            else if (mode === 'inTx') got = await store.transaction(run);
            else {
              got = await store.transaction(async (tx) => {
                try {
                  return await run(tx);
                } catch (error) {
                  gotError = error;
                  return undefined;
                }
              });
            }
          } catch (error) {
            gotError = error;
          }
          let expected: Checkpoint[] | undefined;
          let expectedError: unknown;
          try {
            // createMany checks every input before it writes: a bad one is reported first.
            for (const input of inputs) reference.prepare(input);
            expected = await reference.transaction(async (tx) => {
              const out: Checkpoint[] = [];
              for (const input of inputs) out.push(await tx.create(input));
              return out;
            });
          } catch (error) {
            expectedError = error;
          }
          const [after, referenceAfter] = [await contents(store), await contents(reference)];
          expect(outcome(gotError, after)).toEqual(outcome(expectedError, referenceAfter));
          expect(got).toEqual(expected);
          // Ids compared only where the reference's failed transaction gave its ids back.
          const ids = !(target.pg && expectedError !== undefined) && !(target.name === 'memory' && mode === 'inTxCatch');
          const strip = (rows: Checkpoint[]) => (ids ? rows : rows.map(({ id: _, ...row }) => row));
          expect(strip(after)).toEqual(strip(referenceAfter));
          // The base class's insertMany (memory) deletes the rows of a failed batch inside a caller's transaction; their ids stay used.
          if (nearLimit === undefined && !(target.name === 'memory' && mode === 'inTxCatch')) {
            const probe = { namespace: 'app', sessionId: 'probe', payload: { probe: true } };
            const [next, referenceNext] = [await store.create(probe), await reference.create(probe)];
            if (ids) expect(next.id).toBe(referenceNext.id);
            else expect(next.id).toBeLessThanOrEqual(referenceNext.id);
          }
          if (expectedError === undefined) seen.ok++;
          else if (String((expectedError as Error).message).startsWith('No checkpoint id left')) seen.idLimit++;
          else if ((expectedError as Error).name === 'CheckpointConflictError') seen.conflict++;
          else seen.validation++;
        } finally {
          await store.close();
          await reference.close();
        }
      }),
      { numRuns: Number(process.env.SC_SOAK === '1' ? (process.env.SC_SOAK_RUNS ?? 300) : 60), seed: Number(process.env.SC_ORACLE_SEED ?? 39) },
    );
    // The cases reach every outcome.
    expect(seen.ok).toBeGreaterThan(3);
    expect(seen.conflict).toBeGreaterThan(3);
    expect(seen.validation).toBeGreaterThan(0);
    expect(seen.idLimit).toBeGreaterThan(0);
  });
});

describe('createMany on PostgreSQL beside a concurrent writer', () => {
  it.skipIf(!racePostgres.available)('reports a ref that a concurrent transaction took after the batch checked it, and keeps nothing of the batch', async () => {
    const store = await racePostgres.open();
    try {
      const row = (ref: string) => ({ namespace: 'app', sessionId: 's', payload: { ref }, sourceRef: ref, createdAt: '2026-12-06T10:00:00Z' });
      // A holds 'r/x' uncommitted: the batch's NOT EXISTS does not see it, its insert waits on the
      // unique index until A commits, and ON CONFLICT DO NOTHING then leaves that row out.
      let release!: () => void;
      const gate = new Promise<void>((resolve) => (release = resolve));
      let held!: () => void;
      const holding = new Promise<void>((resolve) => (held = resolve));
      const a = store.transaction(async (tx) => {
        const taken = await tx.create(row('r/x'));
        held();
        await gate;
        return taken;
      });
      await holding;
      let outcome: unknown;
      const b = store.transaction(async (tx) => {
        try {
          await tx.createMany([row('r/y'), row('r/x'), row('r/z')]);
        } catch (error) {
          outcome = error;
        }
        // The transaction goes on and commits: nothing of the batch may be in it.
        await tx.create(row('r/after'));
      });
      // Let B's statement reach the index wait before A commits (no verdict depends on this pause).
      await new Promise((resolve) => setTimeout(resolve, 300));
      release();
      const taken = await a;
      await b;
      expect(outcome).toBeInstanceOf(Error);
      expect((outcome as Error).name).toBe('CheckpointConflictError');
      expect((outcome as { ids: number[] }).ids).toEqual([taken.id]);
      const refs: (string | null)[] = [];
      for await (const cp of store.scan()) refs.push(cp.sourceRef);
      expect(refs.sort()).toEqual(['r/after', 'r/x']);
    } finally {
      await store.close();
    }
  });
});

describe.each(targets.filter((t) => !t.sealed))('createMany of more rows than one statement takes, on $name', (target) => {
  it.skipIf(!target.available)('keeps nothing of a batch refused in its second statement, also inside a transaction that goes on', async () => {
    const store = await target.open();
    try {
      const row = (k: number) => ({ namespace: 'app', sessionId: 's', payload: { k }, sourceRef: `b/${String(k).padStart(3, '0')}`, createdAt: '2026-12-06T10:00:00Z' });
      const held = await store.create(row(140));
      const batch = Array.from({ length: 150 }, (_, k) => row(k));
      const conflict = (error: unknown) => ({ name: (error as Error).name, ids: (error as { ids: number[] }).ids });
      await expect(store.createMany(batch).catch(conflict)).resolves.toEqual({ name: 'CheckpointConflictError', ids: [held.id] });
      let inside: unknown;
      await store.transaction(async (tx) => {
        inside = await tx.createMany(batch).catch(conflict);
        await tx.create(row(999));
      });
      expect(inside).toEqual({ name: 'CheckpointConflictError', ids: [held.id] });
      const refs: (string | null)[] = [];
      for await (const cp of store.scan()) refs.push(cp.sourceRef);
      expect(refs.sort()).toEqual(['b/140', 'b/999']);
      // Without the held ref the same batch goes in whole, ids ascending in its order.
      await store.deleteIds([held.id], { namespace: 'app' });
      const created = await store.createMany(batch);
      expect(created.map((c) => c.sourceRef)).toEqual(batch.map((b) => b.sourceRef));
      expect(created.every((c, k) => k === 0 || c.id > (created[k - 1] as Checkpoint).id)).toBe(true);
    } finally {
      await store.close();
    }
  });
});
