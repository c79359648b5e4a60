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
import { CheckpointValidationError, type CheckpointStore, type CreateCheckpointInput } from '@session-checkpoint/core';
import { storeArgument, TwoGenerationCache } from '@session-checkpoint/core/toolkit';
import { cloneJson, own, sameJson } from './format/json.js';
import { checkpointPayload, CHECKPOINT_KIND, holdersOf, keyOf, LANGGRAPH_NAMESPACE, WRITE_KIND, type CheckpointPayload, type StoredWrite, type WritePayload } from './format/payloads.js';
import { checkpointBound, checkpointPrefix, checkpointRef, writeRef } from './format/refs.js';
import { loadValueNow, storeValue } from './format/serde.js';
import { entryAt, groupRows, newestEntries, rowsByPrefix, type CheckpointEntry } from './read/entries.js';
import { deltaHistoryOf, TupleReader } from './read/tuples.js';
import { ParsedPayloads, type RowReads } from './read/parsed-payloads.js';
import type { KnownList } from './read/rebuild.js';
import { capturePut } from './write/capture.js';
import { ListStates, planPut, type Holders } from './write/plan.js';
import { pruneThreads, type PruneReport, type SaverPruneOptions } from './write/retention.js';
import { checkRepeat, mergeWrite, writeCheckpoint, writeTaskRow } from './write/rows.js';
import { lockThread } from './write/thread-lock.js';
import { TaskRows } from './write/write-refs.js';
import { PART_OVERHEAD } from './format/parts.js';
import { checkThreadHead } from './read/sealed-head.js';

/** Options of {@link SessionCheckpointSaver}. */
export interface SessionCheckpointSaverOptions {
  /** Store namespace that holds the LangGraph rows. Default is `"langgraph"`. */
  namespace?: string;
  /** Serializer of values. Default is LangGraph's `JsonPlusSerializer`. */
  serde?: SerializerProtocol;
  /**
   * Retention: keep at most this many checkpoints per (thread, checkpoint_ns), pruning after every
   * `ceil(max / 4)`-th put of this saver there, with what {@link SessionCheckpointSaver.prune} keeps
   * back; a list chain is cut by a snapshot every `max` pieces. Default is unlimited.
   */
  maxCheckpointsPerThread?: number;
  /**
   * The snapshot rule of list channels stored incrementally: a list whose new value extends the
   * parent's is stored as the appended items only, until the items appended since its last full
   * copy (the snapshot) exceed `snapshotRatio` times that copy (counted as at least 16 KiB). The
   * bytes stored for a growing list stay within about `2 + 1 / snapshotRatio` times its final
   * size; a larger ratio stores fewer full copies and reads more, smaller rows. `0` stores every
   * changed value in full. Default is `4` (docs/decisions/0009).
   *
   * @example
   * ```ts
   * new SessionCheckpointSaver(store, { snapshotRatio: 8 }); // fewer full copies, more rows per read
   * ```
   */
  snapshotRatio?: number;
  /**
   * When a checkpoint's unchanged values are all plain JSON of at most about this many bytes
   * together, and its changed values link to no earlier row, its row repeats them instead of
   * linking to the rows that hold them, so `getTuple` reads it in one statement instead of two
   * (docs/decisions/0012). `0` always links. Default is `4096` (one SQLite page).
   *
   * @example
   * ```ts
   * new SessionCheckpointSaver(store, { inlineCarriedBytes: 0 }); // store each value once, link it
   * ```
   */
  inlineCarriedBytes?: number;
  /**
   * Memory for the list values the next put may extend: the JSON of the lists of up to 256
   * recently put or read checkpoints, at most this many bytes counted as serialized JSON. A
   * checkpoint whose lists are over half of it is not kept: its next put stores them in full (bytes
   * in the store, never a wrong value). `0` keeps none. Default is 64 MiB (`67108864`).
   *
   * @example
   * ```ts
   * new SessionCheckpointSaver(store, { listCacheBytes: 256 * 1024 * 1024 }); // many long chats at once
   * ```
   */
  listCacheBytes?: number;
  /**
   * Memory for the rows reads come back to (DeltaChannel's history, a list's pieces, part rows,
   * re-read at every step): their parsed payloads, kept by the row's verified text, from a row's
   * second read on, bounded by the total length of those texts in UTF-16 code units. A row whose
   * text equals a kept one in full is not parsed again; any other is. The store verifies every
   * row first either way. The parsed objects held take several times their text: a 150-turn
   * DeltaChannel chat re-reading 3.4 MB a step held 28 MB more heap with the memo than without.
   * `0` keeps none. Default is 16 Mi (`16777216`; docs/decisions/0037).
   *
   * @example
   * ```ts
   * new SessionCheckpointSaver(store, { parsedPayloadCache: 0 }); // parse every row at every read
   * ```
   */
  parsedPayloadCache?: number;
}

