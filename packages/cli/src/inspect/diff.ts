import type { CheckpointStore } from '@session-checkpoint/core';
import type { Family, PatchOperation, ThreadSelector } from './types.js';

/** The result of {@link diffSteps}. */
export interface DiffResult {
  family: Family;
  from: string;
  to: string;
  /** RFC 6902 operations that turn the state document at `from` into the one at `to`. */
  patch: PatchOperation[];
}

/**
 * An RFC 6902 JSON Patch turning `a` into `b` (fast-json-patch's `compare`; applying it to a copy
 * of `a` with `applyPatch` gives `b`). Neither argument is changed.
 *
 * @example
 * ```ts
 * diffDocuments({ n: 1 }, { n: 2 }); // [{ op: 'replace', path: '/n', value: 2 }]
 * ```
 */
export function diffDocuments(a: unknown, b: unknown): PatchOperation[] {
  void a;
  void b;
  throw new Error('not yet');
}

/**
 * The patch between the state documents of two steps of one thread (any two checkpoints, across
 * forks too; for sessions, two positions as text).
 *
 * @example
 * ```ts
 * const { patch } = await diffSteps(store, { threadId: 't-1', from: '1ef…a', to: '1ef…b' });
 * ```
 */
export async function diffSteps(store: CheckpointStore, selector: ThreadSelector & { from: string; to: string }): Promise<DiffResult> {
  void store;
  void selector;
  throw new Error('not yet');
}
