/**
 * The preflight of an import: every candidate compared with the store, as the reference does it
 * (section 8). A candidate whose id exists anywhere must match that row in all nine fields
 * (unchanged); otherwise its (namespace, source_ref) must be free (inserted). Any conflict fails
 * the whole import, dry run included: there is no partial plan.
 */
import { CheckpointConflictError, type Checkpoint, type CheckpointStore } from '@session-checkpoint/core';
import type { ProgressListener } from '../progress.js';
import { pythonRepr } from '@session-checkpoint/core/toolkit';
import type { ImportCandidate } from './import-candidate.js';

/** Ids to insert and ids already present, in bundle order. */
export interface ImportPlan {
  inserted: number[];
  unchanged: number[];
}

/** Equality of the reference's `Checkpoint` (all nine fields; the payload by its canonical text). */
export function sameCheckpoint(existing: Checkpoint, candidate: ImportCandidate): boolean {
  return (
    existing.id === candidate.id &&
    existing.namespace === candidate.namespace &&
    existing.sessionId === candidate.sessionId &&
    existing.kind === candidate.kind &&
    existing.name === candidate.name &&
    existing.payloadJson === candidate.payloadJson &&
    existing.payloadSha256 === candidate.payloadSha256 &&
    existing.createdAt === candidate.createdAt &&
    existing.sourceRef === candidate.sourceRef
  );
}

/**
 * Plans an import against `store` (or a transaction-bound store). Existing rows are verified as
 * they are read, so a damaged row in the way fails the import with `CheckpointIntegrityError`.
 *
 * @throws CheckpointConflictError `Checkpoint id {id} conflicts with existing state` or
 *   `source_ref '{ref}' conflicts in namespace '{ns}'`, with the ids involved in `ids`.
 * @example
 * ```ts
 * const { inserted, unchanged } = await planImport(store, parseBundle(text, store.limits).checkpoints);
 * ```
 */
export async function planImport(
  store: CheckpointStore,
  candidates: readonly ImportCandidate[],
  onProgress?: ProgressListener,
): Promise<ImportPlan> {
  const plan: ImportPlan = { inserted: [], unchanged: [] };
  let done = 0;
  for (const candidate of candidates) {
    const existing = await store.findById(candidate.id);
    if (existing !== undefined) {
      if (!sameCheckpoint(existing, candidate)) {
        throw new CheckpointConflictError(`Checkpoint id ${candidate.id} conflicts with existing state`, { ids: [candidate.id] });
      }
      plan.unchanged.push(candidate.id);
    } else {
      if (candidate.sourceRef !== null) {
        const holder = await store.findBySourceRef(candidate.namespace, candidate.sourceRef);
        if (holder !== undefined) {
          throw new CheckpointConflictError(
            `source_ref ${pythonRepr(candidate.sourceRef)} conflicts in namespace ${pythonRepr(candidate.namespace)}`,
            { ids: [candidate.id, holder.id] },
          );
        }
      }
      plan.inserted.push(candidate.id);
    }
    onProgress?.({ phase: 'preflight', done: ++done, total: candidates.length });
  }
  return plan;
}
