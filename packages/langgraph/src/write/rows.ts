import {
  CheckpointConflictError,
  CheckpointValidationError,
  isCheckpointConflictError,
  type Checkpoint as StoredRow,
  type CheckpointStore,
  type CreateCheckpointInput,
  type PreparedCheckpoint,
} from '@session-checkpoint/core';
import { sameJson } from '../format/json.js';
import { cutValue, moveToParts, tryPrepare, type Movable } from '../format/parts.js';
import { channelsOf, CHECKPOINT_KIND, keptRowPart, PART_KIND, writePayload, type StoredValue, type StoredWrite } from '../format/payloads.js';
import { checkpointRef, threadLockRef, writePartRef } from '../format/refs.js';
import { groupRows, type CheckpointEntry } from '../read/entries.js';
import type { TupleReader } from '../read/tuples.js';
import { isList, type Captured, type PutValues } from './capture.js';
import type { PutPlan } from './plan.js';
import { existingRefs, hasAdapterLock, lockThread, needsThreadLock } from './thread-lock.js';
import type { TaskRow } from './write-refs.js';

/*
 * The third step of a put: the rows. The common put is one statement (docs/decisions/0010): where
 * the adapter offers a conditional insert, the checkpoint row goes in only if every row it links to
 * is still there, checked under the thread's lock in the same atomic step. When the row needs
 * parts, or the insert does not happen (a linked row gone or re-created, the id taken), a
 * transaction decides instead: it checks each link, stores in full what it cannot link to, and
 * tells a repeated put of the same checkpoint from a conflict.
 */

/** The outcome of writing a checkpoint row: its SHA-256, or the other row of the same checkpoint (`taken`). */
export interface Written {
  inserted: boolean;
  sha: string;
  taken?: StoredRow;
}

/** Writes the planned checkpoint row (and its parts); `values` stores in full a value whose link is gone. */
export async function writeCheckpoint(store: CheckpointStore, namespace: string, plan: PutPlan, input: CreateCheckpointInput, values: PutValues): Promise<Written> {
  const once = await insertAtOnce(store, plan, input);
  if (once !== undefined) return { inserted: true, sha: once };
  const { thread, ns } = plan;
  return store.transaction(async (tx) => {
    const release = await lockThread(tx, namespace, thread);
    // What this row links to must exist now, inside the transaction that inserts it.
    const links = plan.links();
    const writeLinks = plan.writeLinks();
    if (links.size > 0 || writeLinks.size > 0) {
      const present = await existingRefs(tx, namespace, [...[...links.keys()].map((from) => checkpointRef(thread, ns, from)), ...writeLinks.keys()]);
      let changed = false;
      // A named pending-writes row gone or rewritten since: the piece holds its items (docs/decisions/0036).
      for (const [ref, { sha, channels }] of writeLinks) {
        if (present.get(ref) === sha) continue;
        for (const channel of channels) plan.holdItems(channel);
        changed = true;
      }
      for (const [from, needs] of links) {
        const sha = present.get(checkpointRef(thread, ns, from));
        for (const { channel, sha: wanted } of needs) {
          // Present, and for a list piece the very row it extends (not one re-created since).
          if (sha !== undefined && (wanted === undefined || wanted === sha)) continue;
          if (values.has(channel)) plan.store(channel, await values.of(channel), undefined);
          else plan.drop(channel);
          changed = true;
        }
      }
      if (changed) input.payload = plan.payload();
    }
    const { prepared, parts } = plan.prepare(tx, input, namespace);
    const stored = await insertOnce(tx, namespace, prepared);
    if (stored.inserted) for (const part of parts) await tx.insertPrepared(part);
    await release();
    return stored;
  });
}

/** The inserted row's SHA-256 when the put is done in one conditional insert, or `undefined` when it must take the transaction. */
async function insertAtOnce(store: CheckpointStore, plan: PutPlan, input: CreateCheckpointInput): Promise<string | undefined> {
  if (store.adapter.capabilities.conditionalInserts !== true) return undefined;
  // The statement's lock must be the one deleteThread and prune take: the adapter's, not a lock row.
  if (needsThreadLock(store) && !hasAdapterLock(store)) return undefined;
  const present: { sourceRef: string; payloadSha256?: string }[] = [];
  for (const [from, needs] of plan.links()) {
    const shas = new Set<string>();
    for (const need of needs) if (need.sha !== undefined) shas.add(need.sha);
    // Two list pieces naming one row with different hashes: no single check says which holds.
    if (shas.size > 1) return undefined;
    const [sha] = shas;
    const sourceRef = checkpointRef(plan.thread, plan.ns, from);
    present.push(sha === undefined ? { sourceRef } : { sourceRef, payloadSha256: sha });
  }
  // The pending-writes rows a piece names, each with the SHA-256 it names.
  for (const [sourceRef, { sha }] of plan.writeLinks()) present.push({ sourceRef, payloadSha256: sha });
  const prepared = plan.prepareWhole(store, input);
  if (prepared === undefined) return undefined;
  // A row that links to none has nothing a delete could break: no lock (docs/decisions/0012).
  const row = await store.insertPreparedIfPresent(prepared, present.length === 0 ? { present } : { present, lockKey: threadLockRef(plan.thread) });
  return row?.payloadSha256;
}

