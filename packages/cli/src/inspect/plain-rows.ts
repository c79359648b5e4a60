import { CheckpointNotFoundError, CheckpointValidationError, isCheckpointError, utf8ByteLength, type CheckpointRow, type CheckpointStore } from '@session-checkpoint/core';
import { looksSealed } from '@session-checkpoint/core/toolkit';
import { sealStatus } from '../output/records.js';
import type { CheckpointsState, CheckpointsThreadSummary, CheckpointsTimelineEntry } from './types.js';

/*
 * Plain checkpoints (rows written by `create`): a session's rows are its steps, newest first by
 * created_at then id, as `history` lists them.
 */

const PAGE = 1000;

/** Every raw row of a session, newest first (unverified: for counting; the timeline checks each). */
async function* sessionRows(store: CheckpointStore, namespace: string, sessionId: string): AsyncGenerator<CheckpointRow> {
  for (let offset = 0; ; offset += PAGE) {
    const page = await store.adapter.listRows({ namespace, sessionId, limit: PAGE, offset });
    yield* page;
    if (page.length < PAGE) return;
  }
}

/** The summary of a plain session. */
export async function plainSummary(store: CheckpointStore, namespace: string, sessionId: string): Promise<CheckpointsThreadSummary | undefined> {
  let count = 0;
  let bytes = 0;
  let first: string | undefined;
  let latest: string | undefined;
  for await (const row of sessionRows(store, namespace, sessionId)) {
    count++;
    bytes += typeof row.payloadJson === 'string' ? utf8ByteLength(row.payloadJson) : 0;
    const at = String(row.createdAt);
    if (first === undefined || at < first) first = at;
    if (latest === undefined || at > latest) latest = at;
  }
  if (count === 0 || first === undefined || latest === undefined) return undefined;
  return { family: 'checkpoints', namespace, thread_id: sessionId, checkpoint_ns: [''], count, bytes, first_created_at: first, latest_created_at: latest };
}

const cursorText = (offset: number) => Buffer.from(`o:${offset}`, 'utf8').toString('base64url');

function offsetOf(cursor: string | undefined): number {
  if (cursor === undefined) return 0;
  const m = /^o:(0|[1-9][0-9]{0,15})$/.exec(Buffer.from(cursor, 'base64url').toString('utf8'));
  if (!m || cursorText(Number(m[1])) !== cursor) throw new CheckpointValidationError(`not a timeline cursor: ${JSON.stringify(cursor)}`);
  return Number(m[1]);
}

/** A page of a plain session's rows, newest first, each checked on its own. */
export async function plainTimeline(store: CheckpointStore, namespace: string, sessionId: string, limit: number, cursor?: string): Promise<{ entries: CheckpointsTimelineEntry[]; next_cursor: string | null }> {
  const offset = offsetOf(cursor);
  // One row more: the parent of the page's oldest row, and whether a next page exists.
  const raw = await store.adapter.listRows({ namespace, sessionId, limit: limit + 1, offset });
  // The store's own check: on a store opened with keys it checks seals and opens envelopes.
  const checked = store.checkRows(raw);
  const keyed = store.keyIds !== undefined;
  const entries = checked.slice(0, limit).map((c, i): CheckpointsTimelineEntry => {
    const row = c.ok ? c.row : c.raw;
    const older = raw[i + 1];
    const entry: CheckpointsTimelineEntry = {
      checkpoint_id: String(row.id),
      parent_checkpoint_id: older ? String(older.id) : null,
      checkpoint_ns: '',
      created_at: String(row.createdAt),
      bytes: typeof row.payloadJson === 'string' ? utf8ByteLength(row.payloadJson) : 0,
      row_id: Number(row.id),
      kind: String(row.kind),
      name: String(row.name),
      status: c.ok ? 'verified' : 'failed',
    };
    if (!c.ok) entry.error = { code: c.error.code, message: c.error.message };
    if (keyed) {
      // A failed row's claim to be sealed is only what its payload column looks like.
      const sealed = c.ok ? c.sealed === true : looksSealed(c.raw.payloadJson);
      entry.seal = { sealed, encrypted: sealed, verified: c.ok };
    }
    return entry;
  });
  return { entries, next_cursor: raw.length > limit ? cursorText(offset + limit) : null };
}

/** A plain checkpoint's payload, verified: by row id, or the session's latest. */
export async function plainState(store: CheckpointStore, namespace: string, sessionId: string, checkpointId?: string): Promise<CheckpointsState> {
  let cp;
  if (checkpointId === undefined) cp = await store.latest(sessionId, { namespace });
  else {
    if (!/^[1-9][0-9]{0,15}$/.test(checkpointId)) throw new CheckpointValidationError(`a plain checkpoint's id is a positive integer, not ${JSON.stringify(checkpointId)}`);
    try {
      cp = await store.get(Number(checkpointId), { namespace });
    } catch (error) {
      if (!isCheckpointError(error) || error.code !== 'NOT_FOUND') throw error;
    }
  }
  if (!cp || cp.sessionId !== sessionId) {
    throw new CheckpointNotFoundError(checkpointId === undefined ? `no checkpoint in session '${sessionId}' of namespace '${namespace}'` : `no checkpoint ${checkpointId} in session '${sessionId}' of namespace '${namespace}'`);
  }
  const seal = sealStatus(store);
  return {
    family: 'checkpoints',
    namespace,
    session_id: sessionId,
    checkpoint_id: String(cp.id),
    created_at: cp.createdAt,
    kind: cp.kind,
    name: cp.name,
    payload: cp.payload,
    // A store opened with keys hands out only rows whose seal, envelope and hash passed.
    ...(seal === undefined ? {} : { seal }),
  };
}

/** The ids of a plain session, oldest first (for a first-change walk). */
export async function plainIdsOldestFirst(store: CheckpointStore, namespace: string, sessionId: string): Promise<string[]> {
  const ids: string[] = [];
  for await (const row of sessionRows(store, namespace, sessionId)) ids.push(String(row.id));
  return ids.reverse();
}
