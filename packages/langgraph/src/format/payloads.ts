import { CheckpointIntegrityError, type Checkpoint as StoredRow, type JsonValue } from '@session-checkpoint/core';
import { setOwn } from './json.js';
import { parseSourceRef, partRef, refNames, writePartRef, type ClaimedIdentity, type ParsedRef } from './refs.js';

/*
 * The payloads of the saver's rows: what the Python tool, the CLI and `./rows` read without
 * LangGraph. A row is what its kind and source ref say (refs.ts); the payload's own identity
 * fields are only a cross-check, enforced by the parsers at the end of this file.
 */

/** The store namespace the saver writes to unless told otherwise (`SessionCheckpointSaverOptions.namespace`). */
export const LANGGRAPH_NAMESPACE = 'langgraph';

/** Kind of the row that holds one LangGraph checkpoint. */
export const CHECKPOINT_KIND = 'langgraph.checkpoint';
/** Kind of the row that holds the pending writes of one task on one checkpoint. */
export const WRITE_KIND = 'langgraph.writes';
/** Kind of a row holding one part of a value too large for its checkpoint row (see parts.ts). */
export const PART_KIND = 'langgraph.part';

/** Where one part of a split value lives: the part number of its row and that row's payload SHA-256. */
export interface PartRef {
  k: number;
  sha: string;
}

/** A value as stored in a payload: the serializer's type tag with the JSON it wrote (`j`), or its bytes in base64 (`b64`). */
export interface StoredValue {
  /** The serializer's type tag, e.g. `"json"` or `"bytes"`. */
  t: string;
  j?: JsonValue;
  b64?: string;
  /** For a list value: the bytes of its serialized JSON (the snapshot size of the snapshot rule). */
  s?: number;
  /** A value too large for its row: the rows holding it in order (see `form`, and parts.ts). */
  parts?: PartRef[];
  /** With `parts`: `"items"` when each part holds a slice of a list's items, `"j"` when the parts join to JSON text, `"b64"` when to base64. */
  form?: 'j' | 'b64' | 'items';
  /** With `form: "items"` for an object whose bulk is one list: the key of that list; `j` then holds the rest of the object. */
  at?: string;
}

/** A stored value in its serialised JSON form: the JSON the serializer wrote, or `{ $type, $base64 }` for bytes. */
export function jsonForm(stored: StoredValue): unknown {
  if (stored.b64 !== undefined) return { $type: stored.t, $base64: stored.b64 };
  return stored.j ?? null;
}

/** Key of a checkpoint across threads and namespaces. */
export const keyOf = (p: { thread_id: string; checkpoint_ns: string; checkpoint_id: string }): string => `${p.thread_id}\u0000${p.checkpoint_ns}\u0000${p.checkpoint_id}`;

/** The channels a checkpoint payload has a value for. */
export function channelsOf(p: CheckpointPayload): string[] {
  return [...Object.keys(p.values), ...Object.keys(p.lists ?? {}), ...Object.keys(p.carried)];
}

/** Channel -> checkpoint whose row holds its value, for a checkpoint payload. */
export function holdersOf(p: CheckpointPayload): Record<string, string> {
  const holder: Record<string, string> = {};
  for (const [channel, from] of Object.entries(p.carried)) setOwn(holder, channel, from);
  for (const channel of [...Object.keys(p.values), ...Object.keys(p.lists ?? {})]) setOwn(holder, channel, p.checkpoint_id);
  return holder;
}

/** The refs of the part rows of a checkpoint row's own values and list pieces. */
export function valuePartRefs(p: CheckpointPayload): string[] {
  const refs: string[] = [];
  for (const v of [...Object.values(p.values), ...Object.values(p.lists ?? {})]) for (const part of v.parts ?? []) refs.push(partRef(p.thread_id, p.checkpoint_ns, p.checkpoint_id, part.k));
  return refs;
}

/** The refs of the part rows of a pending-writes row. */
export function writePartRefs(w: WritePayload): string[] {
  return w.writes.flatMap((x) => (x.value.parts ?? []).map((part) => writePartRef(w.thread_id, w.checkpoint_ns, w.checkpoint_id, w.task_id, part.k)));
}

/** Where a list's chain stands: the snapshot it starts from and the snapshot rule's counts. */
export interface ChainCounts {
  /** Checkpoint whose row holds the full value the chain starts from (the snapshot). */
  since: string;
  /** Serialized bytes of the pieces since the snapshot (this one included). */
  d: number;
  /** Serialized bytes of the snapshot. */
  s: number;
  /** Pieces since the snapshot (this one included). */
  c: number;
}

