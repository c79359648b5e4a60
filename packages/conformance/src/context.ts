import { CheckpointStore, type CheckpointAdapter, type CreateCheckpointInput } from '@session-checkpoint/core';
import type { ConformanceFactory, ConformanceSubject } from './types.js';

/** What each conformance case receives: the subject, a store over it, and small helpers. */
export interface CaseContext {
  subject: ConformanceSubject;
  adapter: CheckpointAdapter;
  store: CheckpointStore;
  /** Creates a checkpoint with defaults for every field the case does not care about. */
  make(input?: Partial<CreateCheckpointInput>): ReturnType<CheckpointStore['create']>;
}

/**
 * A transaction of `store` held open between two steps, for cases about what others see or wait
 * for meanwhile: `reached` settles once `before` has run (or rejects when the transaction failed
 * first, so a case never waits forever), `release()` lets it run `after` and commit, `done` is
 * its end.
 */
export function heldTransaction(
  store: CheckpointStore,
  before: (tx: CheckpointStore) => Promise<void>,
  after: (tx: CheckpointStore) => Promise<void> = async () => undefined,
): { reached: Promise<unknown>; release: () => void; done: Promise<void> } {
  let reach!: () => void;
  const reachedBefore = new Promise<void>((resolve) => (reach = resolve));
  let release!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  const done = store.transaction(async (tx) => {
    await before(tx);
    reach();
    await gate;
    await after(tx);
  });
  return { reached: Promise.race([reachedBefore, done]), release, done };
}

/** The ids of some rows, in their order. */
export const ids = (rows: readonly { id: number }[]): number[] => rows.map((r) => r.id);

/** Timestamps that sort in the order of their index, for ordering cases. */
export function at(minute: number): string {
  return `2026-08-08T07:${String(minute).padStart(2, '0')}:00Z`;
}

/**
 * Runs one case against a fresh subject and always destroys it, so a failing case cannot leak
 * state into the next.
 */
export async function withSubject(factory: ConformanceFactory, fn: (ctx: CaseContext) => Promise<void>): Promise<void> {
  const subject = await factory();
  const store = new CheckpointStore(subject.adapter);
  const ctx: CaseContext = {
    subject,
    adapter: subject.adapter,
    store,
    make: (input = {}) =>
      store.create({ namespace: 'app', sessionId: 's-1', createdAt: at(0), ...(input.payloadJson === undefined ? { payload: { n: 1 } } : {}), ...input }),
  };
  try {
    await fn(ctx);
  } finally {
    await subject.destroy();
  }
}
