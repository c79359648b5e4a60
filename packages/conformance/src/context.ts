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
