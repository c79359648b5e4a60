import type { RunnableConfig } from '@langchain/core/runnables';
import {
  maxChannelVersion,
  TASKS,
  type Checkpoint,
  type CheckpointMetadata,
  type CheckpointPendingWrite,
  type CheckpointTuple,
  type DeltaChannelHistory,
  type SerializerProtocol,
} from '@langchain/langgraph-checkpoint';
import type { Checkpoint as StoredRow } from '@session-checkpoint/core';
import { setOwn } from '../format/json.js';
import { channelsOf, writePayload, type CheckpointPayload, type StoredValue, type WritePayload } from '../format/payloads.js';
import { checkpointRef } from '../format/refs.js';
import { isThenable, loadValueNow } from '../format/serde.js';
import { allRowsByPrefix, sortedWrites, storedWrite, writePartRows, type CheckpointEntry } from './entries.js';
import { ChannelRebuilder, rebuiltValues, storedValues, type KnownList, type RowInfo } from './rebuild.js';
import type { ParsedPayloads, RowReads } from './parsed-payloads.js';

/*
 * Turns verified rows into CheckpointTuples. A checkpoint's pending writes come from the same range
 * read as the checkpoint (their refs continue its ref); the checkpoint rows holding carried-over
 * values are read together, in one store call per batch (docs/decisions/0008).
 */

/**
 * Called with the list values a tuple handed out, so that the next put can extend them; `handedOut`
 * names the lists whose stored items went out as the caller's own objects (to be copied before
 * they are kept). The others' items went out revived or copied: no caller holds them.
 */
export type RememberLists = (p: CheckpointPayload, lists: Map<string, KnownList>, handedOut: ReadonlySet<string>) => void;

/** Stored values a stream remembers as free of revivable objects, at most, before it forgets them. */
const PLAIN_MEMO_MAX = 256;

const rowInfo = (e: CheckpointEntry): RowInfo => ({ p: e.checkpoint, sha: e.sha, rowId: e.rowId });

/** Builds tuples for checkpoints with their writes; the order is kept. */
export class TupleReader {
  constructor(
    private readonly store: RowReads,
    private readonly namespace: string,
    private readonly serde: SerializerProtocol,
    /** Where payloads `store` reads may be shared from: their JSON goes out as copies only. */
    private readonly memo?: ParsedPayloads,
  ) {}

