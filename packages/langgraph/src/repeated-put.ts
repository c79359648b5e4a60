import type { StoredValue } from './stored-value.js';
import type { CheckpointEntry, TupleReader } from './tuple-reader.js';
import { sameJson } from './same-json.js';
import { isList, type Captured } from './value-capture.js';

/*
 * A put of a checkpoint id that is already stored: a retry after a lost answer, from this saver,
 * a new one or another process. The row the retry builds depends on what its saver knows (the
 * parent's list state in its cache, whether the parent row is still there after retention), so
 * the same checkpoint may be laid out otherwise (a list in full instead of its appended items, a
 * value in full instead of a link): row bytes tell nothing. What counts is what a read rebuilds:
 * the parent, the checkpoint and metadata, and every channel value. Equal, the retry is done (as
 * MemorySaver, which overwrites with the same content); different, it is a conflict, named.
 */

/**
 * What the retry would store: its header and changed values as captured at its call; a value it
 * did not read (unchanged, linked to the row holding it) is read when compared.
 */
export interface IncomingCheckpoint {
  parent: string | null;
  /** The checkpoint without its channel values, as stored. */
  checkpoint: StoredValue;
  metadata: StoredValue;
  /** Every channel the row would hold (its own, a list piece or a link), with its value. */
  channels: ReadonlyMap<string, () => Promise<Captured>>;
}

/**
 * `undefined` when the stored checkpoint `existing` rebuilds to the content of `incoming`, else
 * what differs first, for the conflict's message (e.g. `"channel 'messages'"`).
 *
 * @example
 * ```ts
 * await repeatDifference(reader, entry, incoming); // undefined: the retry is a no-op
 * ```
 */
export async function repeatDifference(reader: TupleReader, existing: CheckpointEntry, incoming: IncomingCheckpoint): Promise<string | undefined> {
  const p = existing.checkpoint;
  if (p.parent_checkpoint_id !== incoming.parent) return `the parent (stored ${String(p.parent_checkpoint_id)}, given ${String(incoming.parent)})`;
  if (!sameStored(p.checkpoint, incoming.checkpoint)) return 'the checkpoint (versions, timestamp or other fields)';
  if (!sameStored(p.metadata, incoming.metadata)) return 'the metadata';
  const stored = await reader.storedValues(existing);
  const names = new Set([...stored.keys(), ...incoming.channels.keys()]);
  for (const channel of [...names].sort()) {
    const old = stored.get(channel);
    const capture = incoming.channels.get(channel);
    if (old === undefined || capture === undefined) return `channel '${channel}' (${old === undefined ? 'not stored' : 'not given'})`;
    if (!sameStored(old, storedOf(await capture()))) return `channel '${channel}'`;
  }
  return undefined;
}

/** A captured value as the stored value it rebuilds to. */
function storedOf(captured: Captured): StoredValue {
  return isList(captured) ? { t: captured.t, j: captured.items } : captured.stored;
}

/** Two stored values that load to the same value: same type tag, equal JSON (any key order) or bytes. */
function sameStored(a: StoredValue, b: StoredValue): boolean {
  if (a.t !== b.t) return false;
  if (a.b64 !== undefined || b.b64 !== undefined) return a.b64 === b.b64;
  return sameJson(a.j, b.j);
}
