import { CheckpointValidationError, sha256Hex } from '@session-checkpoint/core';

/*
 * Every LangGraph row carries a source ref that encodes where it belongs, so that each lookup of
 * the saver is one exact match or one prefix range of the store's (namespace, source_ref) index:
 *
 *   lg/<thread>/<checkpoint_ns>/<checkpoint_id>             a checkpoint
 *   lg/<thread>/<checkpoint_ns>/<checkpoint_id>/<task_id>   the pending writes of one task on it
 *
 * A checkpoint's writes sort right after it, so one range read returns a checkpoint with its
 * writes (and, newest first, a page of checkpoints with theirs). Parts are escaped ("%" "/" "~"
 * as %25 %2F %7E) so that no part can run into the next; within one (thread, namespace) prefix,
 * refs sort like the checkpoint ids (uuid6 ids hold no escaped characters). A part longer than its
 * share of the 256-character source ref is replaced by "~" and a hash of it: still exact and
 * deterministic, only no longer readable.
 */

/** Longest escaped part kept readable, per part; the sum stays within the 256-character cap. */
const MAX_PART = { thread: 80, ns: 60, id: 64, task: 40 } as const;

function escapePart(value: string): string {
  return /[%/~]/.test(value) ? value.replace(/%/g, '%25').replace(/\//g, '%2F').replace(/~/g, '%7E') : value;
}

function part(value: unknown, max: number, field: string): string {
  if (typeof value !== 'string') throw new CheckpointValidationError(`${field} must be a string`);
  const escaped = escapePart(value);
  return escaped.length <= max ? escaped : `~${sha256Hex(value).slice(0, 32)}`;
}

/** Prefix of every row: of the whole namespace, of one thread, or of one (thread, checkpoint_ns). */
export function checkpointPrefix(threadId?: string, checkpointNs?: string): string {
  if (threadId === undefined) return 'lg/';
  const thread = part(threadId, MAX_PART.thread, 'thread_id');
  return checkpointNs === undefined ? `lg/${thread}/` : `lg/${thread}/${part(checkpointNs, MAX_PART.ns, 'checkpoint_ns')}/`;
}

/** The ref of one checkpoint; its writes' refs continue it with "/<task_id>". */
export function checkpointRef(threadId: string, checkpointNs: string, checkpointId: string): string {
  return `${checkpointPrefix(threadId, checkpointNs)}${part(checkpointId, MAX_PART.id, 'checkpoint_id')}`;
}

/** The ref of the pending writes of one task on one checkpoint. */
export function writeRef(threadId: string, checkpointNs: string, checkpointId: string, taskId: string): string {
  return `${checkpointRef(threadId, checkpointNs, checkpointId)}/${part(taskId, MAX_PART.task, 'task_id')}`;
}

/*
 * Refs of the saver's other rows, outside the `lg/` range so that checkpoint range reads never
 * meet them: parts of values too large for one row, and the transient lock row of a thread.
 */

/** The ref of part `k` of a split value of one checkpoint: `lgp/<thread>/<ns>/<id>/<k>`. */
export function partRef(threadId: string, checkpointNs: string, checkpointId: string, k: number): string {
  return `lgp/${checkpointRef(threadId, checkpointNs, checkpointId).slice('lg/'.length)}/${k}`;
}

/** The ref of a thread's lock row (inserted and deleted inside one transaction, never committed). */
export function threadLockRef(threadId: string): string {
  return `lgl/${checkpointPrefix(threadId).slice('lg/'.length)}`;
}

/** The ref of part `k` of a split pending write: `lgp/<thread>/<ns>/<id>/<task>/<k>`. */
export function writePartRef(threadId: string, checkpointNs: string, checkpointId: string, taskId: string, k: number): string {
  return `lgp/${writeRef(threadId, checkpointNs, checkpointId, taskId).slice('lg/'.length)}/${k}`;
}