/**
 * A list channel whose value extends the value of an earlier checkpoint: only the appended items
 * are here (`j`, or `parts` when split). The items before them are the value at `from` (a
 * checkpoint of the same thread and namespace, usually the parent) whose row has the payload
 * SHA-256 `sha`; that row holds either the value in full (`values`) or the previous piece
 * (`lists`), so the chain back to the full value (the snapshot at `since`) is bound by row hashes.
 */
export interface ListPiece extends ChainCounts {
  t: 'json';
  /** Checkpoint whose row holds the value this one extends. */
  from: string;
  /** Payload SHA-256 of that row. */
  sha: string;
  /** Items of the value at `from`. */
  n: number;
  /** The appended items. */
  j?: unknown[];
  /**
   * Or the appended items as segments (row format 4): items held here, or the value of one pending
   * write stored under `from` (docs/decisions/0036), so that a message is stored once.
   */
  w?: PieceSegment[];
  /** Or, when they are too large for one row, the rows holding them (see `form`). */
  parts?: PartRef[];
  /** With `parts`: `"items"` when each part holds a slice of the items, absent when a slice of their JSON text. */
  form?: 'j' | 'items';
}

/**
 * One segment of a {@link ListPiece}'s appended items: items held in the piece (`j`), or the
 * value of the regular write `i` on the piece's channel in the pending-writes row of task `r` on
 * the checkpoint the piece extends, that row having the payload SHA-256 `sha`. The write's value
 * stands for its items when it is a list, else for one item ({@link writeItems}); the saver
 * refers to a write only when those items are, by content, the items it appends.
 */
export type PieceSegment = { j: unknown[] } | WriteSegment;

/** A {@link PieceSegment} naming a pending write. */
export interface WriteSegment {
  /** The task id of the pending-writes row. */
  r: string;
  /** The write's idx in that row. */
  i: number;
  /** Payload SHA-256 of that row when the piece was written. */
  sha: string;
}

/** True for a {@link PieceSegment} that names a pending write. */
export const isWriteSegment = (s: PieceSegment): s is WriteSegment => !('j' in s);

/** The items a write's value stands for in a list piece: its items when it is a list, else itself. */
export function writeItems(value: StoredValue): unknown[] {
  return Array.isArray(value.j) ? value.j : [value.j ?? null];
}

/**
 * The part number under which a pending-writes row with payload SHA-256 `sha` is kept when a later
 * putWrites replaces it (write/rows.ts): above every part number a split write takes (< 2^51).
 */
export function keptRowPart(sha: string): number {
  return 2 ** 52 + Number.parseInt(sha.slice(0, 12), 16);
}

/** Payload of a {@link PART_KIND} row: one slice of a split value, its items (version 3) or its text (version 2). */
export interface PartPayload {
  langgraph: 2 | 3;
  thread_id: string;
  checkpoint_ns: string;
  checkpoint_id: string;
  channel: string;
  k: number;
  /** Version 2: a slice of the JSON text (or base64). */
  text?: string;
  /** Version 3: a slice of the items. */
  items?: unknown[];
}

/**
 * Payload of a checkpoint row. Channel values are stored once, in the row of the checkpoint where
 * they changed (`values`); a channel carried over unchanged names that checkpoint (`carried`),
 * so a fork never overwrites another branch: values are keyed by the checkpoint that wrote them.
 */
