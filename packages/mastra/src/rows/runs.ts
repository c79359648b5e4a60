import { CheckpointNotFoundError, CheckpointValidationError, type CheckpointStore } from '@session-checkpoint/core';
import { checkedRange, decodeCursor, encodeCursor, rawRange, rowError, utf8Length, type RowError } from '@session-checkpoint/core/toolkit';
import { KINDS, MASTRA_NAMESPACE } from './namespace.js';
import { rangePages, wholeRange } from './range-pages.js';
import { idPart, runRef, seqOf, snapshotPrefix, snapshotRef } from './refs.js';
import type { MastraRowsPlace } from './threads.js';
import { valuesOf } from './values.js';
import type { StoredRun } from './workflow-types.js';

/** One workflow run of a store namespace. */
export interface MastraRunSummary {
  family: 'mastra-workflow';
  namespace: string;
  workflow_name: string;
  run_id: string;
  resource_id: string | null;
  /** The newest snapshot's status. */
  status: string | null;
  created_at: string;
  /** The run id again, under the name the other families' listings use (the CLI's `--thread`). */
  thread_id: string;
  /** `[workflow_name]`: the CLI's `--checkpoint-ns` picks the workflow when two share a run id. */
  checkpoint_ns: string[];
  /** Snapshots persisted (the run's steps). */
  count: number;
  /** UTF-8 bytes of the payloads of the run's record and snapshot rows (parts left out). */
  bytes: number;
  first_created_at: string;
  /** When the newest snapshot row was written. */
  latest_created_at: string;
}

/** One persisted snapshot of a run, newest first in a timeline page. */
export interface MastraSnapshotEntry {
  checkpoint_id: string;
  parent_checkpoint_id: string | null;
  checkpoint_ns: '';
  /** The workflow's status in this snapshot (`null` for a row that failed verification). */
  run_status: string | null;
  /** When Mastra persisted it. */
  updated_at: string | null;
  created_at: string;
  bytes: number;
  row_id: number;
  status: 'verified' | 'failed';
  error?: RowError;
}

/** A run's snapshot after one persist. */
export interface MastraRunState {
  family: 'mastra-workflow';
  namespace: string;
  workflow_name: string;
  run_id: string;
  /** The snapshot's number (1 is the first persist). */
  seq: number;
  snapshot: unknown;
}

/**
 * The workflow runs of a store namespace (their records, verified), newest first, with the count,
 * bytes and newest time of their snapshot rows (read without parsing).
 *
 * @example
 * ```ts
 * for (const r of await mastraRuns(store)) console.log(r.workflow_name, r.run_id, r.status);
 * ```
 */
export async function mastraRuns(store: CheckpointStore, options: MastraRowsPlace = {}): Promise<MastraRunSummary[]> {
  const namespace = options.namespace ?? MASTRA_NAMESPACE;
  // Every run record, a page at a time (a namespace may hold any number of runs).
  const rows = await wholeRange((q) => store.listBySourceRefPrefix(q), { namespace, prefix: 'w/', kind: KINDS.run });
  const out: MastraRunSummary[] = [];
  for (const row of rows) {
    const r = row.payload as unknown as StoredRun;
    // The snapshot rows, unparsed: how many, their bytes and the newest one's time.
    let count = 0;
    let bytes = utf8Length(row.payloadJson);
    let latest = String(row.createdAt);
    for await (const page of rangePages((q) => rawRange(store, q), { namespace, prefix: snapshotPrefix(r.workflowName, r.runId) })) {
      for (const s of page) {
        count++;
        bytes += utf8Length(s.payloadJson);
        if (String(s.createdAt) > latest) latest = String(s.createdAt);
      }
    }
    out.push({
      family: 'mastra-workflow',
      namespace,
      workflow_name: r.workflowName,
      run_id: r.runId,
      resource_id: r.resourceId ?? null,
      status: r.status ?? null,
      created_at: r.createdAt,
      thread_id: r.runId,
      checkpoint_ns: [r.workflowName],
      count,
      bytes,
      first_created_at: String(row.createdAt),
      latest_created_at: latest,
    });
  }
  return out.sort((a, b) => (a.created_at < b.created_at ? 1 : a.created_at > b.created_at ? -1 : 0));
}

/**
 * The workflows holding a run of id `runId`, read from the run records (verified). Given
 * `workflowName`, one source-ref read of that run's record (`[workflowName]`, or `[]` when the run
 * is not there); without it, the refs of the run records are read unverified and only the records
 * whose ref ends with this run id are read and verified, so a record of another run is never
 * parsed (and a bad one does not hide this run).
 *
 * @example
 * ```ts
 * const [workflowName] = await mastraRunWorkflows(store, { runId: 'run-1' });
 * ```
 */
