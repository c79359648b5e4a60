import type { RunnableConfig } from '@langchain/core/runnables';
import {
  BaseCheckpointSaver,
  WRITES_IDX_MAP,
  type ChannelVersions,
  type Checkpoint,
  type CheckpointListOptions,
  type CheckpointMetadata,
  type CheckpointTuple,
  type DeltaChannelHistory,
  type PendingWrite,
  type SerializerProtocol,
} from '@langchain/langgraph-checkpoint';
import {
  CheckpointConflictError,
  CheckpointValidationError,
  isCheckpointConflictError,
  type Checkpoint as StoredRow,
  type CheckpointStore,
  type CreateCheckpointInput,
  type PreparedCheckpoint,
} from '@session-checkpoint/core';
import { TwoGenerationCache } from '@session-checkpoint/core/internal';
import { optionalText, requireText, threadArgument } from './config-fields.js';
import { deltaHistory, deltaHistoryOf } from './delta-history.js';
import { ListStates } from './list-state.js';
import { putAtOnce } from './put-at-once.js';
import { PutPlan } from './put-plan.js';
import { repeatDifference } from './repeated-put.js';
import { sameJson } from './same-json.js';
import { existingRefs, lockThread } from './thread-lock.js';
import { own } from './own-keys.js';
import { displayName } from './row-name.js';
import { checkpointStore } from './store-argument.js';
import { checkpointBound, checkpointPrefix, checkpointRef, writePartRef, writeRef, writesBeyondBound } from './source-refs.js';
import { fitRow } from './write-parts.js';
import { captureValue, type Captured } from './value-capture.js';
import { CHECKPOINT_KIND, checkpointPayload, WRITE_KIND, writePayload, type CheckpointPayload, type StoredWrite, type WritePayload } from './row-payloads.js';
import { pruneThreads, type PruneReport, type SaverPruneOptions } from './retention.js';
import { loadValue, storeValue, type StoredValue } from './stored-value.js';
import { allRowsByPrefix, PAGE_SIZE, rowsByPrefix } from './thread-rows.js';
import { jsonSizeWithin } from './json-size.js';
import { entryAt, groupRows, newestEntries, type CheckpointEntry } from './checkpoint-entries.js';
import { keyOf, TupleReader } from './tuple-reader.js';

/** Options of {@link SessionCheckpointSaver}. */
export interface SessionCheckpointSaverOptions {
  /** Store namespace that holds the LangGraph rows. Default is `"langgraph"`. */
  namespace?: string;
  /** Serializer of values. Default is LangGraph's `JsonPlusSerializer`. */
  serde?: SerializerProtocol;
  /**
   * Retention: keep at most this many checkpoints per (thread, checkpoint_ns), pruning after every
   * `ceil(max / 4)`-th put of this saver there (so a thread may hold up to that many more in
   * between), never dropping the newest one, one awaiting an interrupt's resume, or one whose
   * values a kept checkpoint still reads (see {@link SessionCheckpointSaver.prune}); a list chain
   * is cut by a snapshot every `max` pieces, so at most about `max` more are kept back for it.
   * Default is unlimited.
   */
  maxCheckpointsPerThread?: number;
  /**
   * The snapshot rule of list channels stored incrementally. A list whose new value extends the
   * parent's is stored as the appended items only, until the items appended since its last full
   * copy (the snapshot) exceed `snapshotRatio` times the size of that copy (counted as at least
   * 16 KiB); then it is stored in full again. So the bytes stored for a growing list stay within
   * about `2 + 1 / snapshotRatio` times its final size, and a read fetches each item once (the
   * snapshot and the pieces since it) in at most one row per put since the snapshot. A larger
   * ratio stores fewer full copies and reads more, smaller rows. `0` stores every changed value in
   * full. Default is `4` (2.25x the list at most; see docs/langgraph.md for how it was chosen).
   *
   * @example
   * ```ts
   * new SessionCheckpointSaver(store, { snapshotRatio: 8 }); // fewer full copies, more rows per read
   * ```
   */
  snapshotRatio?: number;
  /**
   * When a checkpoint's unchanged values (a profile, a plan, a counter) are all plain JSON of at
   * most about this many bytes together, and its changed values link to no earlier row, its row
   * repeats them instead of linking to the rows that hold them: it then holds every value it
   * needs, and `getTuple` reads it in one statement instead of two. Otherwise each unchanged value
   * is linked (repeating some would save no statement). `0` always links. Default is `4096` (one
   * SQLite page).
   *
   * @example
   * ```ts
   * new SessionCheckpointSaver(store, { inlineCarriedBytes: 0 }); // store each value once, link it
   * ```
   */
  inlineCarriedBytes?: number;
  /**
   * Memory for the list values the next put may extend (see `snapshotRatio`): the saver keeps the
   * JSON of the lists of up to 256 recently put or read checkpoints, and at most this many bytes
   * of them, counted as serialized JSON (successive checkpoints of a chat share most items, so
   * the memory held is usually well below it). A checkpoint whose lists are over half of it is not
   * kept: its next put stores them in full (a new snapshot; bytes in the store, never a wrong
   * value). `0` keeps none. Default is 64 MiB (`67108864`): about a dozen states of a 300-turn,
   * 5 MB chat, whose next put needs only its parent's.
   *
   * @example
   * ```ts
   * new SessionCheckpointSaver(store, { listCacheBytes: 256 * 1024 * 1024 }); // many long chats at once
   * ```
   */
  listCacheBytes?: number;
}

