import type { RunnableConfig } from '@langchain/core/runnables';
import {
  compareWritesSortKeys,
  maxChannelVersion,
  TASKS,
  writesSortKey,
  type Checkpoint,
  type CheckpointMetadata,
  type CheckpointPendingWrite,
  type CheckpointTuple,
  type SerializerProtocol,
} from '@langchain/langgraph-checkpoint';
import { CheckpointNotFoundError, type Checkpoint as StoredRow, type CheckpointStore } from '@session-checkpoint/core';
import { checkpointPayload, isCheckpointRow, writePayload, type CheckpointPayload, type WritePayload } from './row-payloads.js';
import { own, setOwn } from './own-keys.js';
import { checkpointRef } from './source-refs.js';
import { isThenable, loadValue, loadValueNow, type StoredValue } from './stored-value.js';
import { allRowsByPrefix } from './thread-rows.js';

/*
 * Turns verified rows into CheckpointTuples. A checkpoint's pending writes come from the same range
 * read as the checkpoint (their refs continue its ref); the checkpoint rows holding carried-over
 * values are read together, in one store call per batch.
 */

/** Key of a checkpoint across threads and namespaces. */
export const keyOf = (p: { thread_id: string; checkpoint_ns: string; checkpoint_id: string }) =>
  `${p.thread_id}\u0000${p.checkpoint_ns}\u0000${p.checkpoint_id}`;

/** Key of another checkpoint (`id`) in the same thread and namespace as `p`. */
const siblingKey = (p: { thread_id: string; checkpoint_ns: string }, id: string) => `${p.thread_id}\u0000${p.checkpoint_ns}\u0000${id}`;

/** A checkpoint payload with the write payloads of its tasks. */
export interface CheckpointEntry {
  checkpoint: CheckpointPayload;
  writes: WritePayload[];
}

/**
 * Splits verified rows of a range read into checkpoints and the writes found for each, keeping
 * the order of the checkpoints. Writes of checkpoints not among `rows` are returned in `orphans`.
 */
export function groupRows(rows: readonly StoredRow[], orphans = new Map<string, WritePayload[]>()): CheckpointEntry[] {
  const entries: CheckpointEntry[] = [];
  for (const row of rows) {
    if (isCheckpointRow(row)) entries.push({ checkpoint: checkpointPayload(row), writes: [] });
    else {
      const w = writePayload(row);
      const k = keyOf(w);
      const list = orphans.get(k);
      if (list) list.push(w);
      else orphans.set(k, [w]);
    }
  }
  for (const entry of entries) {
    const k = keyOf(entry.checkpoint);
    entry.writes = orphans.get(k) ?? [];
    orphans.delete(k);
  }
  return entries;
}

/** Pending writes of task rows, flattened in LangGraph's `writesSortKey` order. */
export function sortedWrites(rows: readonly WritePayload[]): { task: WritePayload; write: WritePayload['writes'][number] }[] {
  return rows
    .flatMap((task) => task.writes.map((write) => ({ task, write, key: writesSortKey(task.task_path, task.task_id, write.idx) })))
    .sort((a, b) => compareWritesSortKeys(a.key, b.key));
}

/** Builds tuples for checkpoints with their writes; the order is kept. */
export class TupleReader {
  constructor(
    private readonly store: CheckpointStore,
    private readonly namespace: string,
    private readonly serde: SerializerProtocol,
  ) {}

