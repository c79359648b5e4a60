import { CheckpointValidationError, type Checkpoint, type CheckpointStore, type PreparedCheckpoint } from '@session-checkpoint/core';
import {
  WorkflowsStorage,
  createEmptyWorkflowSnapshot,
  getSnapshotMemoryInfo,
  matchesExpectedWorkflowStatus,
  mergeWorkflowStepResult,
  normalizePerPage,
  type StorageListWorkflowRunsInput,
  type UpdateWorkflowStateOptions,
  type WorkflowRun,
  type WorkflowRuns,
} from '@mastra/core/storage';
import type { StepResult, WorkflowRunState } from '@mastra/core/workflows';
import { KINDS, MASTRA_NAMESPACE } from './rows/namespace.js';
import { pad, runRef, seqOf, sessionOf, snapshotPrefix, snapshotRef } from './rows/refs.js';
import { rawRange } from '@session-checkpoint/core/toolkit';
import type { StoredRun } from './rows/workflow-types.js';
import { valuesOf } from './rows/values.js';
import { domainStore, inTransaction, refAt, rowsByPrefix } from './store-rows.js';
import { deleteValueRows, isPlainJson, jsonOf, putValue, recordJson } from './value-writer.js';
import { Remembered, type RememberedRun, type RunRefs } from './remembered.js';

/** Options of {@link CheckpointWorkflowsStorage}. */
export interface CheckpointWorkflowsStorageOptions {
  /** Store namespace of the rows. Default is `"mastra"` (shared with the memory domain). */
  namespace?: string;
  /**
   * How many runs a persist may remember (their record and newest snapshot number) to write the
   * next snapshot in one conditional statement; `0` turns that path off (every persist reads the
   * record and the newest ref in a transaction). Default is 4096.
   */
  rememberedRuns?: number;
}

/** Room in a row for the fields besides the value: value-writer.ts's rule for keeping a value inline. */
const ENVELOPE = 2048;

/** True when two run records hold the same fields (whatever their key order). */
function sameRun(a: StoredRun, b: StoredRun): boolean {
  return a.workflowName === b.workflowName && a.runId === b.runId && a.createdAt === b.createdAt && a.resourceId === b.resourceId && a.status === b.status && Object.keys(a).length === Object.keys(b).length;
}

/**
 * True when a persist of `snapshot` by `resourceId` leaves the remembered record `run` of that
 * workflow and run as it is: `sameRun(run, recordOf(run with the persist's owner, snapshot))`,
 * without building the record.
 */
function keepsRecord(run: StoredRun, workflowName: string, runId: string, resourceId: string | undefined, snapshot: unknown): boolean {
  const status = (snapshot as { status?: unknown } | null)?.status;
  const owner = resourceId ?? run.resourceId;
  const hasStatus = typeof status === 'string';
  return run.workflowName === workflowName && run.runId === runId && run.resourceId === owner && run.status === (hasStatus ? status : undefined) && Object.keys(run).length === 3 + (owner === undefined ? 0 : 1) + (hasStatus ? 1 : 0);
}

/** The refs and session id of a run's rows. */
function refsOf(workflowName: string, runId: string): RunRefs {
  return { run: runRef(workflowName, runId), snapshots: snapshotPrefix(workflowName, runId), sessionId: sessionOf(runId) };
}

/** A run's record as a persist writes it: the newest snapshot's status, the run's owner. */
function recordOf(run: StoredRun, snapshot: unknown): StoredRun {
  const status = (snapshot as { status?: unknown } | null)?.status;
  return { workflowName: run.workflowName, runId: run.runId, createdAt: run.createdAt, ...(run.resourceId === undefined ? {} : { resourceId: run.resourceId }), ...(typeof status === 'string' ? { status } : {}) };
}

function runOut(run: StoredRun, latest: { snapshot: unknown; updatedAt: string }): WorkflowRun {
  return {
    workflowName: run.workflowName,
    runId: run.runId,
    snapshot: latest.snapshot as WorkflowRunState,
    createdAt: new Date(run.createdAt),
    updatedAt: new Date(latest.updatedAt),
    ...(run.resourceId === undefined ? {} : { resourceId: run.resourceId }),
  };
}

/**
 * A snapshot as JSON: what Mastra's SQL stores keep (see value-writer.ts's `jsonOf`). A snapshot
 * that is a plain record (a `WorkflowRunState`) goes through `recordJson`, which skips the round
 * trip when it would change nothing (about a tenth of a SQLite persist of 4 KB) and copies every
 * member, so a caller that changes its snapshot afterwards changes nothing kept.
 */
