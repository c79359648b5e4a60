import type { ChannelVersions } from '@langchain/langgraph-checkpoint';
import { CheckpointValidationError, type CheckpointStore, type CreateCheckpointInput, type JsonValue, type PreparedCheckpoint } from '@session-checkpoint/core';
import { TwoGenerationCache } from '@session-checkpoint/core/toolkit';
import { jsonBytes, own, recordOf } from '../format/json.js';
import { cutValue, moveToParts, tryPrepare, type Movable } from '../format/parts.js';
import { isWriteSegment, type CheckpointPayload, type ListPiece, type PieceSegment, type StoredValue } from '../format/payloads.js';
import { partRef, writeRef } from '../format/refs.js';
import type { KnownList } from '../read/rebuild.js';
import { isList, type Captured, type PutValues } from './capture.js';
import { segmentsOf, type TaskRow } from './write-refs.js';

/*
 * The second step of a put (after capture.ts, before rows.ts): what it stores for each channel,
 * in full (`values`), as the items appended to the value of an earlier checkpoint (`lists`,
 * docs/decisions/0009), or as a link to the checkpoint that holds it unchanged (`carried`); then the
 * row, split into part rows when too large. Everything here works on captured JSON, never on the
 * caller's objects, and nothing here serialises.
 */

/** Lists below this size are never worth a chain: the snapshot rule counts them as this big. */
export const MIN_SNAPSHOT_BYTES = 16 * 1024;

export type { KnownList };

/** Where each channel value of a stored checkpoint lives: the input of the next put's carried map. */
export interface Holders {
  versions: ChannelVersions;
  holder: Record<string, string>;
}

/** What the plan needs to know of the saver. */
export interface PlanSettings {
  snapshotRatio: number;
  /** Longest chain of pieces (retention keeps a chain whole: this bounds what it keeps back). */
  maxChain: number;
  /** The pending-writes rows this saver wrote on a checkpoint, by task: what a piece may name (write/write-refs.ts). */
  taskRows?: (checkpointId: string) => ReadonlyMap<string, TaskRow> | undefined;
  /** Largest pending-writes row a piece may name. */
  maxNamedRowBytes?: number;
}

/**
 * Decides every channel of a put, from the values captured at its call, the parent's holders and
 * the lists kept of the parent: a changed channel is stored (an extension of the parent's list when
 * the capture found every kept item unchanged); an unchanged one is linked to the row that holds it
 * when the parent's version matches, else stored from the checkpoint; small unchanged values are
 * repeated instead when that makes the row link to nothing (`inlineCarriedBytes`).
 */
export async function planPut(
  place: { thread: string; ns: string; id: string; parentId: string | undefined },
  values: PutValues,
  versions: ChannelVersions,
  newVersions: ChannelVersions,
  parent: Holders | undefined,
  parentLists: ReadonlyMap<string, KnownList> | undefined,
  settings: PlanSettings,
): Promise<PutPlan> {
  const plan = new PutPlan(place.thread, place.ns, place.id, settings);
  const carried = new Map<string, string>();
  for (const channel of new Set([...Object.keys(versions), ...Object.keys(newVersions)])) {
    if (Object.hasOwn(newVersions, channel)) {
      if (values.has(channel)) plan.store(channel, await values.of(channel), parentLists?.get(channel));
      continue;
    }
    if (place.parentId === undefined) continue;
    const from = own(parent?.holder, channel);
    if (from !== undefined && own(parent?.versions, channel) === own(versions, channel)) carried.set(channel, from);
    // The parent row is missing (never stored, or deleted by another process) or does not hold this
    // version: store the value the checkpoint carries, in full.
    else if (values.has(channel)) plan.store(channel, await values.of(channel), undefined);
  }
  if (carried.size > 0 && plan.links().size === 0 && [...carried.keys()].every((channel) => values.captured.has(channel))) {
    // Small enough to repeat: the row links to no other, and getTuple reads it alone (docs/decisions/0012).
    for (const channel of carried.keys()) plan.store(channel, await values.of(channel), undefined);
  } else {
    for (const [channel, from] of carried) plan.carry(channel, from, parentLists?.get(channel));
  }
  plan.header = { parent: place.parentId ?? null, checkpoint: values.checkpoint, metadata: values.metadata };
  return plan;
}