export async function mastraRunWorkflows(store: CheckpointStore, options: MastraRowsPlace & { runId: string; workflowName?: string | undefined }): Promise<string[]> {
  const namespace = options.namespace ?? MASTRA_NAMESPACE;
  const { runId, workflowName } = options;
  const ofRun = (row: { kind: string; payload: unknown }): StoredRun | undefined => {
    const r = row.payload as StoredRun;
    return row.kind === KINDS.run && r.runId === runId && (workflowName === undefined || r.workflowName === workflowName) ? r : undefined;
  };
  if (workflowName !== undefined) {
    const row = await store.findBySourceRef(namespace, runRef(workflowName, runId));
    return row !== undefined && ofRun(row) !== undefined ? [workflowName] : [];
  }
  // A run record's ref is w/<workflow>/<run>, both parts escaped (no "/" inside): the run is the last part.
  const suffix = `/${idPart(runId)}`;
  const refs: string[] = [];
  // Every run record's ref, a page at a time (a namespace may hold any number of runs).
  for await (const page of rangePages((q) => rawRange(store, q), { namespace, prefix: 'w/' }, { page: 10_000 })) {
    for (const row of page) {
      const ref = String(row.sourceRef);
      if (ref.endsWith(suffix) && ref.indexOf('/', 2) === ref.length - suffix.length) refs.push(ref);
    }
  }
  const byRef = new Map((await store.findBySourceRefs(namespace, refs)).map((row) => [row.sourceRef, row] as const));
  // In ref order, as a range read lists them.
  return refs.flatMap((ref) => {
    const row = byRef.get(ref);
    const r = row === undefined ? undefined : ofRun(row);
    return r === undefined ? [] : [r.workflowName];
  });
}

/**
 * One page of a run's snapshots, newest first, each row verified on its own.
 *
 * @throws CheckpointValidationError for a bad `limit` or `cursor`.
 */
export async function mastraRunTimeline(store: CheckpointStore, options: MastraRowsPlace & { workflowName: string; runId: string; limit?: number; cursor?: string }): Promise<{ entries: MastraSnapshotEntry[]; next_cursor: string | null }> {
  const namespace = options.namespace ?? MASTRA_NAMESPACE;
  const limit = options.limit ?? 100;
  if (!Number.isSafeInteger(limit) || limit < 1 || limit > 1000) throw new CheckpointValidationError('limit must be an integer from 1 to 1000');
  const before = options.cursor === undefined ? undefined : decodeCursor(options.cursor);
  if (options.cursor !== undefined && before === undefined) throw new CheckpointValidationError(`not a timeline cursor: ${JSON.stringify(options.cursor)}`);
  const page = await checkedRange(store, { namespace, prefix: snapshotPrefix(options.workflowName, options.runId), descending: true, limit: limit + 1, ...(before === undefined ? {} : { before }) });
  const entries = page.slice(0, limit).map((c): MastraSnapshotEntry => {
    const raw = c.ok ? c.row : c.raw;
    const seq = seqOf(raw.sourceRef);
    const p = c.ok ? (c.row.payload as { updatedAt?: unknown; value?: { status?: unknown } }) : undefined;
    return {
      checkpoint_id: String(seq),
      parent_checkpoint_id: seq > 1 ? String(seq - 1) : null,
      checkpoint_ns: '',
      run_status: typeof p?.value?.status === 'string' ? p.value.status : null,
      updated_at: typeof p?.updatedAt === 'string' ? p.updatedAt : null,
      created_at: String(raw.createdAt),
      bytes: utf8Length(raw.payloadJson),
      row_id: Number(raw.id),
      status: c.ok ? 'verified' : 'failed',
      ...(c.ok ? {} : { error: rowError(c.error) }),
    };
  });
  const last = page[Math.min(limit, page.length) - 1];
  const lastRef = last ? (last.ok ? last.row : last.raw).sourceRef : null;
  return { entries, next_cursor: page.length > limit && lastRef !== null ? encodeCursor(lastRef) : null };
}

/**
 * A run's snapshot after persist `seq` (the newest when absent), verified, parts joined.
 *
 * @throws CheckpointNotFoundError when the run or that snapshot is not there.
 */
export async function mastraRunState(store: CheckpointStore, options: MastraRowsPlace & { workflowName: string; runId: string; seq?: number }): Promise<MastraRunState> {
  const namespace = options.namespace ?? MASTRA_NAMESPACE;
  if (options.seq !== undefined && (!Number.isSafeInteger(options.seq) || options.seq < 1)) throw new CheckpointValidationError('seq must be a positive integer');
  const row =
    options.seq === undefined
      ? (await store.listBySourceRefPrefix({ namespace, prefix: snapshotPrefix(options.workflowName, options.runId), descending: true, limit: 1 }))[0]
      : await store.findBySourceRef(namespace, snapshotRef(options.workflowName, options.runId, options.seq));
  if (row === undefined) throw new CheckpointNotFoundError(`no snapshot of Mastra run '${options.runId}' of workflow '${options.workflowName}' in namespace '${namespace}'`);
  const [snapshot] = await valuesOf(store, namespace, [row]);
  return { family: 'mastra-workflow', namespace, workflow_name: options.workflowName, run_id: options.runId, seq: seqOf(row.sourceRef), snapshot };
}