  /** The tuples of these entries, in the same order. */
  async tuples(entries: readonly CheckpointEntry[]): Promise<CheckpointTuple[]> {
    const holders = await this.#holders(entries.map((e) => e.checkpoint));
    const handedOut = new Set<StoredValue>();
    const plain = new Set<StoredValue>();
    return Promise.all(entries.map((e) => this.#tuple(e, holders, handedOut, plain)));
  }

  /** Loads a checkpoint payload's metadata (for `list` filters, before building whole tuples). */
  async metadata(payload: CheckpointPayload): Promise<CheckpointMetadata> {
    return (await loadValue(this.serde, payload.metadata, false)) as CheckpointMetadata;
  }

  async #tuple(
    { checkpoint: p, writes }: CheckpointEntry,
    holders: Map<string, CheckpointPayload>,
    handedOut: Set<StoredValue>,
    plain: Set<StoredValue>,
  ): Promise<CheckpointTuple> {
    const loaded = loadValueNow(this.serde, p.checkpoint);
    const checkpoint = (isThenable(loaded) ? await loaded : loaded) as Checkpoint;
    const channelValues: Record<string, unknown> = {};
    // A value read from a row may serve several tuples of a batch: only its first use gets it uncopied.
    const use = (stored: StoredValue) => {
      const fresh = !handedOut.has(stored);
      handedOut.add(stored);
      // Only a value met again (a carried one) is worth remembering as plain.
      return loadValueNow(this.serde, stored, fresh, fresh ? undefined : plain);
    };
    // Plain JSON comes back synchronously: await only what the serializer revives.
    for (const [channel, stored] of Object.entries(p.values)) {
      const value = use(stored);
      setOwn(channelValues, channel, isThenable(value) ? await value : value);
    }
    for (const [channel, holderId] of Object.entries(p.carried)) {
      const value = use(this.#carriedValue(p, holders, channel, holderId));
      setOwn(channelValues, channel, isThenable(value) ? await value : value);
    }
    checkpoint.channel_values = channelValues;
    const pendingWrites: CheckpointPendingWrite[] = [];
    for (const { task, write } of sortedWrites(writes)) {
      const value = loadValueNow(this.serde, write.value);
      pendingWrites.push([task.task_id, write.channel, isThenable(value) ? await value : value]);
    }
    if (checkpoint.v < 4 && p.parent_checkpoint_id !== null) await this.#migratePendingSends(checkpoint, p);
    const configurable = { thread_id: p.thread_id, checkpoint_ns: p.checkpoint_ns };
    const tuple: CheckpointTuple = {
      config: { configurable: { ...configurable, checkpoint_id: p.checkpoint_id } },
      checkpoint,
      metadata: (await loadValue(this.serde, p.metadata)) as CheckpointMetadata,
      pendingWrites,
    };
    if (p.parent_checkpoint_id !== null) {
      tuple.parentConfig = { configurable: { ...configurable, checkpoint_id: p.parent_checkpoint_id } } satisfies RunnableConfig;
    }
    return tuple;
  }

  #carriedValue(p: CheckpointPayload, holders: Map<string, CheckpointPayload>, channel: string, holderId: string): StoredValue {
    const stored = own(holders.get(siblingKey(p, holderId))?.values, channel);
    if (stored === undefined) {
      throw new CheckpointNotFoundError(
        `checkpoint ${p.checkpoint_id} of thread '${p.thread_id}' carries channel '${channel}' from checkpoint ${holderId}, which is missing`,
      );
    }
    return stored;
  }

  /** The rows holding carried-over values that are not in the batch itself, read together. */
  async #holders(payloads: CheckpointPayload[]): Promise<Map<string, CheckpointPayload>> {
    const found = new Map<string, CheckpointPayload>();
    for (const p of payloads) found.set(keyOf(p), p);
    const wanted = new Map<string, { thread_id: string; checkpoint_ns: string; checkpoint_id: string }>();
    for (const p of payloads) {
      for (const holderId of Object.values(p.carried)) {
        const k = siblingKey(p, holderId);
        if (!found.has(k) && !wanted.has(k)) wanted.set(k, { thread_id: p.thread_id, checkpoint_ns: p.checkpoint_ns, checkpoint_id: holderId });
      }
    }
    if (wanted.size === 0) return found;
    // Every holder row in one store call (one query on the Kysely adapter), each verified.
    const keyByRef = new Map<string, string>();
    for (const [k, p] of wanted) keyByRef.set(checkpointRef(p.thread_id, p.checkpoint_ns, p.checkpoint_id), k);
    for (const row of await this.store.findBySourceRefs(this.namespace, [...keyByRef.keys()])) {
      const k = row.sourceRef === null ? undefined : keyByRef.get(row.sourceRef);
      if (k !== undefined) found.set(k, checkpointPayload(row));
    }
    return found;
  }

  /** Checkpoints before v4 kept pending sends in the parent's TASKS writes; move them into channel_values. */
  async #migratePendingSends(checkpoint: Checkpoint, p: CheckpointPayload): Promise<void> {
    const parent = checkpointRef(p.thread_id, p.checkpoint_ns, p.parent_checkpoint_id ?? '');
    const rows = await allRowsByPrefix(this.store, { namespace: this.namespace, prefix: `${parent}/` });
    const sends = sortedWrites(rows.map(writePayload)).filter(({ write }) => write.channel === TASKS);
    checkpoint.channel_values[TASKS] = await Promise.all(sends.map(({ write }) => loadValue(this.serde, write.value)));
    const versions = Object.values(checkpoint.channel_versions);
    checkpoint.channel_versions[TASKS] = versions.length > 0 ? maxChannelVersion(...versions) : 1;
  }
}