export interface CheckpointPayload {
  /** 1; 2 with `lists` or text parts; 3 with item parts; 4 with list pieces naming pending writes (`w`). Readers refuse versions they do not know (fail closed). */
  langgraph: 1 | 2 | 3 | 4;
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
  /** List channels stored as an extension of an earlier value: only the appended items. */
  lists?: Record<string, ListPiece>;
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

/** A row is what its kind and source ref say: a payload claiming anything else (a row copied under another ref) fails closed. */
function requireIdentity(row: StoredRow, what: readonly ParsedRef['what'][], claimed: ClaimedIdentity, label: string): void {
  const ref = parseSourceRef(row.sourceRef);
  if (ref !== undefined && what.includes(ref.what) && row.sessionId === claimed.thread_id && refNames(ref, claimed)) return;
  const claims = `checkpoint ${String(claimed.checkpoint_id)} of thread '${String(claimed.thread_id)}'${claimed.checkpoint_ns === '' ? '' : ` (namespace '${String(claimed.checkpoint_ns)}')`}`;
  const reason = `its LangGraph ${label} payload names ${claims}${claimed.task_id === undefined ? '' : `, task ${String(claimed.task_id)}`}, not what its source ref and session say`;
  throw new CheckpointIntegrityError(`checkpoint ${row.id} (${row.sourceRef ?? 'no source_ref'}, session '${row.sessionId}'): ${reason}`, {
    failures: [{ id: row.id, reason }],
  });
}

/** True for a JSON object (not an array). */
export const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const isStored = (v: unknown): boolean => isObject(v) && typeof v.t === 'string';
const hasIds = (p: Record<string, unknown>): boolean => typeof p.thread_id === 'string' && typeof p.checkpoint_ns === 'string' && typeof p.checkpoint_id === 'string';

function isListPiece(v: unknown): boolean {
  if (!isObject(v) || v.t !== 'json' || typeof v.from !== 'string' || typeof v.sha !== 'string' || typeof v.since !== 'string') return false;
  if (!Number.isSafeInteger(v.n) || typeof v.d !== 'number' || typeof v.s !== 'number' || !Number.isSafeInteger(v.c)) return false;
  const parts = Array.isArray(v.parts) && v.parts.every((r: unknown) => isObject(r) && Number.isSafeInteger(r.k) && typeof r.sha === 'string');
  const segments = Array.isArray(v.w) && v.w.every((s: unknown) => isObject(s) && (Array.isArray(s.j) || (typeof s.r === 'string' && Number.isSafeInteger(s.i) && typeof s.sha === 'string')));
  return [Array.isArray(v.j), parts, segments].filter(Boolean).length === 1 && (v.form === undefined || v.form === 'j' || v.form === 'items');
}

/** The part payload of a verified row, shape-checked, its identity checked against its ref. */
export function partPayload(row: StoredRow): PartPayload {
  const p = row.payload as Record<string, unknown>;
  const slice = (p.langgraph === 2 && typeof p.text === 'string' && p.items === undefined) || (p.langgraph === 3 && Array.isArray(p.items) && p.text === undefined);
  if (row.kind !== PART_KIND || !slice || typeof p.checkpoint_id !== 'string' || typeof p.channel !== 'string' || !Number.isSafeInteger(p.k)) return malformed(row, 'part');
  requireIdentity(row, ['part', 'write-part'], { thread_id: p.thread_id, checkpoint_ns: p.checkpoint_ns, checkpoint_id: p.checkpoint_id, k: p.k }, 'part');
  return p as unknown as PartPayload;
}

/** True for a row of a checkpoint (as opposed to one of pending writes). */
export function isCheckpointRow(row: StoredRow): boolean {
  return row.kind === CHECKPOINT_KIND;
}

/** The checkpoint payload of a verified row, shape-checked, its identity checked against its ref. */
export function checkpointPayload(row: StoredRow): CheckpointPayload {
  const p = row.payload as Record<string, unknown>;
  const shaped = (p.langgraph === 1 || p.langgraph === 2 || p.langgraph === 3 || p.langgraph === 4) && hasIds(p) && (p.parent_checkpoint_id === null || typeof p.parent_checkpoint_id === 'string');
  const lists = p.lists === undefined || (isObject(p.lists) && Object.values(p.lists).every(isListPiece));
  if (row.kind !== CHECKPOINT_KIND || !shaped || !lists || !isStored(p.checkpoint) || !isStored(p.metadata) || !isObject(p.values) || !isObject(p.carried)) return malformed(row, 'checkpoint');
  requireIdentity(row, ['checkpoint'], p as unknown as CheckpointPayload, 'checkpoint');
  return p as unknown as CheckpointPayload;
}

/** The write payload of a verified row, shape-checked, its identity checked against its ref. */
export function writePayload(row: StoredRow): WritePayload {
  const p = row.payload as Record<string, unknown>;
  const writes = Array.isArray(p.writes) && p.writes.every((w: unknown) => isObject(w) && typeof w.idx === 'number' && typeof w.channel === 'string' && isStored(w.value));
  if (row.kind !== WRITE_KIND || p.langgraph !== 1 || !hasIds(p) || typeof p.task_id !== 'string' || typeof p.task_path !== 'string' || !writes) return malformed(row, 'write');
  requireIdentity(row, ['writes'], p as unknown as WritePayload, 'write');
  return p as unknown as WritePayload;
}
