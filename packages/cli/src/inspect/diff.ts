import type { CheckpointStore } from '@session-checkpoint/core';
import fastJsonPatch from 'fast-json-patch';
import { stateDocument, stateIn } from './state.js';
import { resolveFamily } from './threads.js';
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
 * An RFC 6902 JSON Patch turning `a` into `b` (fast-json-patch's `compare`: chosen over
 * jsondiffpatch for its size and because its output is RFC 6902 directly; applying the patch to
 * a copy of `a` with `applyPatch` gives `b`). Neither argument is changed.
 *
 * @example
 * ```ts
 * diffDocuments({ n: 1 }, { n: 2 }); // [{ op: 'replace', path: '/n', value: 2 }]
 * ```
 */
export function diffDocuments(a: unknown, b: unknown): PatchOperation[] {
  // compare() walks objects and arrays; a document that is neither is replaced whole.
  const container = (v: unknown) => typeof v === 'object' && v !== null;
  if (!container(a) || !container(b) || Array.isArray(a) !== Array.isArray(b)) {
    return JSON.stringify(a) === JSON.stringify(b) ? [] : [{ op: 'replace', path: '', value: b }];
  }
  return fastJsonPatch.compare(a as object, b as object) as PatchOperation[];
}

/**
 * The patch between the state documents of two steps of one thread (any two checkpoints, across
 * forks too; for sessions, two positions as text; for plain checkpoints, two row ids).
 *
 * @example
 * ```ts
 * const { patch } = await diffSteps(store, { threadId: 't-1', from: '1ef…a', to: '1ef…b' });
 * ```
 */
export async function diffSteps(store: CheckpointStore, selector: ThreadSelector & { from: string; to: string }): Promise<DiffResult> {
  const { family, namespace } = await resolveFamily(store, selector);
  const a = await stateIn(store, family, namespace, { ...selector, checkpointId: selector.from });
  const b = await stateIn(store, family, namespace, { ...selector, checkpointId: selector.to });
  return { family, from: selector.from, to: selector.to, patch: diffDocuments(stateDocument(a), stateDocument(b)) };
}
