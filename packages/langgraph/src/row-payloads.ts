import { CheckpointIntegrityError, type Checkpoint as StoredRow } from '@session-checkpoint/core';
import type { StoredValue } from './stored-value.js';

/** Kind of the row that holds one LangGraph checkpoint. */
export const CHECKPOINT_KIND = 'langgraph.checkpoint';
/** Kind of the row that holds the pending writes of one task on one checkpoint. */
export const WRITE_KIND = 'langgraph.writes';

/**
 * Payload of a checkpoint row. Channel values are stored once, in the row of the checkpoint where
 * they changed (`values`); a channel carried over unchanged names that checkpoint (`carried`),
 * so a fork never overwrites another branch: values are keyed by the checkpoint that wrote them.
 */
export interface CheckpointPayload {
  langgraph: 1;
  thread_id: string;
  checkpoint_ns: string;
  checkpoint_id: string;
  parent_checkpoint_id: string | null;
  /** The checkpoint without `channel_values`. */
  checkpoint: StoredValue;
  metadata: StoredValue;
  /** Values of the channels that changed here (listed in `newVersions`). */
  values: Record<string, StoredValue>;
  /** Channel -> id of the checkpoint (same thread and namespace) whose row holds its value. */
  carried: Record<string, string>;
}

/** One pending write inside a {@link WritePayload}. */
export interface StoredWrite {
  /** LangGraph's index: the position in the call, or a negative one for special channels. */
  idx: number;
  channel: string;
  value: StoredValue;
}

/** Payload of the row holding the pending writes of one task on one checkpoint. */
export interface WritePayload {
  langgraph: 1;
  thread_id: string;
  checkpoint_ns: string;
  checkpoint_id: string;
  task_id: string;
  task_path: string;
  /** By idx, each idx once. */
  writes: StoredWrite[];
}

function malformed(row: StoredRow, what: string): never {
  throw new CheckpointIntegrityError(`checkpoint ${row.id} (${row.sourceRef ?? 'no source_ref'}) is not a LangGraph ${what} row`, {
    failures: [{ id: row.id, reason: `not a LangGraph ${what} payload` }],
  });
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const isStored = (v: unknown): boolean => isObject(v) && typeof v.t === 'string';

/** True for a row of a checkpoint (as opposed to one of pending writes). */
export function isCheckpointRow(row: StoredRow): boolean {
  return row.kind === CHECKPOINT_KIND;
}

/** The checkpoint payload of a verified row, shape-checked. */
export function checkpointPayload(row: StoredRow): CheckpointPayload {
  const p = row.payload as Record<string, unknown>;
  if (
    row.kind !== CHECKPOINT_KIND ||
    p.langgraph !== 1 ||
    typeof p.thread_id !== 'string' ||
    typeof p.checkpoint_ns !== 'string' ||
    typeof p.checkpoint_id !== 'string' ||
    !(p.parent_checkpoint_id === null || typeof p.parent_checkpoint_id === 'string') ||
    !isStored(p.checkpoint) ||
    !isStored(p.metadata) ||
    !isObject(p.values) ||
    !isObject(p.carried)
  ) {
    return malformed(row, 'checkpoint');
  }
  return p as unknown as CheckpointPayload;
}

/** The write payload of a verified row, shape-checked. */
export function writePayload(row: StoredRow): WritePayload {
  const p = row.payload as Record<string, unknown>;
  if (
    row.kind !== WRITE_KIND ||
    p.langgraph !== 1 ||
    typeof p.checkpoint_id !== 'string' ||
    typeof p.task_id !== 'string' ||
    typeof p.task_path !== 'string' ||
    !Array.isArray(p.writes) ||
    !p.writes.every((w: unknown) => isObject(w) && typeof w.idx === 'number' && typeof w.channel === 'string' && isStored(w.value))
  ) {
    return malformed(row, 'write');
  }
  return p as unknown as WritePayload;
}