/**
 * Inserts the row; an identical row already there counts as done (`inserted: false`), another row
 * of the same checkpoint is returned as `taken` (its content is compared after the transaction).
 */
async function insertOnce(tx: CheckpointStore, namespace: string, prepared: PreparedCheckpoint): Promise<Written> {
  try {
    return { inserted: true, sha: (await tx.insertPrepared(prepared)).payloadSha256 };
  } catch (error) {
    if (!isCheckpointConflictError(error)) throw error;
    const existing = await tx.findBySourceRef(namespace, prepared.sourceRef ?? '');
    if (existing && existing.payloadSha256 === prepared.payloadSha256) return { inserted: false, sha: existing.payloadSha256 };
    if (existing && existing.kind === CHECKPOINT_KIND) return { inserted: false, sha: existing.payloadSha256, taken: existing };
    throw new CheckpointConflictError(`LangGraph checkpoint ${prepared.name} of thread '${prepared.sessionId}' already exists with other content`, {
      cause: error,
      ...(existing ? { ids: [existing.id] } : {}),
    });
  }
}

/**
 * A put of a checkpoint id that is already stored, laid out otherwise: a retry after a lost answer,
 * from this saver, a new one or another process. Its row depends on what its saver knows (the
 * parent's list in its cache, whether retention left the parent row), so row bytes tell nothing;
 * what counts is what a read rebuilds: the parent, the checkpoint and metadata, and every channel
 * value (JSON in any key order). Equal, the retry is done, as MemorySaver's overwrite with the same
 * content; different, a CheckpointConflictError names what differs first.
 */
export async function checkRepeat(reader: TupleReader, taken: StoredRow, plan: PutPlan, values: PutValues): Promise<void> {
  const [existing] = groupRows([taken]);
  const differs = existing === undefined ? 'the row' : await repeatDifference(reader, existing, plan, values);
  if (differs === undefined) return;
  throw new CheckpointConflictError(`LangGraph checkpoint ${taken.name} of thread '${plan.thread}' already exists with other content: ${differs} differs`, { ids: [taken.id] });
}

async function repeatDifference(reader: TupleReader, existing: CheckpointEntry, plan: PutPlan, values: PutValues): Promise<string | undefined> {
  const p = existing.checkpoint;
  const parent = plan.header?.parent ?? null;
  if (p.parent_checkpoint_id !== parent) return `the parent (stored ${String(p.parent_checkpoint_id)}, given ${String(parent)})`;
  if (!sameStored(p.checkpoint, values.checkpoint)) return 'the checkpoint (versions, timestamp or other fields)';
  if (!sameStored(p.metadata, values.metadata)) return 'the metadata';
  const stored = await reader.storedValues(existing);
  const given = channelsOf(plan.payload());
  for (const channel of [...new Set([...stored.keys(), ...given])].sort()) {
    const old = stored.get(channel);
    if (old === undefined || !given.includes(channel)) return `channel '${channel}' (${old === undefined ? 'not stored' : 'not given'})`;
    const now = await values.of(channel);
    if (!sameStored(old, isList(now) ? { t: now.t, j: now.items } : now.stored)) return `channel '${channel}'`;
  }
  return undefined;
}

/** Two stored values that load to the same value: same type tag, equal JSON (any key order) or bytes. */
function sameStored(a: StoredValue, b: StoredValue): boolean {
  if (a.t !== b.t) return false;
  if (a.b64 !== undefined || b.b64 !== undefined) return a.b64 === b.b64;
  return sameJson(a.j, b.j);
}

/** Adds `write` to a task's writes by idx: a regular write already there is kept, a special one (negative idx) replaced. */
export function mergeWrite(writes: StoredWrite[], write: StoredWrite): void {
  const at = writes.findIndex((w) => w.idx === write.idx);
  if (at < 0) writes.push(write);
  else if (write.idx < 0) writes[at] = write;
}

/**
 * Writes the pending-writes row of one task: one insert when the task has no row yet and its values
 * fit; else, in a transaction, merged into its row (regular writes kept, special ones replaced),
 * values too large moved into part rows. A row replaced by the merge is kept in a part row (see
 * {@link keepReplacedRow}). Returns the row that landed.
 */