const HOLDER_CACHE_MAX = 1024;
/** List states kept: one per recently put or read checkpoint (each holds its items' JSON, never the caller's objects). */
const LIST_CACHE_MAX = 256;
/** Checkpoints of the first page a delta history reads; pages then double (docs/decisions/0011). */
const DELTA_HISTORY_HINT = 16;
/** Checkpoints of the first page of a `list` without `limit`; pages then grow 4x up to PAGE_SIZE rows. */
const FIRST_WALK_PAGE = 16;
/** What the saver calls on its store, checked at construction (see core's `storeArgument`). */
const STORE_USE = { name: 'SessionCheckpointSaver', methods: ['create', 'prepare', 'findBySourceRef', 'findBySourceRefs', 'listBySourceRefPrefix', 'transaction', 'deleteSession'] };

/**
 * A LangGraph.js checkpointer over a session-checkpoint {@link CheckpointStore}, on every backend.
 * Every checkpoint and pending write is an ordinary verified row: a tampered value fails closed
 * with `CheckpointIntegrityError`, and `verify`, the CLI and bundles see LangGraph data. The layout
 * of this package is docs/decisions/0021; a put is capture, plan, rows (write/).
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
  /** The snapshot rule's ratio (see the option). */
  readonly snapshotRatio: number;
  /** Bytes of unchanged values a row repeats rather than links (see the option). */
  readonly inlineCarriedBytes: number;
  readonly #reader: TupleReader;
  /** The store's reads, each row's payload parsed once while it is kept (read/parsed-payloads.ts). */
  readonly #reads: RowReads;
  /** Holder maps of recently put checkpoints: the parent of the next put is almost always here. */
  readonly #holderCache = new TwoGenerationCache<string, Holders>(HOLDER_CACHE_MAX);
  /** List values last stored or handed out per checkpoint: what the next put may extend. */
  readonly #lists: ListStates;
  /** Pending-writes rows this saver wrote per checkpoint: what the next put's list pieces may name (write/write-refs.ts). */
  readonly #taskRows = new TaskRows(HOLDER_CACHE_MAX);
  /** Puts per (thread, namespace) since this saver last pruned it (maxCheckpointsPerThread). */
  readonly #putsSincePrune = new TwoGenerationCache<string, number>(HOLDER_CACHE_MAX);

  /**
   * The list states kept for the next puts: checkpoints and their weight (serialized bytes, each
   * checkpoint counted as at least listCacheBytes / 256), for tests and diagnostics.
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
    this.store = storeArgument(store, STORE_USE);
    this.namespace = options.namespace ?? LANGGRAPH_NAMESPACE;
    const check = <T>(value: T, ok: (v: T) => boolean, message: string): T => {
      if (!ok(value)) throw new CheckpointValidationError(message);
      return value;
    };
    const count = (min: number) => (v: unknown) => Number.isSafeInteger(v) && (v as number) >= min;
    this.maxCheckpointsPerThread = check(options.maxCheckpointsPerThread, (v) => v === undefined || count(1)(v), 'maxCheckpointsPerThread must be a positive integer');
    this.snapshotRatio = check(options.snapshotRatio ?? 4, (v) => typeof v === 'number' && Number.isFinite(v) && v >= 0, 'snapshotRatio must be a finite number >= 0');
    this.inlineCarriedBytes = check(options.inlineCarriedBytes ?? 4096, count(0), 'inlineCarriedBytes must be an integer >= 0');
    this.#lists = new ListStates(LIST_CACHE_MAX, check(options.listCacheBytes ?? 64 * 1024 * 1024, count(0), 'listCacheBytes must be an integer >= 0'));
    const memo = new ParsedPayloads(check(options.parsedPayloadCache ?? 16 * 1024 * 1024, count(0), 'parsedPayloadCache must be an integer >= 0'));
    this.#reads = memo.reads(this.store);
    this.#reader = new TupleReader(this.#reads, this.namespace, this.serde, memo);
  }

  /** The checkpoint named by `checkpoint_id`, or the latest of (`thread_id`, `checkpoint_ns`). */
  async getTuple(config: RunnableConfig): Promise<CheckpointTuple | undefined> {
    // No thread: nothing to get, and the other fields are not checked.
    if (!hasThread(config)) return undefined;
    const { thread = '', ns, id } = placeOf(config);
    if (id !== undefined) {
      const entry = await entryAt(this.#reads, this.namespace, thread, ns ?? '', id);
      return entry ? this.#handOut(entry) : undefined;
    }
    // The latest checkpoint's writes sort right above it: one descending range read (docs/decisions/0008).
    const newest = async () => {
      for await (const entry of newestEntries(this.#reads, this.namespace, checkpointPrefix(thread, ns ?? ''), undefined, 1)) return entry;
      return undefined;
    };
    const [entry] = await Promise.all([newest(), checkThreadHead(this.store, this.namespace, thread)]);
    return entry ? this.#handOut(entry) : undefined;
  }

  /**
   * Beta, for `DeltaChannel` graphs: the seed and writes of each channel over the ancestors of
   * the checkpoint `config` names (or the latest), as the base class gives them, read with one
   * descending range read of the thread's index instead of one verified `getTuple` per ancestor.
   */
  override async getDeltaChannelHistory(options: { config: RunnableConfig; channels: string[] }): Promise<Record<string, DeltaChannelHistory>> {
    const { config, channels } = options;
    if (channels.length === 0) return {};
    if (!hasThread(config)) return deltaHistoryOf(channels);
    const { thread = '', ns = '', id } = placeOf(config);
    // The target is the named checkpoint, or the first of the range read: the others are its ancestors.
    const ref = id === undefined ? undefined : checkpointRef(thread, ns, id);
    const ancestors = newestEntries(this.#reads, this.namespace, checkpointPrefix(thread, ns), ref, DELTA_HISTORY_HINT, 2);
    const row = ref === undefined ? undefined : await this.#reads.findBySourceRef(this.namespace, ref);
    const target = ref === undefined ? ((await ancestors.next()).value as CheckpointEntry | undefined) : row && groupRows([row])[0];
    return target ? this.#reader.deltaHistory(target, ancestors, channels) : deltaHistoryOf(channels);
  }

  /** The tuple of one checkpoint, remembering what it hands out: the next put extends it. */
  async #handOut(entry: CheckpointEntry): Promise<CheckpointTuple> {
    const tuple = await this.#reader.tuple(entry, (p, lists, handedOut) => this.#lists.set(keyOf(p), keptLists(lists, handedOut)));
    this.#holderCache.set(keyOf(entry.checkpoint), { versions: { ...tuple.checkpoint.channel_versions }, holder: holdersOf(entry.checkpoint) });
    return tuple;
  }

  /**
   * Checkpoints newest first (by checkpoint id); without `thread_id` of every thread, without
   * `checkpoint_ns` of every namespace. `before` and metadata `filter` as LangGraph's savers. Each
   * tuple is yielded as soon as it is rebuilt, so a long history walks in bounded memory.
   */
  async *list(config: RunnableConfig, options: CheckpointListOptions = {}): AsyncGenerator<CheckpointTuple> {
    const { thread, ns, id: onlyId } = placeOf(config);
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
    if (thread !== undefined) await checkThreadHead(this.store, this.namespace, thread);
    if (thread !== undefined && ns !== undefined) {
      // One (thread, namespace): refs sort like checkpoint ids, so rows come newest first; pages
      // grow from `hint` checkpoints, so that a walk's first tuple waits for one small page only.
      const before = beforeId === undefined ? undefined : checkpointBound(thread, ns, beforeId);
      const hint = Number.isFinite(limit) && filter.length === 0 ? limit : FIRST_WALK_PAGE;
      yield* this.#reader.stream(kept(newestEntries(this.#reads, this.namespace, checkpointPrefix(thread, ns), before, hint), keep, limit));
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
    const { namespace } = this;
    const store = this.#reads;
    async function* entries(): AsyncGenerator<CheckpointEntry> {
      for (const at of found.slice(0, limit)) {
        const entry = await entryAt(store, namespace, at.thread, at.ns, at.id);
        if (entry) yield entry; // deleted since: skipped, as if listed a moment later
      }
    }
    yield* this.#reader.stream(entries());
  }

  /**
   * Stores a checkpoint; `config.configurable.checkpoint_id` is its parent. Only the channels in
   * `newVersions` are stored (the others link to the row that holds them, or are repeated when
   * small); a list that extends the parent's is stored as its appended items, an item counting as
   * unchanged only when its JSON is equal. Every value is read at the call, as MemorySaver does.
   *
   * @throws CheckpointValidationError when a value cannot be stored faithfully (BigInt, NaN, cycles)
   *   or the checkpoint without its values exceeds the store's limits; CheckpointConflictError when
   *   the id exists with other content (a repeat that rebuilds to the same content is a no-op).
   */
  async put(config: RunnableConfig, checkpoint: Checkpoint, metadata: CheckpointMetadata, newVersions: ChannelVersions): Promise<RunnableConfig> {
    if (config.configurable === undefined) throw new CheckpointValidationError('Missing config.configurable in put: pass { configurable: { thread_id: "..." } }');
    const c = config.configurable as Configurable;
    const place = { thread: requireText(c.thread_id, 'thread_id'), ns: optionalText(c.checkpoint_ns, 'checkpoint_ns') ?? '', parentId: optionalText(c.checkpoint_id, 'checkpoint_id'), id: requireText(checkpoint.id, 'checkpoint.id') };
    const { thread, ns, parentId, id } = place;
    const done = { configurable: { thread_id: thread, checkpoint_ns: ns, checkpoint_id: id } };
    const parentKey = keyOf({ thread_id: thread, checkpoint_ns: ns, checkpoint_id: parentId ?? '' });
    const parentLists = parentId === undefined ? undefined : this.#lists.get(parentKey);
    // 1. Read every value now, before any await, comparing lists with the parent's (write/capture.ts).
    const values = await capturePut(this.serde, checkpoint, metadata, newVersions, (ch) => parentLists?.get(ch)?.stored, this.inlineCarriedBytes);
    // 2. Decide each channel: stored, extended, linked or repeated (write/plan.ts).
    const unchanged = Object.keys(checkpoint.channel_versions).some((ch) => !Object.hasOwn(newVersions, ch));
    const parent = parentId !== undefined && unchanged ? await this.#holdersOf(parentKey, thread, ns, parentId) : undefined;
    const settings = {
      snapshotRatio: this.snapshotRatio,
      maxChain: this.maxCheckpointsPerThread ?? Infinity,
      taskRows: (from: string) => this.#taskRows.get(keyOf({ thread_id: thread, checkpoint_ns: ns, checkpoint_id: from })),
      maxNamedRowBytes: this.store.limits.maxPayloadBytes - PART_OVERHEAD,
    };
    const plan = await planPut(place, values, checkpoint.channel_versions, newVersions, parent, parentLists, settings);
    // 3. The rows: one statement, or a transaction that checks the links (write/rows.ts).
    const created = new Date(checkpoint.ts);
    const input: CreateCheckpointInput = {
      namespace: this.namespace,
      sessionId: thread,
      kind: CHECKPOINT_KIND,
      name: displayName(id),
      payload: plan.payload(),
      sourceRef: checkpointRef(thread, ns, id),
      ...(Number.isNaN(created.getTime()) ? {} : { createdAt: created }),
    };
    const row = await writeCheckpoint(this.store, this.namespace, plan, input, values);
    const key = keyOf(done.configurable);
    if (row.taken !== undefined) {
      // The id is stored, laid out otherwise: a no-op when it rebuilds to the same content. Its
      // holders are the stored row's, not this plan's: read from the row when needed.
      await checkRepeat(this.#reader, row.taken, plan, values);
      this.#holderCache.delete(key);
      return done;
    }
    this.#holderCache.set(key, { versions: { ...checkpoint.channel_versions }, holder: holdersOf(input.payload as CheckpointPayload) });
    if (row.inserted) this.#lists.set(key, plan.listStates(row.sha));
    const max = this.maxCheckpointsPerThread;
    if (max === undefined) return done;
    // Retention once every ceil(max / 4) puts to a (thread, namespace): O(1) rows read per put, amortised.
    const since = (this.#putsSincePrune.get(`${thread}\u0000${ns}`) ?? 0) + 1;
    this.#putsSincePrune.set(`${thread}\u0000${ns}`, since < Math.ceil(max / 4) ? since : 0);
    if (since >= Math.ceil(max / 4)) await this.prune({ threadId: thread, checkpointNs: ns, keepLatest: max, apply: true });
    return done;
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
      mergeWrite(stored, { idx, channel, value: await storeValue(this.serde, value, `write '${channel}' of task ${taskId}`) });
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
    const row = await writeTaskRow(this.store, input, stored, { namespace: this.namespace, thread, ns, id, taskId });
    this.#taskRows.record(keyOf({ thread_id: thread, checkpoint_ns: ns, checkpoint_id: id }), taskId, row);
  }

  /** Deletes every checkpoint, value and write of a thread, in one store call. */
  async deleteThread(threadId: string): Promise<void> {
    if (typeof threadId !== 'string' || threadId === '') {
      throw new CheckpointValidationError(`deleteThread needs a thread id: a non-empty string (got ${threadId === undefined ? 'undefined' : kindOf(threadId)}), e.g. deleteThread("t-1")`);
    }
    await this.store.transaction(async (tx) => {
      // Under the thread's lock, so that no put in flight links to what goes (write/thread-lock.ts).
      await lockThread(tx, this.namespace, threadId);
      await tx.deleteSession(threadId, { namespace: this.namespace, apply: true });
    });
    const ofThread = (key: string) => key.startsWith(`${threadId}\u0000`);
    this.#holderCache.deleteKeys(ofThread);
    this.#lists.deleteKeys(ofThread);
    this.#taskRows.deleteKeys(ofThread);
  }

  /**
   * Retention, dry run unless `apply: true`: checkpoints beyond the newest `keepLatest` of each
   * (thread, checkpoint_ns) and/or older than `olderThan`, less the newest of each, those with an
   * interrupt not yet resumed and those holding values a kept checkpoint reads.
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
      const k = keyOf({ thread_id: c.threadId, checkpoint_ns: c.checkpointNs, checkpoint_id: c.checkpointId });
      this.#holderCache.delete(k);
      this.#lists.delete(k);
      this.#taskRows.delete(k);
    }
    return report;
  }

  /** Versions and value holders of a stored checkpoint (cache first), or `undefined` when absent. */
  async #holdersOf(key: string, thread: string, ns: string, id: string): Promise<Holders | undefined> {
    const cached = this.#holderCache.get(key);
    if (cached) return cached;
    const row = await this.store.findBySourceRef(this.namespace, checkpointRef(thread, ns, id));
    if (!row) return undefined;
    const p = checkpointPayload(row);
    return { versions: ((await loadValueNow(this.serde, p.checkpoint)) as Checkpoint).channel_versions, holder: holdersOf(p) };
  }
}

/**
 * The lists a read handed out, as the next put keeps them: JSON of its own, never the caller's
 * objects. Items that went out themselves (`handedOut`) are copied; the others went out revived
 * or copied, so no caller holds them (and shared payloads' items never change).
 */
function keptLists(lists: ReadonlyMap<string, KnownList>, handedOut: ReadonlySet<string>): Map<string, KnownList> {
  const out = new Map<string, KnownList>();
  for (const [channel, state] of lists) out.set(channel, handedOut.has(channel) ? { ...state, stored: state.stored.map(cloneJson) } : state);
  return out;
}

/** The entries `keep` accepts, at most `limit` of them, pulled one by one. */
async function* kept(entries: AsyncIterable<CheckpointEntry>, keep: (p: CheckpointPayload) => Promise<boolean>, limit: number): AsyncGenerator<CheckpointEntry> {
  let left = limit;
  for await (const entry of entries) {
    if (!(await keep(entry.checkpoint))) continue;
    yield entry;
    if (--left <= 0) return;
  }
}

/** A row name from an id: the store takes at most 256 characters and no controls. */
function displayName(text: string): string {
  const clean = text.replace(/[\u0000-\u001f]/g, '?');
  if (clean === '') return '-';
  return clean.length <= 256 ? clean : Array.from(clean).slice(0, 256).join('');
}

type Configurable = Partial<Record<'thread_id' | 'checkpoint_ns' | 'checkpoint_id', unknown>>;

/** Where each field the saver reads lives, and how to pass it: a wrong one is refused naming both, as LangGraph's savers do. */
const PLACES: Record<string, { name: string; where: string; pass: string }> = {
  thread_id: { name: 'thread_id', where: 'config.configurable', pass: 'pass { configurable: { thread_id: "..." } }' },
  checkpoint_ns: { name: 'checkpoint_ns', where: 'config.configurable', pass: 'pass { configurable: { thread_id: "...", checkpoint_ns: "" } } ("" is the root graph)' },
  checkpoint_id: { name: 'checkpoint_id', where: 'config.configurable', pass: 'pass the config that put returned ({ configurable: { thread_id, checkpoint_ns, checkpoint_id } })' },
  'before.checkpoint_id': { name: 'checkpoint_id', where: 'options.before.configurable', pass: 'pass { before: { configurable: { checkpoint_id: "..." } } }' },
  'checkpoint.id': { name: 'id', where: 'the checkpoint', pass: 'pass a checkpoint made by LangGraph (its id is a uuid6 string, e.g. from uuid6(-1))' },
};

/** "a number", "an array", "null": what a wrong value is, for messages. */
function kindOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (value === '') return 'an empty string';
  const type = typeof value;
  return /^[aeiou]/.test(type) ? `an ${type}` : `a ${type}`;
}

/**
 * The string at `field` (a key of {@link PLACES}), or `undefined` when it is absent; `required`, a
 * non-empty one. Anything else is refused with an error saying where the field goes.
 */
function optionalText(value: unknown, field: string, required = false): string | undefined {
  if (typeof value === 'string' && (value !== '' || !required)) return value;
  const absent = value === undefined || value === null;
  if (absent && !required) return undefined;
  const { name, where, pass } = PLACES[field] as (typeof PLACES)[string];
  throw new CheckpointValidationError(absent ? `Missing "${name}" in ${where}: ${pass}` : `"${name}" in ${where} must be a ${required ? 'non-empty ' : ''}string (got ${kindOf(value)}): ${pass}`);
}

const requireText = (value: unknown, field: string): string => optionalText(value, field, true) as string;

/** True when the config names a thread (a non-empty string; anything else but absence is refused). */
function hasThread(config: RunnableConfig): boolean {
  const thread = optionalText((config.configurable as Configurable | undefined)?.thread_id, 'thread_id');
  return thread !== undefined && thread !== '';
}

/** The thread, namespace and checkpoint id a read's config names (each checked when present). */
function placeOf(config: RunnableConfig): { thread: string | undefined; ns: string | undefined; id: string | undefined } {
  const c = (config.configurable ?? {}) as Configurable;
  return { thread: optionalText(c.thread_id, 'thread_id'), ns: optionalText(c.checkpoint_ns, 'checkpoint_ns'), id: optionalText(c.checkpoint_id, 'checkpoint_id') };
}
