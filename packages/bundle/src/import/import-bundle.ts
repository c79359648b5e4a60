/**
 * Import: validate the whole bundle, plan it against the store, and (only when applied) insert
 * every new checkpoint in one transaction with its original id, hash and timestamp.
 */
import { CheckpointConflictError, CheckpointValidationError, isCheckpointConflictError, type CheckpointRow, type CheckpointStore, type Keyring } from '@session-checkpoint/core';
import { looksSealed, validateToken } from '@session-checkpoint/core/toolkit';
import type { ProgressListener } from '../progress.js';
import type { ImportCandidate } from './import-candidate.js';
import { planImport } from './import-plan.js';
import { parseBundle, type ParsedBundle } from './parse-bundle.js';

/** Options of {@link importBundle}. */
export interface ImportOptions {
  /** Write the checkpoints. Default is `false`: a dry run that only reports the plan. */
  apply?: boolean;
  /**
   * Import only the items of this namespace. Items of other namespaces are still validated
   * (a malformed bundle is refused as a whole, and duplicate checks span the whole bundle) but are
   * neither compared with the store nor reported. Default is every item.
   */
  namespace?: string;
  /** Progress of the `validate`, `preflight` and `insert` phases. Default is none. */
  onProgress?: ProgressListener;
  /**
   * A sealed bundle whose keys the store does not hold: those keys, so that its rows are opened
   * and re-sealed under the store's active key. Default is none: a sealed bundle imports only
   * into a store that holds its keys (its envelopes are then kept as they are).
   */
  sourceKeys?: Keyring;
  /**
   * Refuse a plain bundle (its rows would be sealed as new checkpoints, trusting whatever the file
   * says). Default is `false`. Only for a store opened with keys.
   */
  requireSealed?: boolean;
}

/** Result of {@link importBundle} (the CLI prints it as `dry_run`, `inserted`, `unchanged`). */
export interface ImportResult {
  /** True when nothing was written. */
  dryRun: boolean;
  /** Ids inserted (or that would be, in a dry run), in bundle order. */
  inserted: number[];
  /** Ids already present with identical content, in bundle order. */
  unchanged: number[];
}

/**
 * Imports a bundle (text, or the result of {@link parseBundle}). Dry run unless `apply: true`.
 * Conflicts fail even in a dry run, before anything is written. An applied import runs in one
 * transaction and re-checks the plan inside it, so a concurrent writer cannot slip in between;
 * re-importing the same bundle changes nothing and reports every id as unchanged.
 *
 * @throws CheckpointValidationError for a malformed bundle or a cap exceeded (see {@link parseBundle}).
 * @throws CheckpointConflictError for an id or source_ref clash with the store, or
 *   `Checkpoint import conflicted with state changed during apply` when an insert still collides.
 * @throws CheckpointIntegrityError when an existing row in the way fails verification.
 * @example
 * ```ts
 * const text = await readBundleFile('export.json', store.limits);
 * await importBundle(store, text);                       // { dryRun: true, inserted: [1, 2], unchanged: [] }
 * await importBundle(store, text, { apply: true });      // { dryRun: false, inserted: [1, 2], unchanged: [] }
 * await importBundle(store, text, { apply: true });      // { dryRun: false, inserted: [], unchanged: [1, 2] }
 * ```
 */
export async function importBundle(
  store: CheckpointStore,
  source: string | ParsedBundle,
  options: ImportOptions = {},
): Promise<ImportResult> {
  const onProgress = options.onProgress;
  const namespace = options.namespace === undefined ? undefined : validateToken(options.namespace, 'namespace');
  const parsed = typeof source === 'string' ? parseBundle(source, store.limits, onProgress ? { onProgress } : {}) : source;
  const sealedRows = parsed.checkpoints.filter((c) => looksSealed(c.payloadJson)).length;
  if (parsed.seal !== undefined || sealedRows > 0) {
    // A sealed bundle: every item an envelope, and the heads of their sessions beside them.
    if (store.keyIds === undefined) throw new CheckpointValidationError('Import bundle is sealed: import it into a store opened with keys');
    if (parsed.seal === undefined || sealedRows !== parsed.checkpoints.length) {
      throw new CheckpointValidationError('Import bundle mixes sealed and plain checkpoints, or has sealed checkpoints without their heads');
    }
    const rows: CheckpointRow[] = parsed.checkpoints.map(({ payloadBytes: _bytes, ...row }) => row);
    return store.importSealed(rows, parsed.seal.heads, {
      apply: options.apply === true,
      ...(namespace === undefined ? {} : { namespace }),
      ...(options.sourceKeys === undefined ? {} : { sourceKeys: options.sourceKeys }),
    });
  }
  if (options.requireSealed === true) throw new CheckpointValidationError('Import bundle is not sealed (requireSealed)');
  const candidates = namespace === undefined ? parsed.checkpoints : parsed.checkpoints.filter((c) => c.namespace === namespace);
  // Outside any transaction first: conflicts and dry runs never take the write lock.
  const plan = await planImport(store, candidates, onProgress);
  if (options.apply !== true) return { dryRun: true, ...plan };
  if (plan.inserted.length === 0) return { dryRun: false, ...plan };
  return store.transaction(async (tx) => {
    // The store may have changed since the first plan; only this one is atomic with the inserts.
    const final = await planImport(tx, candidates);
    const byId = new Map<number, ImportCandidate>(candidates.map((c) => [c.id, c]));
    let done = 0;
    for (const id of final.inserted) {
      try {
        await tx.insertPrepared(byId.get(id) as ImportCandidate);
      } catch (error) {
        if (!isCheckpointConflictError(error)) throw error;
        throw new CheckpointConflictError('Checkpoint import conflicted with state changed during apply', { cause: error, ids: [id] });
      }
      onProgress?.({ phase: 'insert', done: ++done, total: final.inserted.length });
    }
    return { dryRun: false, ...final };
  });
}