  /** True when payload `p` serves other reads too (read/parsed-payloads.ts). */
  #shares(p: object): boolean {
    return this.memo?.shares(p) ?? false;
  }

  /** How the items of a message list are turned into text for `load`: kept with them when they are shared. */
  #textOf(shared: boolean): ((item: object) => string) | undefined {
    return shared && this.memo !== undefined ? (item) => (this.memo as ParsedPayloads).textOf(item) : undefined;
  }

  /** The tuple of `entry`; `remember` gets the list values it hands out. */
  async tuple(entry: CheckpointEntry, remember?: RememberLists): Promise<CheckpointTuple> {
    const rebuilder = new ChannelRebuilder(this.store, this.namespace, this.memo);
    await rebuilder.load(rowInfo(entry));
    return this.#tuple(entry, rebuilder, undefined, remember);
  }

  /**
   * The tuple of each entry (newest first, as `list` reads them) as soon as it is rebuilt: memory
   * holds the chains being read and one tuple, and rebuilding stops when the consumer does.
   */
  async *stream(entries: AsyncIterable<CheckpointEntry>): AsyncGenerator<CheckpointTuple> {
    const rebuilder = new ChannelRebuilder(this.store, this.namespace, this.memo);
    // Weak: values handed out are not kept alive by the walk. `plain` only saves walks of values
    // that several tuples share; cleared now and then so that it keeps no old row alive.
    const walk = { handedOut: new WeakSet<StoredValue>(), plain: new Set<StoredValue>() };
    for await (const entry of entries) {
      await rebuilder.load(rowInfo(entry));
      if (walk.plain.size > PLAIN_MEMO_MAX) walk.plain.clear();
      const tuple = await this.#tuple(entry, rebuilder, walk);
      rebuilder.release(entry.checkpoint);
      yield tuple;
    }
  }

  /** Loads a checkpoint payload's metadata (for `list` filters, before building whole tuples). */
  async metadata(payload: CheckpointPayload): Promise<CheckpointMetadata> {
    return (await loadValueNow(this.serde, payload.metadata, false)) as CheckpointMetadata;
  }

  /** The tuple of `entry`, its values rebuilt by `rebuilder`; `walk` holds what a walk's earlier tuples handed out. */
  async #tuple(entry: CheckpointEntry, rebuilder: ChannelRebuilder, walk?: { handedOut: WeakSet<StoredValue>; plain: Set<StoredValue> }, remember?: RememberLists): Promise<CheckpointTuple> {
    const { checkpoint: p, writes, rowId } = entry;
    const writeParts = await writePartRows(this.store, this.namespace, [entry]);
    const sharedRow = this.#shares(p);
    const loaded = loadValueNow(this.serde, p.checkpoint, !sharedRow);
    const loadedCheckpoint = (isThenable(loaded) ? await loaded : loaded) as Checkpoint;
    const channelValues: Record<string, unknown> = {};
    const lists = remember ? new Map<string, KnownList>() : undefined;
    const handedOut = new Set<string>();
    for (const channel of channelsOf(p)) {
      const rebuilt = rebuilder.value(p, channel, rowId);
      const stored = rebuilt.stored;
      // One tuple alone takes its values uncopied. In a walk the caller holds each tuple while later
      // ones are rebuilt from the same rows: only a value of the checkpoint's own row goes out
      // uncopied (that row is let go after it), and only once.
      // A value sharing objects with other reads (the memo's) goes out as a copy in any case.
      const fresh = !rebuilt.shared && (walk === undefined || (!walk.handedOut.has(stored) && stored === rebuilder.ownValue(p, channel)));
      walk?.handedOut.add(stored);
      // Plain JSON comes back synchronously: await only what the serializer revives.
      const value = loadValueNow(this.serde, stored, fresh, fresh ? undefined : walk?.plain, this.#textOf(rebuilt.shared));
      const v = isThenable(value) ? await value : value;
      setOwn(channelValues, channel, v);
      if (lists && rebuilt.state && Array.isArray(v) && Array.isArray(stored.j) && v.length === stored.j.length) {
        lists.set(channel, { ...rebuilt.state, stored: stored.j });
        // The stored items themselves went out when the value is the stored list (plain JSON, uncopied).
        if (v === stored.j) handedOut.add(channel);
      }
    }
    if (remember && lists) remember(p, lists, handedOut);
    // A copy: the loaded object may be the row's own (uncopied), and a row kept by a page of a
    // walk must not hold every tuple's values (that kept a page of whole states alive).
    const checkpoint = { ...loadedCheckpoint, channel_values: channelValues };
    const pendingWrites = await this.#pendingWrites(p, writes, writeParts);
    if (checkpoint.v < 4 && p.parent_checkpoint_id !== null) await this.#migratePendingSends(checkpoint, p);
    const configurable = { thread_id: p.thread_id, checkpoint_ns: p.checkpoint_ns };
    const tuple: CheckpointTuple = {
      config: { configurable: { ...configurable, checkpoint_id: p.checkpoint_id } },
      checkpoint,
      metadata: (await loadValueNow(this.serde, p.metadata, !sharedRow)) as CheckpointMetadata,
      pendingWrites,
    };
    if (p.parent_checkpoint_id !== null) {
      tuple.parentConfig = { configurable: { ...configurable, checkpoint_id: p.parent_checkpoint_id } } satisfies RunnableConfig;
    }
    return tuple;
  }

  async #pendingWrites(p: CheckpointPayload, writes: readonly WritePayload[], writeParts: Map<string, StoredRow>, only?: ReadonlySet<string>): Promise<CheckpointPendingWrite[]> {
    const out: CheckpointPendingWrite[] = [];
    for (const { task, write } of sortedWrites(writes)) {
      if (only !== undefined && !only.has(write.channel)) continue;
      // Joined from parts, a value may hold part rows' objects: copied like a shared one.
      const shared = this.#shares(task);
      const value = loadValueNow(this.serde, storedWrite(p, task, write, writeParts), !shared && write.value.parts === undefined, undefined, this.#textOf(shared && write.value.parts === undefined));
      out.push([task.task_id, write.channel, isThenable(value) ? await value : value]);
    }
    return out;
  }

  /**
   * getDeltaChannelHistory: seeds and writes of `channels` over the ancestors of `target`, the same
   * result as the base class (per channel, the writes since the newest ancestor holding a value, its
   * seed, oldest first), from one descending range read of the thread (`ancestors`) instead of a
   * verified getTuple per ancestor; checkpoints off the target's parent chain are skipped.
   */
  async deltaHistory(target: CheckpointEntry, ancestors: AsyncIterable<CheckpointEntry>, channels: readonly string[]): Promise<Record<string, DeltaChannelHistory>> {
    const collected = new Map<string, CheckpointPendingWrite[]>(channels.map((ch) => [ch, []]));
    const seeds = new Map<string, unknown>();
    const remaining = new Set(channels);
    let next = target.checkpoint.parent_checkpoint_id;
    for await (const entry of ancestors) {
      if (next === null || remaining.size === 0) break;
      if (entry.checkpoint.checkpoint_id !== next) continue;
      const writes = await this.#pendingWrites(entry.checkpoint, entry.writes, await writePartRows(this.store, this.namespace, [entry]), remaining);
      // Newest first across checkpoints; reversed at the end, so each block goes in reversed.
      for (let i = writes.length - 1; i >= 0; i--) {
        const w = writes[i] as CheckpointPendingWrite;
        collected.get(w[1])?.push(w);
      }
      await this.#seeds(entry, remaining, seeds);
      next = entry.checkpoint.parent_checkpoint_id;
      if (next === null || remaining.size === 0) break;
    }
    return deltaHistoryOf(channels, collected, seeds);
  }

  /**
   * Sets in `seeds` the value `entry` holds of each channel in `remaining`, and takes those
   * channels out of it. A function of its own, not part of `deltaHistory`'s loop: most ancestors
   * hold no value, so the first one that does would find the loop's optimised code without type
   * feedback there and throw it away to compile it again (docs/decisions/0054).
   */
  async #seeds(entry: CheckpointEntry, remaining: Set<string>, seeds: Map<string, unknown>): Promise<void> {
    for (const [ch, rebuilt] of await rebuiltValues(this.store, this.namespace, rowInfo(entry), new Set(remaining), this.memo)) {
      const value = await loadValueNow(this.serde, rebuilt.stored, !rebuilt.shared, undefined, this.#textOf(rebuilt.shared));
      if (value === undefined) continue; // as MemorySaver: an undefined value seeds nothing
      seeds.set(ch, value);
      remaining.delete(ch);
    }
  }

  /** Every channel value of `entry` as stored, not revived: what a repeated put compares with (write/rows.ts). */
  storedValues(entry: CheckpointEntry): Promise<Map<string, StoredValue>> {
    return storedValues(this.store, this.namespace, rowInfo(entry));
  }

  /** Checkpoints before v4 kept pending sends in the parent's TASKS writes; move them into channel_values. */
  async #migratePendingSends(checkpoint: Checkpoint, p: CheckpointPayload): Promise<void> {
    const parent = checkpointRef(p.thread_id, p.checkpoint_ns, p.parent_checkpoint_id ?? '');
    const rows = await allRowsByPrefix(this.store, { namespace: this.namespace, prefix: `${parent}/` });
    const sends = sortedWrites(rows.map(writePayload)).filter(({ write }) => write.channel === TASKS);
    checkpoint.channel_values[TASKS] = await Promise.all(sends.map(({ write }) => loadValueNow(this.serde, write.value, false)));
    const versions = Object.values(checkpoint.channel_versions);
    checkpoint.channel_versions[TASKS] = versions.length > 0 ? maxChannelVersion(...versions) : 1;
  }
}

/** The result shape: per channel its writes oldest first, and its seed when one was found. */
export function deltaHistoryOf(
  channels: readonly string[],
  collected = new Map<string, CheckpointPendingWrite[]>(),
  seeds = new Map<string, unknown>(),
): Record<string, DeltaChannelHistory> {
  const out: Record<string, DeltaChannelHistory> = {};
  for (const ch of channels) {
    const entry: DeltaChannelHistory = { writes: (collected.get(ch) ?? []).slice().reverse() };
    if (seeds.has(ch)) entry.seed = seeds.get(ch);
    setOwn(out, ch, entry);
  }
  return out;
}