/** Default of {@link SessionCheckpointSaverOptions.snapshotRatio}. */
const DEFAULT_SNAPSHOT_RATIO = 4;
/** Default of {@link SessionCheckpointSaverOptions.inlineCarriedBytes}. */
const DEFAULT_INLINE_CARRIED_BYTES = 4096;
/** Default of {@link SessionCheckpointSaverOptions.listCacheBytes}. */
const DEFAULT_LIST_CACHE_BYTES = 64 * 1024 * 1024;

interface Configurable {
  thread_id?: unknown;
  checkpoint_ns?: unknown;
  checkpoint_id?: unknown;
}

/** Where each channel value of a checkpoint lives: the input of the next put's carried map. */
interface Holders {
  versions: ChannelVersions;
  holder: Record<string, string>;
}

const HOLDER_CACHE_MAX = 1024;
/** List states kept: one per recently put or read checkpoint (each holds its items' JSON, never the caller's objects). */
const LIST_CACHE_MAX = 256;
/**
 * Checkpoints of the first page a delta history reads (pages then double, so that the rows read
 * past the walk's end stay within about the rows it needs): the walk stops at the newest ancestor
 * holding each channel's value, often a few dozen checkpoints back, and every row a page reads is
 * verified, so a first page of the whole thread would verify rows older than the walk needs.
 */
const DELTA_HISTORY_HINT = 16;
/** Checkpoints of the first page of a `list` without `limit`; pages then grow 4x up to PAGE_SIZE rows. */
const FIRST_WALK_PAGE = 16;

/**
 * A LangGraph.js checkpointer over a session-checkpoint {@link CheckpointStore}, so it runs on
 * every backend (MemoryAdapter, SQLite, PostgreSQL, custom adapters). Every LangGraph checkpoint
 * and pending write is an ordinary verified row: a tampered value fails closed with
 * `CheckpointIntegrityError`, and `verify`, the CLI and bundles see LangGraph data. Channel values
 * are stored only when they change (small unchanged ones may be repeated, see
 * {@link SessionCheckpointSaverOptions.inlineCarriedBytes}).
 *
 * @example
 * ```ts
 * const saver = new SessionCheckpointSaver(await openSqliteStore('agent.db'));
 * const graph = builder.compile({ checkpointer: saver });
 * await graph.invoke(input, { configurable: { thread_id: 't-1' } });
 * ```
 */
export class SessionCheckpointSaver extends BaseCheckpointSaver {
  /** The store the rows go to. */
  readonly store: CheckpointStore;
  /** Store namespace of the LangGraph rows. */
  readonly namespace: string;
  /** Retention cap per (thread, checkpoint_ns); `undefined` keeps everything. */
  readonly maxCheckpointsPerThread: number | undefined;
  readonly #reader: TupleReader;
  /** Holder maps of recently put checkpoints: the parent of the next put is almost always here. */
  readonly #holderCache = new TwoGenerationCache<string, Holders>(HOLDER_CACHE_MAX);
  /** List values last stored or handed out per checkpoint: what the next put may extend. */
  readonly #lists: ListStates;
  /** Puts per (thread, namespace) since this saver last pruned it (maxCheckpointsPerThread). */
  readonly #putsSincePrune = new TwoGenerationCache<string, number>(HOLDER_CACHE_MAX);
  /** The snapshot rule's ratio (see the option). */
  readonly snapshotRatio: number;
  /** Bytes of unchanged values a row repeats rather than links (see the option). */
  readonly inlineCarriedBytes: number;