/** The channel values of one put, decided channel by channel. */
export class PutPlan {
  readonly #values = new Map<string, StoredValue>();
  readonly #lists = new Map<string, ListPiece>();
  readonly #carried = new Map<string, string>();
  readonly #states = new Map<string, KnownList>();
  /** The appended items of the pieces that name pending writes, to hold them again when a named row is gone. */
  readonly #named = new Map<string, unknown[]>();
  /** The part of the payload that is not channel values. */
  header: { parent: string | null; checkpoint: StoredValue; metadata: StoredValue } | undefined;
  /** The last whole-row attempt, by payload object: a row over the limit is canonicalised in full before it is refused. */
  #whole: { payload: unknown; prepared: PreparedCheckpoint | undefined } | undefined;

  constructor(
    readonly thread: string,
    readonly ns: string,
    readonly id: string,
    private readonly settings: PlanSettings,
  ) {}

  /**
   * Stores the captured value of `channel`: as an extension of `previous` when the capture found
   * every item of it unchanged at the head of the value (capture.ts) and the snapshot rule allows,
   * else in full.
   */
  store(channel: string, value: Captured, previous: KnownList | undefined): void {
    this.drop(channel);
    if (!isList(value)) {
      this.#values.set(channel, value.stored);
      return;
    }
    const { snapshotRatio, maxChain } = this.settings;
    if (value.t === 'json' && previous?.sha !== undefined && previous.holder !== this.id && snapshotRatio > 0 && previous.c < maxChain) {
      const n = previous.stored.length;
      if (value.against === previous.stored && value.same === n) {
        const appended = value.items.slice(n);
        const d = previous.d + jsonBytes(appended);
        // The snapshot rule: a chain never outgrows snapshotRatio x its snapshot.
        if (d <= snapshotRatio * Math.max(previous.s, MIN_SNAPSHOT_BYTES)) {
          const place = { since: previous.since, d, s: previous.s, c: previous.c + 1 };
          const found = segmentsOf(appended, channel, this.settings.taskRows?.(previous.holder), this.settings.maxNamedRowBytes ?? 0);
          // The task rows are read per channel, and a putWrites may land between two channels: a
          // piece naming a row with another SHA-256 than a piece already planned holds its items,
          // so that every row the payload names has one SHA-256, the one the insert checks.
          const w = found !== undefined && this.#agrees(previous.holder, found) ? found : undefined;
          this.#lists.set(channel, { t: 'json', from: previous.holder, sha: previous.sha, n, ...place, ...(w === undefined ? { j: appended } : { w }) });
          if (w !== undefined) this.#named.set(channel, appended);
          this.#states.set(channel, { stored: previous.stored.concat(appended), holder: this.id, sha: undefined, ...place });
          return;
        }
      }
    }
    const s = jsonBytes(value.items);
    this.#values.set(channel, { t: value.t, j: value.items, s });
    this.#states.set(channel, { stored: value.items, holder: this.id, sha: undefined, since: this.id, d: 0, s, c: 0 });
  }