function snapshotJson(snapshot: unknown, runId: string): unknown {
  const what = `snapshot of run ${runId}`;
  return typeof snapshot === 'object' && snapshot !== null && !Array.isArray(snapshot) ? recordJson(snapshot as Record<string, unknown>, what) : jsonOf(snapshot, what);
}

/**
 * Mastra's `workflows` storage domain over a session-checkpoint store: each run has a current
 * record, and every snapshot persisted is kept as a row of its own (never overwritten), so a run's
 * states can be walked back (`@session-checkpoint/mastra/rows`). Every row is verified on read;
 * step results and state updates are read-modify-write in one transaction, retried when another
 * process wrote the run meanwhile, so `supportsConcurrentUpdates()` is true.
 *
 * Snapshots are stored as JSON, as `@mastra/libsql` and `@mastra/pg` store them (a `Date` comes
 * back as its ISO text).
 *
 * @example
 * ```ts
 * const storage = new MastraCompositeStore({ id: 'app', domains: { workflows: new CheckpointWorkflowsStorage(store) } });
 * ```
 */
export class CheckpointWorkflowsStorage extends WorkflowsStorage {
  /** The store the rows are in. */
  readonly store: CheckpointStore;
  /** The store namespace of the rows. */
  readonly namespace: string;

  /** Runs this object wrote or read last; undefined when the store has no conditional insert. */
  readonly #memo: Remembered<RememberedRun> | undefined;

  constructor(store: CheckpointStore, options: CheckpointWorkflowsStorageOptions = {}) {
    super();
    this.store = domainStore(store, 'CheckpointWorkflowsStorage');
    this.namespace = options.namespace ?? MASTRA_NAMESPACE;
    this.store.prepare({ namespace: this.namespace, sessionId: 'x', payload: {} });
    const remembered = options.rememberedRuns;
    if (remembered !== undefined && (!Number.isSafeInteger(remembered) || remembered < 0)) throw new CheckpointValidationError('rememberedRuns must be a non-negative integer');
    const conditional = this.store.adapter?.capabilities?.conditionalInserts === true && typeof this.store.insertPreparedIfPresent === 'function';
    this.#memo = conditional && remembered !== 0 ? new Remembered<RememberedRun>(remembered) : undefined;
  }

  override supportsConcurrentUpdates(): boolean {
    return true;
  }

  override async dangerouslyClearAll(): Promise<void> {
    this.#memo?.clear();
    await inTransaction(this.store, async (tx) => {
      for (const prefix of ['w/', 's/', 'p/s/']) {
        for (;;) {
          // Raw rows: a row that fails verification is cleared too (this is the tests' reset).
          const rows = await rawRange(tx, { namespace: this.namespace, prefix, limit: 500 });
          if (rows.length === 0) break;
          await tx.adapter.deleteRows(rows.map((r) => r.id), this.namespace);
        }
      }
    });
  }