export async function writeTaskRow(store: CheckpointStore, input: (writes: StoredWrite[]) => CreateCheckpointInput, writes: StoredWrite[], place: { namespace: string; thread: string; ns: string; id: string; taskId: string }): Promise<TaskRow> {
  const { namespace, thread, ns, id, taskId } = place;
  const target = { namespace, thread, ns, checkpointId: id, what: `pending writes of task ${taskId} on checkpoint ${id}` };
  /** The row of `list` (changed in place: values moved into parts), and its parts. */
  const fit = (tx: CheckpointStore, list: StoredWrite[]): { prepared: PreparedCheckpoint; parts: PreparedCheckpoint[]; list: StoredWrite[] } => {
    const row = input(list);
    const whole = tryPrepare(tx, row);
    if (whole !== undefined) return { prepared: whole, parts: [], list };
    const movable: Movable[] = [];
    list.forEach((w, i) => {
      if (w.value.parts === undefined) movable.push({ channel: w.channel, cut: cutValue(w.value), replace: (value) => (list[i] = { ...w, value }) });
    });
    // Part numbers unique across merges of one task's row: an earlier call's parts stay in use.
    const k0 = Math.floor(Math.random() * 2 ** 40) * 1024;
    const fitted = moveToParts(tx, row, movable, target, (k) => writePartRef(thread, ns, id, taskId, k), k0);
    if (fitted !== undefined) return { ...fitted, list };
    throw new CheckpointValidationError(
      `LangGraph ${target.what} do not fit in one row of the store's maxPayloadBytes (${tx.limits.maxPayloadBytes}) even with every value in part rows; ` +
        'raise the limit, e.g. openSqliteStore(path, { limits: { maxPayloadBytes } })',
    );
  };
  // A copy: parts replace writes in it, and those parts are only inserted when this first attempt is the row that lands.
  const landed = (row: StoredRow, fitted: { prepared: PreparedCheckpoint; list: StoredWrite[] }): TaskRow => ({ sha: row.payloadSha256, writes: fitted.list, bytes: fitted.prepared.payloadBytes });
  const first = fit(store, writes.slice());
  if (first.parts.length === 0) {
    try {
      return landed(await store.insertPrepared(first.prepared), first);
    } catch (error) {
      if (!isCheckpointConflictError(error)) throw error;
    }
  }
  return store.transaction(async (tx) => {
    const existing = await tx.findBySourceRef(namespace, first.prepared.sourceRef ?? '');
    const merged = existing ? [...writePayload(existing).writes] : [];
    for (const write of writes) mergeWrite(merged, write);
    if (existing) await tx.delete(existing.id, { namespace, apply: true, force: true });
    const fitted = existing ? fit(tx, merged) : first;
    for (const part of fitted.parts) await tx.insertPrepared(part);
    const row = await tx.insertPrepared(fitted.prepared);
    if (existing && existing.payloadSha256 !== row.payloadSha256) await keepReplacedRow(tx, existing, place);
    return landed(row, fitted);
  });
}

/**
 * Keeps a pending-writes row that a merge replaced, as the one item of a part row numbered by its
 * SHA-256 ({@link keptRowPart}): a list piece written before the merge may name that row by its
 * SHA-256 (docs/decisions/0036), and its regular writes, which a merge never changes, stay readable
 * through the copy. Only rows with a regular write are kept (no piece names another), and only when
 * the copy fits (the saver names only rows small enough for it). The copy goes with its checkpoint:
 * retention removes every part row under the checkpoint it prunes, and deleteThread and idle
 * expiry remove the thread's rows.
 */
async function keepReplacedRow(tx: CheckpointStore, old: StoredRow, place: { namespace: string; thread: string; ns: string; id: string; taskId: string }): Promise<void> {
  const w = writePayload(old);
  if (!w.writes.some((write) => write.idx >= 0)) return;
  const k = keptRowPart(old.payloadSha256);
  const payload = { langgraph: 3, thread_id: place.thread, checkpoint_ns: place.ns, checkpoint_id: place.id, channel: '', k, items: [old.payload] };
  const prepared = tryPrepare(tx, { namespace: place.namespace, sessionId: place.thread, kind: PART_KIND, name: `kept ${place.taskId}`, payload, sourceRef: writePartRef(place.thread, place.ns, place.id, place.taskId, k) });
  if (prepared === undefined) return;
  try {
    await tx.insertPrepared(prepared);
  } catch (error) {
    // Kept before (the row came back to an earlier content): that copy serves.
    if (!isCheckpointConflictError(error)) throw error;
  }
}