  /** True when `segments`, extending checkpoint `from`, name each row with the SHA-256 the planned pieces name it with (or the rows no piece names yet). */
  #agrees(from: string, segments: readonly PieceSegment[]): boolean {
    const named = new Map<string, string>();
    for (const piece of this.#lists.values()) {
      if (piece.from !== from) continue;
      for (const segment of piece.w ?? []) if (isWriteSegment(segment)) named.set(segment.r, segment.sha);
    }
    for (const segment of segments) {
      if (!isWriteSegment(segment)) continue;
      const sha = named.get(segment.r);
      if (sha !== undefined && sha !== segment.sha) return false;
      named.set(segment.r, segment.sha);
    }
    return true;
  }

  /**
   * The pending-writes rows the pieces name, by ref, with the payload SHA-256 each names and the
   * channels that need them. Changes nothing in the plan: the pieces agree on each row's SHA-256
   * (see {@link PutPlan.store}), so the payload names exactly what this asks the insert to check.
   */
  writeLinks(): Map<string, { sha: string; channels: string[] }> {
    const out = new Map<string, { sha: string; channels: string[] }>();
    for (const [channel, piece] of this.#lists) {
      for (const segment of piece.w ?? []) {
        if (!isWriteSegment(segment)) continue;
        const ref = writeRef(this.thread, this.ns, piece.from, segment.r);
        const link = out.get(ref);
        if (link === undefined) out.set(ref, { sha: segment.sha, channels: [channel] });
        else if (link.sha !== segment.sha) throw new Error(`bug: two list pieces of checkpoint ${this.id} name the pending writes ${ref} with different SHA-256s`);
        else link.channels.push(channel);
      }
    }
    return out;
  }

  /** Makes the piece of `channel`, if it names pending writes, hold its items itself. */
  holdItems(channel: string): void {
    const items = this.#named.get(channel);
    const piece = this.#lists.get(channel);
    if (items === undefined || piece === undefined) return;
    const { w: _named, ...rest } = piece;
    this.#lists.set(channel, { ...rest, j: items });
    this.#named.delete(channel);
  }

  /** Links `channel` to the checkpoint `from` that holds its unchanged value. */
  carry(channel: string, from: string, state: KnownList | undefined): void {
    this.drop(channel);
    this.#carried.set(channel, from);
    if (state !== undefined && state.holder === from) this.#states.set(channel, state);
  }

  /** Forgets whatever was decided for `channel`. */
  drop(channel: string): void {
    this.#values.delete(channel);
    this.#lists.delete(channel);
    this.#carried.delete(channel);
    this.#states.delete(channel);
    this.#named.delete(channel);
  }

  /** The checkpoints this row links to, with the channels that need each (and the row SHA-256 a list piece names). */
  links(): Map<string, { channel: string; sha?: string }[]> {
    const out = new Map<string, { channel: string; sha?: string }[]>();
    const add = (from: string, link: { channel: string; sha?: string }) => {
      if (from === this.id) return;
      const list = out.get(from);
      if (list) list.push(link);
      else out.set(from, [link]);
    };
    for (const [channel, from] of this.#carried) add(from, { channel });
    for (const [channel, piece] of this.#lists) add(piece.from, { channel, sha: piece.sha });
    return out;
  }

  /** The row payload as decided now. */
  payload(): CheckpointPayload {
    const h = this.header as NonNullable<PutPlan['header']>;
    const values = [...this.#values.values()];
    const items = values.some((v) => v.form === 'items') || [...this.#lists.values()].some((piece) => piece.form === 'items');
    const split = values.some((v) => v.parts !== undefined);
    return {
      langgraph: this.#named.size > 0 ? 4 : items ? 3 : this.#lists.size > 0 || split ? 2 : 1,
      thread_id: this.thread,
      checkpoint_ns: this.ns,
      checkpoint_id: this.id,
      parent_checkpoint_id: h.parent,
      checkpoint: h.checkpoint,
      metadata: h.metadata,
      values: recordOf(this.#values),
      carried: recordOf(this.#carried),
      ...(this.#lists.size > 0 ? { lists: recordOf(this.#lists) } : {}),
    };
  }

  /** The list states of this checkpoint, with this row's SHA-256 filled in. */
  listStates(sha: string): Map<string, KnownList> {
    for (const [channel, state] of this.#states) if (state.holder === this.id) this.#states.set(channel, { ...state, sha });
    return this.#states;
  }

  /** The row whole, when it fits in one row; `undefined` when it needs parts. Changes nothing in the plan. */
  prepareWhole(tx: CheckpointStore, input: CreateCheckpointInput): PreparedCheckpoint | undefined {
    const last = this.#whole;
    if (last !== undefined && last.payload === input.payload) return last.prepared;
    const prepared = tryPrepare(tx, input);
    this.#whole = { payload: input.payload, prepared };
    return prepared;
  }

  /**
   * Prepares the row, first moving the largest values (or appended items) into part rows when it
   * is over the store's payload limit, each part within it (format/parts.ts).
   *
   * @throws CheckpointValidationError naming the checkpoint, its size without values and `maxPayloadBytes`.
   */
  prepare(tx: CheckpointStore, input: CreateCheckpointInput, namespace: string): { prepared: PreparedCheckpoint; parts: PreparedCheckpoint[] } {
    const first = this.prepareWhole(tx, input);
    if (first !== undefined) return { prepared: first, parts: [] };
    // A row with parts holds its pieces' items itself: a piece is either named writes or parts.
    if (this.#named.size > 0) {
      for (const channel of [...this.#named.keys()]) this.holdItems(channel);
      input.payload = this.payload();
      const whole = this.prepareWhole(tx, input);
      if (whole !== undefined) return { prepared: whole, parts: [] };
    }
    const movable: Movable[] = [];
    for (const [channel, value] of this.#values) movable.push({ channel, cut: cutValue(value), replace: (v) => this.#values.set(channel, v) });
    for (const [channel, piece] of this.#lists) {
      const { j, ...rest } = piece;
      const replace = (v: StoredValue) => this.#lists.set(channel, { ...rest, parts: v.parts ?? [], ...(v.form === 'items' ? { form: 'items' } : {}) });
      movable.push({ channel, cut: cutValue({ t: 'json', j: (j ?? []) as JsonValue }), replace });
    }
    const target = { namespace, thread: this.thread, ns: this.ns, checkpointId: this.id, what: `checkpoint ${this.id} of thread '${this.thread}'` };
    const fitted = moveToParts(tx, input, movable, target, (k) => partRef(this.thread, this.ns, this.id, k), 0, () => (input.payload = this.payload()));
    if (fitted !== undefined) return fitted;
    throw new CheckpointValidationError(
      `LangGraph checkpoint ${this.id} of thread '${this.thread}' is about ${JSON.stringify(this.payload()).length} bytes even with every channel value in part rows, over the store's maxPayloadBytes (${tx.limits.maxPayloadBytes}): ` +
        'its checkpoint and metadata alone are too large; raise the limit, e.g. openSqliteStore(path, { limits: { maxPayloadBytes } })',
    );
  }
}

/**
 * List values last stored or handed out, per checkpoint key: what the next put may extend. Keeps
 * JSON of its own, never the caller's objects. Bounded twice: at most `maxEntries` checkpoints,
 * and at most `maxBytes` of their lists counted as serialized JSON, as one weight (a checkpoint
 * weighs its lists' bytes, and at least `maxBytes / maxEntries`). Successive states of one list
 * share most item objects, so the memory held is usually well below it. A checkpoint whose lists
 * weigh over half of `maxBytes` is not kept: its next put stores them in full (bytes in the store,
 * never a wrong value).
 */
export class ListStates extends TwoGenerationCache<string, Map<string, KnownList>> {
  constructor(maxEntries: number, maxBytes: number) {
    // With maxBytes 0 nothing is kept: every checkpoint weighs at least 1.
    const floor = Math.max(maxBytes / maxEntries, 1);
    super(maxBytes, (lists) => {
      let bytes = 0;
      for (const state of lists.values()) bytes += state.s + state.d;
      return Math.max(bytes, floor);
    });
  }
}