  async #run(reader: CheckpointStore, workflowName: string, runId: string): Promise<{ row: Checkpoint; run: StoredRun } | undefined> {
    const row = await reader.findBySourceRef(this.namespace, runRef(workflowName, runId));
    return row === undefined ? undefined : { row, run: row.payload as unknown as StoredRun };
  }

  /** The newest snapshot of a run (verified) and when it was persisted, or `undefined`. */
  async #latest(reader: CheckpointStore, workflowName: string, runId: string): Promise<{ snapshot: unknown; updatedAt: string; seq: number } | undefined> {
    const [row] = await reader.listBySourceRefPrefix({ namespace: this.namespace, prefix: snapshotPrefix(workflowName, runId), descending: true, limit: 1 });
    if (row === undefined) return undefined;
    const [snapshot] = await valuesOf(reader, this.namespace, [row]);
    const fields = row.payload as { updatedAt?: unknown };
    return { snapshot, updatedAt: typeof fields.updatedAt === 'string' ? fields.updatedAt : row.createdAt, seq: seqOf(row.sourceRef) };
  }

  /**
   * Writes the next snapshot of a run in the caller's transaction, and its run record when that
   * changes (a new run, another status or resource): the record is small and rewritten only then,
   * so most persists are one read of the record, one of the newest snapshot's ref and one insert.
   * Returns what the run is after it, for the memo (set once the transaction has committed).
   */
  async #persist(tx: CheckpointStore, previous: { row: Checkpoint; run: StoredRun } | undefined, run: StoredRun, snapshot: unknown, updatedAt: string): Promise<RememberedRun> {
    const refs = refsOf(run.workflowName, run.runId);
    const newest = await refAt(tx, this.namespace, refs.snapshots, 0, true);
    const seq = newest === undefined ? 1 : seqOf(newest) + 1;
    const { sessionId } = refs;
    const { payloadSha256: snapshotSha256 } = await putValue(tx, { namespace: this.namespace, sessionId, kind: KINDS.snapshot, name: `snapshot ${seq}`, ref: snapshotRef(run.workflowName, run.runId, seq), fields: { workflowName: run.workflowName, runId: run.runId, seq, updatedAt }, value: snapshot });
    const record = recordOf(run, snapshot);
    // Field by field: the stored record comes back with its keys sorted (canonical JSON), so its
    // JSON.stringify never equals the new record's, and every persist rewrote the record.
    if (previous && sameRun(previous.run, record)) return { run: previous.run, refs, recordSha256: previous.row.payloadSha256, seq, snapshotSha256 };
    if (previous) await deleteValueRows(tx, this.namespace, [previous.row]);
    const written = await tx.create({ namespace: this.namespace, sessionId, kind: KINDS.run, name: run.workflowName.slice(0, 200) || 'run', payload: record as unknown as object, sourceRef: refs.run });
    return { run: record, refs, recordSha256: written.payloadSha256, seq, snapshotSha256 };
  }

  /**
   * The snapshot row of persist `seq`, prepared (canonical JSON, SHA-256) when `value` is JSON the
   * canonicaliser takes and the row fits inline; else `undefined`.
   */
  #snapshotRow(workflowName: string, runId: string, refs: RunRefs, seq: number, updatedAt: string, value: unknown): PreparedCheckpoint | undefined {
    let prepared: PreparedCheckpoint;
    try {
      prepared = this.store.prepare({ namespace: this.namespace, sessionId: refs.sessionId, kind: KINDS.snapshot, name: `snapshot ${seq}`, payload: { workflowName, runId, seq, updatedAt, value } as object, sourceRef: refs.snapshots + pad(seq) });
    } catch (error) {
      if (error instanceof CheckpointValidationError) return undefined;
      throw error;
    }
    // value-writer.ts keeps a value inline only with this much room left in the row.
    return prepared.payloadBytes + ENVELOPE <= this.store.limits.maxPayloadBytes ? prepared : undefined;
  }

  /**
   * The next snapshot of a run this object remembers, prepared now (canonical JSON, SHA-256) for
   * {@link #insertRemembered}; `undefined` when the run is not remembered, its record would change,
   * or the value needs part rows: the caller then takes the reading transaction.
   */
  #rememberedRow(key: string, workflowName: string, runId: string, resourceId: string | undefined, value: unknown, updatedAt: string): { row: PreparedCheckpoint; known: RememberedRun } | undefined {
    const known = this.#memo?.get(key);
    if (known === undefined || !keepsRecord(known.run, workflowName, runId, resourceId, value)) return undefined;
    const row = this.#snapshotRow(workflowName, runId, known.refs, known.seq + 1, updatedAt, value);
    return row === undefined ? undefined : { row, known };
  }

  /**
   * Inserts a row of {@link #rememberedRow} as one conditional insert outside any transaction: it
   * goes in only while the store still holds the remembered run record (its SHA-256) and the
   * remembered newest snapshot, and the snapshot's number is still free (the unique source ref).
   * Snapshots are numbered densely from 1 by every writer, so the remembered one present and the
   * next one free means it is the newest. `false` when the store refused it (another writer moved
   * the run on): the run is forgotten and the caller takes the reading transaction.
   */
  async #insertRemembered(key: string, { row, known }: { row: PreparedCheckpoint; known: RememberedRun }): Promise<boolean> {
    const memo = this.#memo as Remembered<RememberedRun>;
    const { refs } = known;
    // The superseded snapshot's text leaves the store's verified-text memo: a snapshot is read
    // back while it is the newest (a load, a resume), and kept texts of the older ones cost the
    // garbage collector (decision record 0052).
    const inserted = await this.store.insertPreparedIfPresent(row, { present: [{ sourceRef: refs.run, payloadSha256: known.recordSha256 }, { sourceRef: refs.snapshots + pad(known.seq) }] }, { forgetText: known.snapshotSha256 });
    if (inserted === undefined) {
      memo.delete(key);
      return false;
    }
    memo.set(key, { run: known.run, refs, recordSha256: known.recordSha256, seq: known.seq + 1, snapshotSha256: row.payloadSha256 });
    return true;
  }

  override async persistWorkflowSnapshot({ workflowName, runId, resourceId, snapshot, createdAt, updatedAt }: { workflowName: string; runId: string; resourceId?: string; snapshot: WorkflowRunState; createdAt?: Date; updatedAt?: Date }): Promise<void> {
    const key = Remembered.runKey(workflowName, runId);
    const stamp = updatedAt?.toISOString() ?? new Date().toISOString();
    // The caller's Dates as they are now: the transaction below stamps the run after awaits, when
    // the caller may have changed them. (Only the time value: an invalid createdAt throws where it
    // always did, in the transaction, and not on the remembered path, which does not use it.)
    const updatedMs = updatedAt?.getTime();
    const createdMs = createdAt?.getTime();
    // JSON first (a Date becomes its text, an undefined member goes), as @mastra/libsql stores it.
    // A snapshot that is plain JSON already is its own JSON: for a run this object remembers it is
    // canonicalised as it is, before anything awaits (so before the caller can change it), and
    // not copied (decision record 0052); see isPlainJson.
    const plain = this.#memo !== undefined && isPlainJson(snapshot);
    const json = plain ? snapshot : snapshotJson(snapshot, runId);
    const remembered = this.#rememberedRow(key, workflowName, runId, resourceId, json, stamp);
    let value: unknown;
    if (remembered === undefined) {
      // The transaction awaits before it writes: a copy of the caller's snapshot as it is now.
      value = plain ? snapshotJson(snapshot, runId) : json;
    } else {
      if (await this.#insertRemembered(key, remembered)) return;
      // Refused: the snapshot as it was at the call, from the row's canonical text (the caller's
      // object may have changed during the await).
      value = (JSON.parse(remembered.row.payloadJson) as { value: unknown }).value;
    }
    const after = await inTransaction(this.store, async (tx) => {
      const previous = await this.#run(tx, workflowName, runId);
      const now = new Date().toISOString();
      const owner = resourceId ?? previous?.run.resourceId;
      return this.#persist(tx, previous, {
        workflowName,
        runId,
        ...(owner === undefined ? {} : { resourceId: owner }),
        // A run persisted again keeps its createdAt, as @mastra/libsql keeps it (Mastra's in-memory store takes the new one).
        createdAt: previous?.run.createdAt ?? (createdMs === undefined ? undefined : new Date(createdMs).toISOString()) ?? now,
      }, value, updatedMs === undefined ? now : new Date(updatedMs).toISOString());
    });
    this.#memo?.set(key, after);
  }

  override async loadWorkflowSnapshot({ workflowName, runId }: { workflowName: string; runId: string }): Promise<WorkflowRunState | null> {
    return ((await this.#latest(this.store, workflowName, runId))?.snapshot as WorkflowRunState | undefined) ?? null;
  }

  /**
   * Read, change and persist a run's snapshot in one transaction (retried on a lost race). A run
   * that does not exist is `missing`'s answer, or, with `create`, starts from an empty snapshot.
   */
  async #update<T>(workflowName: string, runId: string, change: (snapshot: WorkflowRunState) => { snapshot?: WorkflowRunState; result: T }, missing: T, create = false): Promise<T> {
    const { result, after } = await inTransaction(this.store, async (tx): Promise<{ result: T; after?: RememberedRun }> => {
      const previous = await this.#run(tx, workflowName, runId);
      if (!previous && !create) return { result: missing };
      const snapshot = (previous ? ((await this.#latest(tx, workflowName, runId))?.snapshot as WorkflowRunState | undefined) : undefined) ?? ({ ...createEmptyWorkflowSnapshot(runId), requestContext: {} } as WorkflowRunState);
      const { snapshot: next, result } = change(snapshot);
      const now = new Date().toISOString();
      const after = next === undefined ? undefined : await this.#persist(tx, previous, previous ? previous.run : { workflowName, runId, createdAt: now }, jsonOf(next, `snapshot of run ${runId}`), now);
      return { result, after };
    });
    if (after !== undefined) this.#memo?.set(Remembered.runKey(workflowName, runId), after);
    return result;
  }

  override async updateWorkflowResults({ workflowName, runId, stepId, result, requestContext }: { workflowName: string; runId: string; stepId: string; result: StepResult<any, any, any, any>; requestContext: Record<string, any> }): Promise<Record<string, StepResult<any, any, any, any>>> {
    // A run that does not exist yet is created from an empty snapshot, as @mastra/libsql does
    // (Mastra's in-memory store answers {} and creates nothing).
    return this.#update(workflowName, runId, (snapshot) => {
      const context = mergeWorkflowStepResult({ snapshot, stepId, result, requestContext });
      return { snapshot, result: context };
    }, {}, true);
  }

  override async updateWorkflowState({ workflowName, runId, opts }: { workflowName: string; runId: string; opts: UpdateWorkflowStateOptions }): Promise<WorkflowRunState | undefined> {
    return this.#update<WorkflowRunState | undefined>(workflowName, runId, (snapshot) => {
      const { expectedStatus, ...state } = opts;
      if (!matchesExpectedWorkflowStatus(snapshot.status, expectedStatus)) return { result: undefined };
      const next = { ...snapshot, ...state } as WorkflowRunState;
      return { snapshot: next, result: next };
    }, undefined);
  }

  /** Every run record (small rows), optionally of one workflow. */
  async #runs(workflowName?: string): Promise<StoredRun[]> {
    const prefix = workflowName === undefined ? 'w/' : runRef(workflowName, '').replace(/\/$/, '/');
    return (await rowsByPrefix(this.store, this.namespace, prefix, { kind: KINDS.run })).map((r) => r.payload as unknown as StoredRun).filter((r) => workflowName === undefined || r.workflowName === workflowName);
  }

  override async listWorkflowRuns({ workflowName, fromDate, toDate, perPage, page, resourceId, threadId, status }: StorageListWorkflowRunsInput = {}): Promise<WorkflowRuns> {
    if (page !== undefined && page < 0) throw new Error('page must be >= 0');
    let runs = await this.#runs(workflowName || undefined);
    if (fromDate) runs = runs.filter((r) => new Date(r.createdAt).getTime() >= fromDate.getTime());
    if (toDate) runs = runs.filter((r) => new Date(r.createdAt).getTime() <= toDate.getTime());
    if (resourceId) runs = runs.filter((r) => r.resourceId === resourceId);
    if (status) runs = runs.filter((r) => r.status === status);
    let withSnapshots: { run: StoredRun; latest: { snapshot: unknown; updatedAt: string } }[] = [];
    for (const r of runs) withSnapshots.push({ run: r, latest: (await this.#latest(this.store, r.workflowName, r.runId)) ?? { snapshot: null, updatedAt: r.createdAt } });
    if (threadId) withSnapshots = withSnapshots.filter((r) => getSnapshotMemoryInfo(r.latest.snapshot as WorkflowRunState)?.threadId === threadId);
    withSnapshots.sort((a, b) => new Date(b.run.createdAt).getTime() - new Date(a.run.createdAt).getTime());
    const total = withSnapshots.length;
    if (perPage !== undefined && page !== undefined) {
      const size = normalizePerPage(perPage, Number.MAX_SAFE_INTEGER);
      withSnapshots = withSnapshots.slice(page * size, page * size + size);
    }
    return { runs: withSnapshots.map((r) => runOut(r.run, r.latest)), total };
  }

  override async getWorkflowRunById({ runId, workflowName }: { runId: string; workflowName?: string }): Promise<WorkflowRun | null> {
    const runs = (await this.#runs(workflowName || undefined)).filter((r) => r.runId === runId).sort((a, b) => new Date(b.createdAt).getTime() - new Date(a.createdAt).getTime());
    const run = runs[0];
    return run === undefined ? null : runOut(run, (await this.#latest(this.store, run.workflowName, run.runId)) ?? { snapshot: null, updatedAt: run.createdAt });
  }

  override async deleteWorkflowRunById({ runId, workflowName }: { runId: string; workflowName: string }): Promise<void> {
    this.#memo?.delete(Remembered.runKey(workflowName, runId));
    await inTransaction(this.store, async (tx) => {
      const found = await this.#run(tx, workflowName, runId);
      const snapshots = await rowsByPrefix(tx, this.namespace, snapshotPrefix(workflowName, runId));
      await deleteValueRows(tx, this.namespace, [...(found ? [found.row] : []), ...snapshots]);
    });
  }
}
