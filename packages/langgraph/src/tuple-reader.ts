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
import { checkpointIdPart, checkpointRef, writePrefix } from './source-refs.js';
import { checkpointPayload, writePayload, type CheckpointPayload, type WritePayload } from './row-payloads.js';
import { loadValue, type StoredValue } from './stored-value.js';
import { allRowsByPrefix } from './thread-rows.js';

/*
 * Turns verified checkpoint rows into CheckpointTuples in batches: the pending writes of a batch
 * come from one range query per (thread, namespace), and each checkpoint row holding carried-over
 * values is read once for the whole batch.
 */

const key = (thread: string, ns: string, id: string) => `${thread}\u0000${ns}\u0000${id}`;

/** Builds tuples for rows of checkpoints; the order of `rows` is kept. */
export class TupleReader {
  constructor(
    private readonly store: CheckpointStore,
    private readonly namespace: string,
    private readonly serde: SerializerProtocol,
  ) {}

  /** The tuples of these checkpoint rows, in the same order. */
  async tuples(rows: readonly StoredRow[]): Promise<CheckpointTuple[]> {
    const payloads = rows.map(checkpointPayload);
    const writes = await this.#writesOf(payloads);
    const holders = await this.#holders(payloads);
    return Promise.all(payloads.map((p) => this.#tuple(p, writes, holders)));
  }

  /** Loads a checkpoint payload's metadata (for `list` filters, before building whole tuples). */
  async metadata(payload: CheckpointPayload): Promise<CheckpointMetadata> {
    return (await loadValue(this.serde, payload.metadata)) as CheckpointMetadata;
  }

  async #tuple(p: CheckpointPayload, writes: Map<string, WritePayload[]>, holders: Map<string, CheckpointPayload>): Promise<CheckpointTuple> {
    const checkpoint = (await loadValue(this.serde, p.checkpoint)) as Checkpoint;
    const channelValues: Record<string, unknown> = {};
    for (const [channel, stored] of Object.entries(p.values)) channelValues[channel] = await loadValue(this.serde, stored);
    for (const [channel, holderId] of Object.entries(p.carried)) {
      const stored = this.#carriedValue(p, holders, channel, holderId);
      channelValues[channel] = await loadValue(this.serde, stored);
    }
    checkpoint.channel_values = channelValues;
    const own = writes.get(key(p.thread_id, p.checkpoint_ns, p.checkpoint_id)) ?? [];
    const pendingWrites: CheckpointPendingWrite[] = [];
    for (const w of own) pendingWrites.push([w.task_id, w.channel, await loadValue(this.serde, w.value)]);
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
    const stored = holders.get(key(p.thread_id, p.checkpoint_ns, holderId))?.values[channel];
    if (stored === undefined) {
      throw new CheckpointNotFoundError(
        `checkpoint ${p.checkpoint_id} of thread '${p.thread_id}' carries channel '${channel}' from checkpoint ${holderId}, which is missing`,
      );
    }
    return stored;
  }

  /** The rows holding carried-over values that are not in the batch itself, one read each. */
  async #holders(payloads: CheckpointPayload[]): Promise<Map<string, CheckpointPayload>> {
    const found = new Map<string, CheckpointPayload>();
    for (const p of payloads) found.set(key(p.thread_id, p.checkpoint_ns, p.checkpoint_id), p);
    const wanted = new Map<string, [string, string, string]>();
    for (const p of payloads) {
      for (const holderId of Object.values(p.carried)) {
        const k = key(p.thread_id, p.checkpoint_ns, holderId);
        if (!found.has(k)) wanted.set(k, [p.thread_id, p.checkpoint_ns, holderId]);
      }
    }
    await Promise.all(
      [...wanted].map(async ([k, [thread, ns, id]]) => {
        const row = await this.store.findBySourceRef(this.namespace, checkpointRef(thread, ns, id));
        if (row) found.set(k, checkpointPayload(row));
      }),
    );
    return found;
  }

  /** Pending writes of every checkpoint of the batch, sorted as LangGraph requires. */
  async #writesOf(payloads: CheckpointPayload[]): Promise<Map<string, WritePayload[]>> {
    const groups = new Map<string, { thread: string; ns: string; ids: string[] }>();
    for (const p of payloads) {
      const g = key(p.thread_id, p.checkpoint_ns, '');
      const group = groups.get(g) ?? { thread: p.thread_id, ns: p.checkpoint_ns, ids: [] };
      group.ids.push(checkpointIdPart(p.checkpoint_id));
      groups.set(g, group);
    }
    const out = new Map<string, WritePayload[]>();
    await Promise.all(
      [...groups.values()].map(async ({ thread, ns, ids }) => {
        const prefix = writePrefix(thread, ns);
        // One range from the lowest to the highest checkpoint id of the group ("0" follows "/").
        ids.sort();
        const rows = await allRowsByPrefix(this.store, {
          namespace: this.namespace,
          prefix,
          after: `${prefix}${ids[0]}`,
          before: `${prefix}${ids[ids.length - 1]}0`,
        });
        for (const row of rows) {
          const w = writePayload(row);
          const k = key(thread, ns, w.checkpoint_id);
          const list = out.get(k);
          if (list) list.push(w);
          else out.set(k, [w]);
        }
      }),
    );
    for (const list of out.values()) {
      list.sort((a, b) => compareWritesSortKeys(writesSortKey(a.task_path, a.task_id, a.idx), writesSortKey(b.task_path, b.task_id, b.idx)));
    }
    return out;
  }

  /** Checkpoints before v4 kept pending sends in the parent's TASKS writes; move them into channel_values. */
  async #migratePendingSends(checkpoint: Checkpoint, p: CheckpointPayload): Promise<void> {
    const parentId = p.parent_checkpoint_id ?? '';
    const rows = await allRowsByPrefix(this.store, { namespace: this.namespace, prefix: writePrefix(p.thread_id, p.checkpoint_ns, parentId) });
    const sends = rows
      .map(writePayload)
      .filter((w) => w.channel === TASKS)
      .sort((a, b) => compareWritesSortKeys(writesSortKey(a.task_path, a.task_id, a.idx), writesSortKey(b.task_path, b.task_id, b.idx)));
    const values = await Promise.all(sends.map((w) => loadValue(this.serde, w.value)));
    checkpoint.channel_values[TASKS] = values;
    const versions = Object.values(checkpoint.channel_versions);
    checkpoint.channel_versions[TASKS] = versions.length > 0 ? maxChannelVersion(...versions) : 1;
  }
}