  /**
   * The list states kept for the next puts now: checkpoints and their weight (serialized bytes,
   * each checkpoint counted as at least listCacheBytes / 256), for tests and diagnostics.
   *
   * @example
   * ```ts
   * saver.listCacheUse; // { checkpoints: 3, weight: 786432 }
   * ```
   */
  get listCacheUse(): { checkpoints: number; weight: number } {
    return { checkpoints: this.#lists.size, weight: this.#lists.weight };
  }

  constructor(store: CheckpointStore, options: SessionCheckpointSaverOptions = {}) {
    super(options.serde);
    this.store = checkpointStore(store);
    this.namespace = options.namespace ?? 'langgraph';
    const max = options.maxCheckpointsPerThread;
    if (max !== undefined && (!Number.isSafeInteger(max) || max < 1)) {
      throw new CheckpointValidationError('maxCheckpointsPerThread must be a positive integer');
    }
    this.maxCheckpointsPerThread = max;
    const ratio = options.snapshotRatio ?? DEFAULT_SNAPSHOT_RATIO;
    if (typeof ratio !== 'number' || !Number.isFinite(ratio) || ratio < 0) throw new CheckpointValidationError('snapshotRatio must be a finite number >= 0');
    this.snapshotRatio = ratio;
    const inline = options.inlineCarriedBytes ?? DEFAULT_INLINE_CARRIED_BYTES;
    if (!Number.isSafeInteger(inline) || inline < 0) throw new CheckpointValidationError('inlineCarriedBytes must be an integer >= 0');
    this.inlineCarriedBytes = inline;
    const listBytes = options.listCacheBytes ?? DEFAULT_LIST_CACHE_BYTES;
    if (!Number.isSafeInteger(listBytes) || listBytes < 0) throw new CheckpointValidationError('listCacheBytes must be an integer >= 0');
    this.#lists = new ListStates(LIST_CACHE_MAX, listBytes);
    this.#reader = new TupleReader(store, this.namespace, this.serde);
  }

  /** The checkpoint named by `checkpoint_id`, or the latest of (`thread_id`, `checkpoint_ns`). */
  async getTuple(config: RunnableConfig): Promise<CheckpointTuple | undefined> {
    const c = (config.configurable ?? {}) as Configurable;
    const thread = optionalText(c.thread_id, 'thread_id');
    if (thread === undefined || thread === '') return undefined;
    const ns = optionalText(c.checkpoint_ns, 'checkpoint_ns') ?? '';
    const id = optionalText(c.checkpoint_id, 'checkpoint_id');
    if (id !== undefined) {
      const entry = await entryAt(this.store, this.namespace, thread, ns, id);
      return entry ? this.#handOut(entry) : undefined;
    }
    // The largest refs are the latest checkpoint's writes (they sort right above it), then the
    // checkpoint itself: one descending range read, which also skips writes whose checkpoint was
    // never put.
    for await (const entry of this.#newestFirst(checkpointPrefix(thread, ns), undefined, 1)) return this.#handOut(entry);
    return undefined;
  }

  /**
   * Beta, for `DeltaChannel` graphs: the seed and writes of each channel over the ancestors of
   * the checkpoint `config` names (or the latest), as the base class gives them, read with one
   * descending range read of the thread's index instead of one verified `getTuple` per ancestor.
   */
  override async getDeltaChannelHistory(options: { config: RunnableConfig; channels: string[] }): Promise<Record<string, DeltaChannelHistory>> {
    const { config, channels } = options;
    if (channels.length === 0) return {};
    const c = (config.configurable ?? {}) as Configurable;
    const thread = optionalText(c.thread_id, 'thread_id');
    const empty = () => deltaHistoryOf(channels);
    if (thread === undefined || thread === '') return empty();
    const ns = optionalText(c.checkpoint_ns, 'checkpoint_ns') ?? '';
    const id = optionalText(c.checkpoint_id, 'checkpoint_id');
    const prefix = checkpointPrefix(thread, ns);
    if (id !== undefined) {
      const row = await this.store.findBySourceRef(this.namespace, checkpointRef(thread, ns, id));
      if (!row) return empty();
      const [target] = groupRows([row]);
      return target ? deltaHistory(this.#reader, target, this.#newestFirst(prefix, checkpointRef(thread, ns, id), DELTA_HISTORY_HINT, 2), channels) : empty();
    }
    const newest = this.#newestFirst(prefix, undefined, DELTA_HISTORY_HINT, 2);
    const first = await newest.next();
    if (first.done === true) return empty();
    return deltaHistory(this.#reader, first.value, newest, channels);
  }

  /** The tuple of one checkpoint, remembering what it hands out: the next put extends it. */
  async #handOut(entry: CheckpointEntry): Promise<CheckpointTuple | undefined> {
    const [tuple] = await this.#reader.tuples([entry], (p, lists) => this.#lists.set(keyOf(p), lists));
    if (tuple) {
      const p = entry.checkpoint;
      this.#remember(p.thread_id, p.checkpoint_ns, p.checkpoint_id, { versions: { ...tuple.checkpoint.channel_versions }, holder: holdersOfPayload(p) });
    }
    return tuple;
  }

  /**
   * Checkpoints newest first (by checkpoint id). Without `thread_id`, of every thread; without
   * `checkpoint_ns`, of every namespace. `before` keeps ids lower than its `checkpoint_id`,
   * `filter` keeps checkpoints whose metadata has equal values at each of its keys. Streams: each
   * tuple is yielded as soon as it is rebuilt, holding one page of rows and the rows its values
   * read, so a long thread's whole history (`graph.getStateHistory`) walks in bounded memory.
   */
  async *list(config: RunnableConfig, options: CheckpointListOptions = {}): AsyncGenerator<CheckpointTuple> {
    const c = (config.configurable ?? {}) as Configurable;
    const thread = optionalText(c.thread_id, 'thread_id');
    const ns = optionalText(c.checkpoint_ns, 'checkpoint_ns');
    const onlyId = optionalText(c.checkpoint_id, 'checkpoint_id');
    const beforeId = optionalText((options.before?.configurable as Configurable | undefined)?.checkpoint_id, 'before.checkpoint_id');
    const limit = options.limit ?? Infinity;
    if (limit <= 0) return;
    const filter = Object.entries(options.filter ?? {});
    const keep = async (p: CheckpointPayload): Promise<boolean> => {
      if (onlyId !== undefined && p.checkpoint_id !== onlyId) return false;
      if (ns !== undefined && p.checkpoint_ns !== ns) return false;
      if (beforeId !== undefined && !(p.checkpoint_id < beforeId)) return false;
      if (filter.length === 0) return true;
      const metadata = (await this.#reader.metadata(p)) as Record<string, unknown>;
      return filter.every(([k, v]) => sameJson(metadata[k], v));
    };
    if (thread !== undefined && ns !== undefined) {
      // One (thread, namespace): refs sort like checkpoint ids, so rows come newest first.
      const before = beforeId === undefined ? undefined : checkpointBound(thread, ns, beforeId);
      // Pages grow from `hint` checkpoints: a walk's first tuple waits for one small page only.
      const hint = Number.isFinite(limit) && filter.length === 0 ? limit : FIRST_WALK_PAGE;
      const newest = this.#newestFirst(checkpointPrefix(thread, ns), before, hint);
      yield* this.#reader.stream(kept(newest, keep, limit));
      return;
    }
    // Several threads or namespaces: ordered by checkpoint id across them, so every checkpoint
    // row is read first, keeping only where it is (no value, no write); then each selected
    // checkpoint is read again with its writes and streamed.
    const found: { id: string; thread: string; ns: string }[] = [];
    const prefix = checkpointPrefix(thread, thread === undefined ? undefined : ns);
    for await (const row of rowsByPrefix(this.store, { namespace: this.namespace, prefix, kind: CHECKPOINT_KIND })) {
      const p = checkpointPayload(row);
      if (await keep(p)) found.push({ id: p.checkpoint_id, thread: p.thread_id, ns: p.checkpoint_ns });
    }
    found.sort((a, b) => (a.id < b.id ? 1 : a.id > b.id ? -1 : 0));
    const store = this.store;
    const namespace = this.namespace;
    async function* entries(): AsyncGenerator<CheckpointEntry> {
      for (const at of found.slice(0, limit)) {
        const entry = await entryAt(store, namespace, at.thread, at.ns, at.id);
        if (entry) yield entry; // deleted since: skipped, as if listed a moment later
      }
    }
    yield* this.#reader.stream(entries());
  }

  /**
   * Stores a checkpoint. `config.configurable.checkpoint_id` is its parent. Only the channels in
   * `newVersions` are stored; the others are read back from the checkpoint that holds them, unless
   * they are small enough to repeat ({@link SessionCheckpointSaverOptions.inlineCarriedBytes}). A list
   * channel whose new value extends the parent's (the same leading items, then new ones) is stored
   * as the appended items only, until the snapshot rule stores it in full again (see
   * {@link SessionCheckpointSaverOptions.snapshotRatio}); an item counts as unchanged only when its
   * JSON is equal, so an object edited in place is stored edited. Every value is read at the call,
   * as MemorySaver does: what the caller does to its objects later changes nothing stored. Values
   * too large for one row are split across part rows.
   *
   * @throws CheckpointValidationError when a value cannot be stored faithfully (BigInt, NaN, cycles)
   *   or the checkpoint without its values exceeds the store's limits; CheckpointConflictError when
   *   the id exists with different content (a repeat that rebuilds to the same content, however
   *   its rows are laid out, is accepted as a no-op: see repeated-put.ts).
   */
  async put(config: RunnableConfig, checkpoint: Checkpoint, metadata: CheckpointMetadata, newVersions: ChannelVersions): Promise<RunnableConfig> {
    if (config.configurable === undefined) throw new CheckpointValidationError('Missing config.configurable in put: pass { configurable: { thread_id: "..." } }');
    const c = config.configurable as Configurable;
    const thread = requireText(c.thread_id, 'thread_id');
    const ns = optionalText(c.checkpoint_ns, 'checkpoint_ns') ?? '';
    const parentId = optionalText(c.checkpoint_id, 'checkpoint_id');
    const id = requireText(checkpoint.id, 'checkpoint.id');
    const { channel_values: channelValues, ...rest } = checkpoint;
    const cv = channelValues as Record<string, unknown>;
    const versions = new Set([...Object.keys(checkpoint.channel_versions), ...Object.keys(newVersions)]);
    // Step 1: serialise now, before any await, what this put stores (see value-capture.ts):
    // LangGraph runs its next step while the put is in flight, and nodes edit objects in place.
    const pending = new Map<string, Promise<Captured>>();
    const parentLists = parentId === undefined ? undefined : this.#lists.get(keyOf({ thread_id: thread, checkpoint_ns: ns, checkpoint_id: parentId }));
    let small = 0;
    for (const channel of versions) {
      if (!Object.hasOwn(cv, channel)) continue;
      const isNew = Object.hasOwn(newVersions, channel);
      // An unchanged value is captured too when it is small: the row may repeat it (inlineCarriedBytes).
      const size = isNew || small > this.inlineCarriedBytes ? undefined : jsonSizeWithin(cv[channel], this.inlineCarriedBytes - small);
      if (!isNew && size === undefined) small = Infinity;
      else if (size !== undefined) small += size;
      // A changed list is captured against the parent's: its unchanged items are the saver's own objects again.
      if (isNew || size !== undefined) pending.set(channel, captureValue(this.serde, cv[channel], `channel '${channel}'`, isNew ? parentLists?.get(channel)?.stored : undefined));
    }
    const captured = new Map<string, Captured>();
    // One Promise.all, created before any await: a value refused is this put's error, never an unhandled rejection.
    const [storedCheckpoint, storedMetadata] = await Promise.all([
      storeValue(this.serde, rest, 'checkpoint'),
      storeValue(this.serde, metadata, 'metadata'),
      ...[...pending].map(async ([channel, value]) => void captured.set(channel, await value)),
    ]);
    // What was not captured above (an unchanged value the parent row no longer holds): read now.
    const valueOf = async (channel: string): Promise<Captured> => captured.get(channel) ?? captureValue(this.serde, cv[channel], `channel '${channel}'`);
    // Step 2: the plan, channel by channel.
    const plan = new PutPlan(thread, ns, id, this.snapshotRatio, this.maxCheckpointsPerThread ?? Infinity);
    let parent: Holders | undefined | null = null;
    const carried = new Map<string, string>();
    for (const channel of versions) {
      if (Object.hasOwn(newVersions, channel)) {
        if (Object.hasOwn(cv, channel)) plan.store(channel, await valueOf(channel), parentLists?.get(channel));
        continue;
      }
      if (parentId === undefined) continue;
      if (parent === null) parent = await this.#holdersOf(thread, ns, parentId);
      const from = parent !== undefined && Object.hasOwn(parent.holder, channel) ? parent.holder[channel] : undefined;
      if (from !== undefined && own(parent?.versions, channel) === own(checkpoint.channel_versions, channel)) {
        carried.set(channel, from);
      } else if (Object.hasOwn(cv, channel)) {
        // The parent row is missing (never stored, or deleted by another process) or does not
        // hold this version: store the value the checkpoint carries, in full.
        plan.store(channel, await valueOf(channel), undefined);
      }
    }
    if (carried.size > 0 && plan.links().size === 0 && [...carried.keys()].every((channel) => captured.has(channel))) {
      // Small enough to repeat: the row links to no other, and getTuple reads it alone.
      for (const channel of carried.keys()) plan.store(channel, await valueOf(channel), undefined);
    } else {
      for (const [channel, from] of carried) plan.carry(channel, from, parentLists?.get(channel));
    }
    // Step 3: the rows.
    const payload = plan.payload(parentId ?? null, storedCheckpoint, storedMetadata);
    const created = new Date(checkpoint.ts);
    const input: CreateCheckpointInput = {
      namespace: this.namespace,
      sessionId: thread,
      kind: CHECKPOINT_KIND,
      name: displayName(id),
      payload,
      sourceRef: checkpointRef(thread, ns, id),
      ...(Number.isNaN(created.getTime()) ? {} : { createdAt: created }),
    };
    const once = await putAtOnce(this.store, plan, input, thread, ns);
    const row: { inserted: boolean; sha: string; taken?: StoredRow } = once !== undefined ? { inserted: true, sha: once } : await this.store.transaction(async (tx) => {
      const release = await lockThread(tx, this.namespace, thread);
      // What this row links to must exist now, inside the transaction that inserts it.
      const links = plan.links();
      if (links.size > 0) {
        const present = await existingRefs(tx, this.namespace, [...links.keys()].map((from) => checkpointRef(thread, ns, from)));
        for (const [from, needs] of links) {
          const sha = present.get(checkpointRef(thread, ns, from));
          for (const { channel, sha: wanted } of needs) {
            // Present, and for a list piece the very row it extends (not one re-created since).
            if (sha !== undefined && (wanted === undefined || wanted === sha)) continue;
            if (Object.hasOwn(cv, channel)) plan.store(channel, await valueOf(channel), undefined);
            else plan.drop(channel);
          }
        }
        if (plan.changed) input.payload = plan.payload(parentId ?? null, payload.checkpoint, payload.metadata);
      }
      const { prepared, parts } = plan.prepare(tx, input, this.namespace);
      const stored = await this.#createOnce(tx, prepared);
      if (stored.inserted) for (const part of parts) await tx.insertPrepared(part);
      await release();
      return stored;
    });
    if (row.taken !== undefined) {
      // The id is stored, laid out otherwise: a retry (by a new saver, or after retention pruned
      // the parent) is a no-op when it rebuilds to the same content (see repeated-put.ts).
      const channels = new Map(Object.keys(plan.holders()).map((channel) => [channel, () => valueOf(channel)] as const));
      const [existing] = groupRows([row.taken]);
      const differs = existing === undefined ? 'the row' : await repeatDifference(this.#reader, existing, { parent: parentId ?? null, checkpoint: storedCheckpoint, metadata: storedMetadata, channels });
      if (differs !== undefined) {
        throw new CheckpointConflictError(`LangGraph checkpoint ${input.name} of thread '${thread}' already exists with other content: ${differs} differs`, { ids: [row.taken.id] });
      }
      // Its holders are the stored row's, not this plan's: read them from the row when needed.
      this.#holderCache.delete(`${thread}\u0000${ns}\u0000${id}`);
      return { configurable: { thread_id: thread, checkpoint_ns: ns, checkpoint_id: id } };
    }
    this.#remember(thread, ns, id, { versions: { ...checkpoint.channel_versions }, holder: plan.holders() });
    if (row.inserted) this.#lists.set(keyOf({ thread_id: thread, checkpoint_ns: ns, checkpoint_id: id }), plan.listStates(row.sha));
    if (this.maxCheckpointsPerThread !== undefined) {
      // Incremental: prune once every ceil(max / 4) puts of this saver to a (thread, namespace), so
      // the pruned read (a thread held near the cap) costs O(1) rows per put, amortised.
      const k = `${thread}\u0000${ns}`;
      const since = (this.#putsSincePrune.get(k) ?? 0) + 1;
      if (since >= Math.ceil(this.maxCheckpointsPerThread / 4)) {
        this.#putsSincePrune.delete(k);
        await this.prune({ threadId: thread, checkpointNs: ns, keepLatest: this.maxCheckpointsPerThread, apply: true });
      } else this.#putsSincePrune.set(k, since);
    }
    return { configurable: { thread_id: thread, checkpoint_ns: ns, checkpoint_id: id } };
  }

  /**
   * Stores pending writes of a task against a checkpoint, all in one row per (checkpoint, task),
   * keyed by LangGraph's idx: a regular write already stored is kept, a special one
   * (`__error__`, `__interrupt__`, ...) is replaced.
   */
  async putWrites(config: RunnableConfig, writes: PendingWrite[], taskId: string, taskPath = ''): Promise<void> {
    const c = (config.configurable ?? {}) as Configurable;
    const thread = requireText(c.thread_id, 'thread_id');
    const ns = optionalText(c.checkpoint_ns, 'checkpoint_ns') ?? '';
    const id = requireText(c.checkpoint_id, 'checkpoint_id');
    if (writes.length === 0) return;
    const stored: StoredWrite[] = [];
    for (const [i, [channel, value]] of writes.entries()) {
      const idx = own(WRITES_IDX_MAP as Record<string, number>, channel) ?? i;
      const write = { idx, channel, value: await storeValue(this.serde, value, `write '${channel}' of task ${taskId}`) };
      const at = stored.findIndex((w) => w.idx === idx);
      if (at < 0) stored.push(write);
      else if (idx < 0) stored[at] = write;
    }
    const sourceRef = writeRef(thread, ns, id, taskId);
    const input = (list: StoredWrite[]): CreateCheckpointInput => ({
      namespace: this.namespace,
      sessionId: thread,
      kind: WRITE_KIND,
      name: displayName(taskId),
      sourceRef,
      payload: { langgraph: 1, thread_id: thread, checkpoint_ns: ns, checkpoint_id: id, task_id: taskId, task_path: taskPath, writes: list } satisfies WritePayload,
    });
    // Values too large for the row go to part rows (refs below the write's ref), each within the limit.
    const fit = (tx: CheckpointStore, list: StoredWrite[]) =>
      fitRow(tx, input(list), list, (k) => writePartRef(thread, ns, id, taskId, k), {
        namespace: this.namespace,
        thread,
        ns,
        checkpointId: id,
        what: `pending writes of task ${taskId} on checkpoint ${id}`,
      });
    // A copy: fitRow replaces the writes it moves into parts, and those parts are only inserted
    // when this first attempt is the row that lands; a merge below starts from `stored` again.
    const first = fit(this.store, stored.slice());
    if (first.parts.length === 0) {
      try {
        await this.store.insertPrepared(first.prepared);
        return;
      } catch (error) {
        if (!isCheckpointConflictError(error)) throw error;
      }
    }
    // Split, or the task wrote before: merge into its row (regular writes kept, special ones replaced).
    await this.store.transaction(async (tx) => {
      const existing = await tx.findBySourceRef(this.namespace, sourceRef);
      const merged = existing ? [...writePayload(existing).writes] : [];
      for (const write of stored) {
        const at = merged.findIndex((w) => w.idx === write.idx);
        if (at < 0) merged.push(write);
        else if (write.idx < 0) merged[at] = write;
      }
      if (existing) await tx.delete(existing.id, { namespace: this.namespace, apply: true, force: true });
      const { prepared, parts } = existing ? fit(tx, merged) : first;
      for (const part of parts) await tx.insertPrepared(part);
      await tx.insertPrepared(prepared);
    });
  }

  /** Deletes every checkpoint, value and write of a thread, in one store call. */
  async deleteThread(threadId: string): Promise<void> {
    const thread = threadArgument(threadId);
    await this.store.transaction(async (tx) => {
      // Under the thread's lock, so that no put in flight links to what goes (see thread-lock.ts).
      await lockThread(tx, this.namespace, thread);
      await tx.deleteSession(thread, { namespace: this.namespace, apply: true });
    });
    const ofThread = (key: string) => key.startsWith(`${thread}\u0000`);
    this.#holderCache.deleteKeys(ofThread);
    this.#lists.deleteKeys(ofThread);
  }

  /**
   * Retention, dry run unless `apply: true`. Selects checkpoints beyond the newest `keepLatest`
   * of each (thread, checkpoint_ns) and/or older than `olderThan`, then keeps back the newest of
   * each, those with an interrupt not yet resumed, and those holding values a kept checkpoint
   * reads. Selected checkpoints go with their pending writes, in one transaction.
   *
   * @example
   * ```ts
   * const report = await saver.prune({ keepLatest: 20, apply: true });
   * report.freedBytes; // payload bytes removed
   * ```
   */
  async prune(options: SaverPruneOptions): Promise<PruneReport> {
    const report = await pruneThreads(this.store, this.namespace, options);
    for (const c of report.checkpoints) {
      const k = `${c.threadId}\u0000${c.checkpointNs}\u0000${c.checkpointId}`;
      this.#holderCache.delete(k);
      this.#lists.delete(k);
    }
    return report;
  }

  /** Checkpoints of one (thread, namespace) prefix, newest first, each with its writes (see {@link newestEntries}). */
  #newestFirst(prefix: string, before: string | undefined, hint: number, growth = 4): AsyncGenerator<CheckpointEntry> {
    return newestEntries(this.store, this.namespace, prefix, before, hint, growth);
  }

  /**
   * Inserts the row; an identical row already there counts as done (`inserted: false`), another
   * row of the same checkpoint is returned as `taken` (its content is compared after the
   * transaction, see repeated-put.ts).
   */
  async #createOnce(tx: CheckpointStore, prepared: PreparedCheckpoint): Promise<{ inserted: boolean; sha: string; taken?: StoredRow }> {
    try {
      const row = await tx.insertPrepared(prepared);
      return { inserted: true, sha: row.payloadSha256 };
    } catch (error) {
      if (!isCheckpointConflictError(error)) throw error;
      const existing = await tx.findBySourceRef(this.namespace, prepared.sourceRef ?? '');
      if (existing && existing.payloadSha256 === prepared.payloadSha256) return { inserted: false, sha: existing.payloadSha256 };
      if (existing && existing.kind === CHECKPOINT_KIND) return { inserted: false, sha: existing.payloadSha256, taken: existing };
      throw new CheckpointConflictError(`LangGraph checkpoint ${prepared.name} of thread '${prepared.sessionId}' already exists with other content`, {
        cause: error,
        ...(existing ? { ids: [existing.id] } : {}),
      });
    }
  }

  /** Versions and value holders of a stored checkpoint (cache first), or `undefined` when absent. */
  async #holdersOf(thread: string, ns: string, id: string): Promise<Holders | undefined> {
    const cached = this.#holderCache.get(`${thread}\u0000${ns}\u0000${id}`);
    if (cached) return cached;
    const row = await this.store.findBySourceRef(this.namespace, checkpointRef(thread, ns, id));
    if (!row) return undefined;
    const p = checkpointPayload(row);
    return { versions: ((await loadValue(this.serde, p.checkpoint)) as Checkpoint).channel_versions, holder: holdersOfPayload(p) };
  }

  #remember(thread: string, ns: string, id: string, holders: Holders): void {
    this.#holderCache.set(`${thread}\u0000${ns}\u0000${id}`, holders);
  }
}

/** The entries `keep` accepts, at most `limit` of them, pulled one by one. */
async function* kept(entries: AsyncIterable<CheckpointEntry>, keep: (p: CheckpointPayload) => Promise<boolean>, limit: number): AsyncGenerator<CheckpointEntry> {
  let left = limit;
  if (left <= 0) return;
  for await (const entry of entries) {
    if (!(await keep(entry.checkpoint))) continue;
    yield entry;
    if (--left <= 0) return;
  }
}

/** Channel -> checkpoint whose row holds its value, for a stored checkpoint payload. */
function holdersOfPayload(p: CheckpointPayload): Record<string, string> {
  const holder: Record<string, string> = {};
  const set = (channel: string, id: string) => Object.defineProperty(holder, channel, { value: id, enumerable: true, writable: true, configurable: true });
  for (const [channel, from] of Object.entries(p.carried)) set(channel, from);
  for (const channel of Object.keys(p.values)) set(channel, p.checkpoint_id);
  for (const channel of Object.keys(p.lists ?? {})) set(channel, p.checkpoint_id);
  return holder;
}
