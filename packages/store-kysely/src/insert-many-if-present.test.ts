import type { CheckpointStore, NewCheckpointRow } from '@session-checkpoint/core';
import { describe, expect, it } from 'vitest';
import { storeTargets } from './test-support/store-targets.js';

/*
 * insertManyIfPresent tells a refusal (nothing inserted: a required row missing, a ref taken,
 * also by a unique violation the statement's guard cannot see) from every other failure, which
 * it throws, on SQLite and PostgreSQL. The conformance case covers the rules; this file covers
 * the unique-violation path: two rows of the batch sharing a ref (SQLite and PostgreSQL at root
 * level run the statement without ON CONFLICT), and on PostgreSQL a concurrent writer's insert
 * of a ref of the batch, uncommitted when the statement starts.
 */

const targets = storeTargets('many-if-present', { poolSize: 2 });

function row(store: CheckpointStore, ref: string, namespace = 'app'): NewCheckpointRow {
  const { payloadBytes: _, ...made } = store.prepare({ namespace, sessionId: 's', payload: { ref }, sourceRef: ref });
  return made;
}

const insert = (store: CheckpointStore, rows: NewCheckpointRow[], present: { sourceRef: string; payloadSha256?: string }[] = []) =>
  (store.adapter.insertManyIfPresent as NonNullable<CheckpointStore['adapter']['insertManyIfPresent']>).call(store.adapter, rows, { present });

describe.each(targets)('insertManyIfPresent on $name', (target) => {
  it.skipIf(!target.available)('refuses a batch whose rows share a ref, at root and inside a transaction, leaving nothing and taking no id', async () => {
    const store = await target.open();
    try {
      const first = await store.create({ namespace: 'app', sessionId: 's', payload: {}, sourceRef: 'a' });
      expect(await insert(store, [row(store, 'x'), row(store, 'y'), row(store, 'x')])).toBeUndefined();
      await store.transaction(async (tx) => {
        expect(await insert(tx, [row(tx, 'x'), row(tx, 'x')])).toBeUndefined();
        // The transaction goes on: its later writes commit.
        await tx.create({ namespace: 'app', sessionId: 's', payload: {}, sourceRef: 'after' });
      });
      expect(await store.findBySourceRef('app', 'x')).toBeUndefined();
      const next = await store.create({ namespace: 'app', sessionId: 's', payload: {}, sourceRef: 'b' });
      // SQLite undoes the refused statements whole, its AUTOINCREMENT counter too; a
      // PostgreSQL sequence is not rolled back (ids may be skipped, never reused).
      if (!target.pg) expect(next.id).toBe(first.id + 2);
      else expect(next.id).toBeGreaterThan(first.id + 1);
    } finally {
      await store.close();
    }
  });

  it.skipIf(!target.available)('throws what is not a refusal', async () => {
    const store = await target.open();
    try {
      // A NOT NULL column left null: a constraint failure, but not the source-ref clash.
      const bad = { ...row(store, 'n'), sessionId: null as unknown as string };
      await expect(insert(store, [row(store, 'm'), bad])).rejects.toThrow(/null/i);
      expect(await store.findBySourceRef('app', 'm')).toBeUndefined();
    } finally {
      await store.close();
    }
  });

  it.skipIf(!target.available || !target.pg)('refuses, whole, a batch a concurrent writer takes a ref of before it commits', async () => {
    const store = await target.open();
    try {
      await store.create({ namespace: 'app', sessionId: 's', payload: {}, sourceRef: 'parent' });
      let release!: () => void;
      const held = new Promise<void>((resolve) => (release = resolve));
      let reached!: () => void;
      const inserted = new Promise<void>((resolve) => (reached = resolve));
      const writer = store.transaction(async (tx) => {
        await tx.create({ namespace: 'app', sessionId: 's', payload: { other: true }, sourceRef: 'r/2' });
        reached();
        await held;
      });
      await inserted;
      // Its guard does not see the uncommitted row; the unique index makes it wait, then fail.
      const batch = insert(store, [row(store, 'r/1'), row(store, 'r/2'), row(store, 'r/3')], [{ sourceRef: 'parent' }]);
      await new Promise((resolve) => setTimeout(resolve, 100));
      release();
      await writer;
      expect(await batch).toBeUndefined();
      for (const ref of ['r/1', 'r/3']) expect(await store.findBySourceRef('app', ref)).toBeUndefined();
      expect((await store.findBySourceRef('app', 'r/2'))?.payload).toEqual({ other: true });
    } finally {
      await store.close();
    }
  });
});
