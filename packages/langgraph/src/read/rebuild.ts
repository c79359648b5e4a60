import { CheckpointIntegrityError, type Checkpoint as StoredRow, type CheckpointStore } from '@session-checkpoint/core';
import { namedWriteRefs, resolveSegments } from './named-writes.js';
import { jsonBytes, own } from '../format/json.js';
import { joinValue } from '../format/parts.js';
import { channelsOf, CHECKPOINT_KIND, WRITE_KIND, checkpointPayload, isCheckpointRow, valuePartRefs, type ChainCounts, type CheckpointPayload, type ListPiece, type StoredValue } from '../format/payloads.js';
import { checkpointPrefix, checkpointRef, partRef } from '../format/refs.js';
import { rowsByPrefix, rowsByRef } from './entries.js';
import type { ParsedPayloads, RowReads } from './parsed-payloads.js';

/*
 * Rebuilds channel values from the rows that hold them: in full (`values`, maybe in part rows), as
 * items appended to an earlier value (`lists`), or in the row a link names (`carried`). The store
 * verifies every row; links name rows and, for pieces and parts, their payload SHA-256, so a value
 * rebuilt here is the value that was put, or a CheckpointIntegrityError naming checkpoint and channel.
 */

/** A checkpoint row as read: its payload, its verified payload SHA-256 and its row id. */
export interface RowInfo {
  p: CheckpointPayload;
  sha: string;
  rowId: number;
}

/** Where a list's last piece lives, and the snapshot rule's counts: what the next put extends. */
export interface ListPlace extends ChainCounts {
  /** Checkpoint whose row holds the value (in full or as its last piece). */
  holder: string;
  /** That row's payload SHA-256; `undefined` until the row is written. */
  sha: string | undefined;
}

/**
 * A list value as the saver keeps it for the next put: where it lives and each item's JSON as
 * stored, by position (a read hands that JSON out itself: it is copied before it is kept).
 */
export interface KnownList extends ListPlace {
  stored: readonly unknown[];
}

/** A rebuilt value: what to load and, for a list, where it lives. */
export interface Rebuilt {
  stored: StoredValue;
  state?: ListPlace;
  /** Some of it is in a payload that serves other reads too (read/parsed-payloads.ts): hand out copies only. */
  shared: boolean;
}

/** The key of a (thread, namespace) group of rows. */
const groupKey = (p: { thread_id: string; checkpoint_ns: string }): string => `${p.thread_id}\u0000${p.checkpoint_ns}`;

/** (thread, namespace) groups whose rows a walk keeps (see {@link ChannelRebuilder.release}). */
const WALK_GROUPS = 8;

function integrity(p: CheckpointPayload, channel: string, reason: string, rowId: number): CheckpointIntegrityError {
  return new CheckpointIntegrityError(`LangGraph checkpoint ${p.checkpoint_id} of thread '${p.thread_id}': channel '${channel}' cannot be rebuilt: ${reason}`, {
    failures: [{ id: rowId, reason: `channel '${channel}': ${reason}` }],
  });
}

/**
 * Loads the rows checkpoints read their values from, then rebuilds the values: for one checkpoint
 * ({@link load} once), or a walk newest first ({@link load} per checkpoint, then {@link release}),
 * which keeps the rows of the chains it is in (its ancestors read them too), not the thread.
 */
export class ChannelRebuilder {
  readonly #parts = new Map<string, StoredRow>();
  /**
   * The refs of the pending-writes rows among {@link #parts} (pieces of row format 4 name them),
   * by the ref of their checkpoint: what {@link #forget} lets go with that checkpoint's row.
   */
  readonly #writeRefs = new Map<string, Set<string>>();
  /** Rebuilt values by row, then channel (object keys: no key strings built per lookup). */
  readonly #memo = new Map<RowInfo, Map<string, Rebuilt>>();
  /** The loaded rows of each (thread, namespace) by checkpoint id, and each row's group. */
  readonly #groups = new Map<string, Map<string, RowInfo>>();
  readonly #groupOf = new Map<RowInfo, Map<string, RowInfo>>();
  /** Distinct checkpoints loaded. */
  #count = 0;
  /** The last walk of {@link #linked}, until a row is added. */
  #walk: { r: RowInfo; ch: string; link: string | undefined }[] | undefined;
  /** The checkpoint whose values the last {@link load} made readable. */
  #entry: RowInfo | undefined;

  constructor(
    private readonly store: RowReads,
    private readonly namespace: string,
    /** Where the rows' payloads may be shared from (`store` reads through it). */
    private readonly memo?: ParsedPayloads,
  ) {}

  /** True when the payload of `r` serves other reads too. */
  #shares(r: RowInfo): boolean {
    return this.memo?.shares(r.p) ?? false;
  }

  #put(info: RowInfo): void {
    const { p } = info;
    let group = this.#groups.get(groupKey(p));
    if (!group) this.#groups.set(groupKey(p), (group = new Map()));
    // A row read again (an entry, then the range of its chain) is the same verified row: keep the first.
    if (group.has(p.checkpoint_id)) return;
    this.#count++;
    group.set(p.checkpoint_id, info);
    this.#groupOf.set(info, group);
    this.#walk = undefined;
  }

  /**
   * For a walk newest first: lets go of the rows of `p`'s (thread, namespace) with ids from `p`'s
   * up, which older checkpoints do not read (a next {@link load} reads one again if needed), and of
   * all but the last few groups released.
   */
  release(p: CheckpointPayload): void {
    const key = groupKey(p);
    const group = this.#groups.get(key);
    if (!group) return;
    // Its own row too: its values went out uncopied (see ownValue), so it must not serve again.
    for (const [id, r] of group) if (id >= p.checkpoint_id) this.#forget(group, id, r);
    // A walk across threads visits many: keep the rows of the few visited last (Map order).
    this.#groups.delete(key);
    this.#groups.set(key, group);
    for (const [k, other] of this.#groups) {
      if (this.#groups.size <= WALK_GROUPS) break;
      for (const [id, r] of other) this.#forget(other, id, r);
      this.#groups.delete(k);
    }
  }

  /** Forgets a row let go by {@link release}, with its memo and part rows. */
  #forget(group: Map<string, RowInfo>, id: string, r: RowInfo): void {
    group.delete(id);
    this.#groupOf.delete(r);
    this.#memo.delete(r);
    for (const ref of valuePartRefs(r.p)) this.#parts.delete(ref);
    // Pending-writes rows of this checkpoint (see #add and #loadParts).
    if (this.#writeRefs.size > 0) {
      const at = checkpointRef(r.p.thread_id, r.p.checkpoint_ns, id);
      for (const ref of this.#writeRefs.get(at) ?? []) this.#parts.delete(ref);
      this.#writeRefs.delete(at);
    }
    this.#count--;
    this.#walk = undefined;
  }

  /**
   * The value of `channel` that the row of `p` itself holds in full, unsplit, if any: in a walk
   * the one value a tuple may take uncopied, since {@link release} then lets that row go.
   */
  ownValue(p: CheckpointPayload, channel: string): StoredValue | undefined {
    return own(this.#row(p)?.p.values, channel);
  }

  /** The loaded row of checkpoint `id` in the same thread and namespace as `r`. */
  #sibling(r: RowInfo, id: string): RowInfo | undefined {
    return this.#groupOf.get(r)?.get(id);
  }

  /** The loaded row of `p`. */
  #row(p: CheckpointPayload): RowInfo | undefined {
    return this.#groups.get(groupKey(p))?.get(p.checkpoint_id);
  }

  /**
   * Reads every row the values of `e` need that is not loaded yet: a range read per chain, then
   * exact refs until none is missing.
   */
  async load(e: RowInfo): Promise<void> {
    this.#put(e);
    this.#entry = e;
    this.#walk = undefined;
    try {
      await this.#loadRows();
      await this.#loadParts();
    } catch (error) {
      if (!(error instanceof CheckpointIntegrityError)) throw error;
      // A damaged row among those the values read: name the checkpoint and its channels.
      throw new CheckpointIntegrityError(
        `LangGraph checkpoint ${e.p.checkpoint_id} of thread '${e.p.thread_id}': channel '${channelsOf(e.p).join("', '")}' cannot be rebuilt: ${error.message}`,
        { failures: error.failures, cause: error },
      );
    }
  }

  async #loadRows(): Promise<void> {
    // Each round reads one range covering the list chains not loaded (links stay in the checkpoint's
    // thread and namespace), plus the other links by ref. A carried value can lead to a chain
    // unknown before, so rounds go on while they bring rows (a fixed cap of 64 rounds left long
    // chats' values unreadable).
    for (;;) {
      const before = this.#count;
      const outside = this.#missing();
      // From the oldest snapshot to the newest row of the list chains whose earlier rows are not loaded.
      let range: { p: CheckpointPayload; lo: string; hi: string } | undefined;
      // Pieces that name pending writes (row format 4): the range brings the write rows they name too.
      let writes = false;
      for (const { r, ch } of this.#linked()) {
        const piece = own(r.p.lists, ch);
        if (piece === undefined || this.#sibling(r, piece.from)) continue;
        if (piece.w !== undefined) writes = true;
        range ??= { p: r.p, lo: piece.since, hi: r.p.checkpoint_id };
        if (piece.since < range.lo) range.lo = piece.since;
        if (r.p.checkpoint_id > range.hi) range.hi = r.p.checkpoint_id;
      }
      if (outside.size === 0 && range === undefined) return;
      const reads: Promise<void>[] = [];
      if (range !== undefined) {
        const { p, lo, hi } = range;
        const [from, to] = [checkpointRef(p.thread_id, p.checkpoint_ns, lo), checkpointRef(p.thread_id, p.checkpoint_ns, hi)];
        // Refs inside the range are read by it (the snapshot, a chain's largest row, is always one).
        for (const ref of outside) if (ref >= from && ref < to) outside.delete(ref);
        // `after` is exclusive: one character less keeps the snapshot row itself in the range.
        // Only checkpoint rows, unless pieces name writes: the write rows between them are then what
        // those pieces hold (one range read instead of a lookup per row), else unused here.
        const kind = writes ? {} : { kind: CHECKPOINT_KIND };
        reads.push(this.#add(rowsByPrefix(this.store, { namespace: this.namespace, prefix: checkpointPrefix(p.thread_id, p.checkpoint_ns), after: from.slice(0, -1), before: to, ...kind })));
      }
      if (outside.size > 0) reads.push(this.#add(this.store.findBySourceRefs(this.namespace, [...outside])));
      await Promise.all(reads);
      if (this.#count === before) return; // truly missing: the rebuild names it
    }
  }

  /**
   * Files a pending-writes row of {@link #parts} under its checkpoint's ref: a write's ref is that
   * ref and "/<task>", and no part of a ref holds a "/" of its own (format/refs.ts).
   */
  #indexWrite(ref: string): void {
    const at = ref.slice(0, ref.lastIndexOf('/'));
    let refs = this.#writeRefs.get(at);
    if (refs === undefined) this.#writeRefs.set(at, (refs = new Set()));
    refs.add(ref);
  }

  /** Loads the checkpoint rows among `rows`. */
  async #add(rows: AsyncIterable<StoredRow> | Promise<StoredRow[]>): Promise<void> {
    for await (const row of await rows) {
      if (isCheckpointRow(row)) this.#put({ p: checkpointPayload(row), sha: row.payloadSha256, rowId: row.id });
      // A pending-writes row a piece may name (read/named-writes.ts), kept by its ref.
      else if (row.kind === WRITE_KIND && row.sourceRef !== null) {
        this.#parts.set(row.sourceRef, row);
        this.#indexWrite(row.sourceRef);
      }
    }
  }

  /**
   * Every (loaded row, channel) a needed value passes through, from the checkpoint back to its full
   * copy, each pair once; a link to a row not loaded ends the walk. Kept until a row is added.
   */
  #linked(): { r: RowInfo; ch: string; link: string | undefined }[] {
    if (this.#walk) return this.#walk;
    const out: { r: RowInfo; ch: string; link: string | undefined }[] = [];
    const seen = new Map<RowInfo, Set<string>>();
    const stack: [RowInfo, string][] = [];
    if (this.#entry !== undefined) {
      const { p } = this.#entry;
      for (const ch of channelsOf(p)) stack.push([this.#row(p) as RowInfo, ch]);
    }
    while (stack.length > 0) {
      const [r, ch] = stack.pop() as [RowInfo, string];
      let chans = seen.get(r);
      if (!chans) seen.set(r, (chans = new Set()));
      if (chans.has(ch)) continue;
      chans.add(ch);
      // The checkpoint the value continues from: a list piece's `from`, a carried holder.
      const link = Object.hasOwn(r.p.values, ch) ? undefined : (own(r.p.lists, ch)?.from ?? own(r.p.carried, ch));
      out.push({ r, ch, link });
      const next = link === undefined ? undefined : this.#sibling(r, link);
      if (next) stack.push([next, ch]);
    }
    this.#walk = out;
    return out;
  }

  /** Refs of rows some needed value links to and that are not loaded. */
  #missing(): Set<string> {
    const out = new Set<string>();
    const need = (r: RowInfo, id: string) => {
      if (!this.#sibling(r, id)) out.add(checkpointRef(r.p.thread_id, r.p.checkpoint_ns, id));
    };
    for (const { r, ch, link } of this.#linked()) {
      if (link !== undefined) need(r, link);
      const since = own(r.p.lists, ch)?.since;
      if (since !== undefined) need(r, since);
    }
    return out;
  }

  /**
   * Every part row of the values the checkpoint needs, and every pending-writes row a list piece
   * names (row format 4), in one call; then the kept copies of named rows replaced since (rare).
   */
  async #loadParts(): Promise<void> {
    const refs: string[] = [];
    // A set: a row whose pieces name writes on several channels is asked for once.
    const named = new Set<CheckpointPayload>();
    for (const { r, ch } of this.#linked()) {
      const piece = own(r.p.lists, ch);
      if (piece?.w !== undefined) named.add(r.p);
      for (const part of (own(r.p.values, ch) ?? piece)?.parts ?? []) refs.push(partRef(r.p.thread_id, r.p.checkpoint_ns, r.p.checkpoint_id, part.k));
    }
    for (const p of named) for (const ref of namedWriteRefs(p)) if (!this.#parts.has(ref)) refs.push(ref);
    await rowsByRef(this.store, this.namespace, [...new Set(refs)], this.#parts);
    if (named.size === 0) return;
    // The pending-writes rows just read (their refs are `lg/`, part rows' `lgp/`).
    for (const ref of refs) if (ref.startsWith('lg/') && this.#parts.has(ref)) this.#indexWrite(ref);
    const kept: string[] = [];
    for (const p of named) for (const ref of namedWriteRefs(p, this.#parts)) if (!this.#parts.has(ref)) kept.push(ref);
    if (kept.length > 0) await rowsByRef(this.store, this.namespace, [...new Set(kept)], this.#parts);
  }

  /** The value of `channel` at the checkpoint `p` (one of the rows loaded). */
  value(p: CheckpointPayload, channel: string, rowId: number): Rebuilt {
    const pieces: { r: RowInfo; piece: ListPiece }[] = [];
    let r = this.#row(p);
    let id = p.checkpoint_id;
    let base: Rebuilt | undefined;
    let shared = false;
    for (let steps = 0; ; steps++) {
      if (!r) throw integrity(p, channel, `the row of checkpoint ${id} is missing`, rowId);
      base = this.#memo.get(r)?.get(channel);
      if (base) break;
      if (steps > this.#count) throw integrity(p, channel, 'its rows link in a cycle', rowId);
      const full = own(r.p.values, channel);
      if (full !== undefined) {
        // The full value: a list (the snapshot of its chain) is where the next piece may start.
        const joined = full.parts === undefined ? { stored: full, shared: this.#shares(r) } : this.#joined(r, channel, full, p, rowId);
        const stored = joined.stored;
        const list = stored.t === 'json' && Array.isArray(stored.j);
        const state = list ? { holder: r.p.checkpoint_id, sha: r.sha, since: r.p.checkpoint_id, d: 0, s: full.s ?? jsonBytes(stored.j), c: 0 } : undefined;
        base = { stored, ...(state ? { state } : {}), shared: joined.shared };
        let byChannel = this.#memo.get(r);
        if (!byChannel) this.#memo.set(r, (byChannel = new Map()));
        byChannel.set(channel, base);
        break;
      }
      const piece = own(r.p.lists, channel);
      if (piece !== undefined) {
        const from = this.#sibling(r, piece.from);
        if (!from) throw integrity(p, channel, `the piece before checkpoint ${r.p.checkpoint_id}, in checkpoint ${piece.from}, is missing`, rowId);
        if (from.sha !== piece.sha) throw integrity(p, channel, `the row of checkpoint ${piece.from} is not the one checkpoint ${r.p.checkpoint_id} extends (SHA-256 differs)`, rowId);
        pieces.push({ r, piece });
        [r, id] = [from, piece.from];
      } else if (Object.hasOwn(r.p.carried, channel)) {
        id = r.p.carried[channel] as string;
        r = this.#sibling(r, id);
      } else throw integrity(p, channel, `checkpoint ${r.p.checkpoint_id} has no value for it`, rowId);
    }
    // Forward from the full value: each piece must start where the value before it ends.
    shared ||= base.shared;
    let len = Array.isArray(base.stored.j) ? base.stored.j.length : -1;
    const tail: unknown[][] = [];
    let state = base.state;
    for (const { r, piece } of pieces.reverse()) {
      if (len !== piece.n) throw integrity(p, channel, `checkpoint ${r.p.checkpoint_id} extends ${piece.n} items, the value it extends has ${len < 0 ? 'none' : len}`, rowId);
      let items: unknown;
      if (piece.j !== undefined) {
        items = piece.j;
        shared ||= this.#shares(r);
      } else if (piece.w !== undefined) {
        // Inline segments come from this row, named writes from their rows: any of them may be a
        // kept payload (parsed-payloads.ts), so the value is shared if one of them is.
        shared ||= this.#shares(r);
        const rowOf = (ref: string): StoredRow | undefined => {
          const row = this.#parts.get(ref);
          if (row !== undefined && this.memo?.shares(row.payload)) shared = true;
          return row;
        };
        items = resolveSegments(r.p, piece, rowOf, (reason) => integrity(p, channel, `the items of checkpoint ${r.p.checkpoint_id}: ${reason}`, rowId), channel);
      } else {
        const joined = this.#joined(r, channel, { t: 'json', parts: piece.parts ?? [], ...(piece.form === 'items' ? { form: 'items' } : {}) }, p, rowId);
        items = joined.stored.j;
        shared ||= joined.shared;
      }
      if (!Array.isArray(items)) throw integrity(p, channel, `the items of checkpoint ${r.p.checkpoint_id} are not a list`, rowId);
      len += items.length;
      tail.push(items);
      state = { holder: r.p.checkpoint_id, sha: r.sha, since: piece.since, d: piece.d, s: piece.s, c: piece.c };
    }
    if (tail.length === 0) return base;
    return { stored: { t: 'json', j: (base.stored.j as unknown[]).concat(...tail) as StoredValue['j'] }, ...(state ? { state } : {}), shared };
  }

  /** A value of `r`'s row joined from its part rows (see format/parts.ts); shared when a part's payload is. */
  #joined(r: RowInfo, channel: string, v: StoredValue, p: CheckpointPayload, rowId: number): { stored: StoredValue; shared: boolean } {
    // A value joined from text is parsed here, for this read alone; items (and the rest of an object
    // cut around its list) are the part rows' and the owning row's own objects.
    let shared = v.form === 'items' && this.#shares(r);
    const rowOf = (k: number) => {
      const row = this.#parts.get(partRef(r.p.thread_id, r.p.checkpoint_ns, r.p.checkpoint_id, k));
      if (row !== undefined && v.form === 'items' && this.memo?.shares(row.payload)) shared = true;
      return row;
    };
    const stored = joinValue(v, rowOf, (reason) => integrity(p, channel, `its value in checkpoint ${r.p.checkpoint_id}: ${reason}`, rowId));
    return { stored, shared };
  }
}

/** The values of the channels of `entry` (those in `only`, when given) as stored: joined from their rows, not revived. */
export async function storedValues(store: RowReads, namespace: string, entry: RowInfo, only?: ReadonlySet<string>): Promise<Map<string, StoredValue>> {
  const out = new Map<string, StoredValue>();
  for (const [ch, rebuilt] of await rebuiltValues(store, namespace, entry, only)) out.set(ch, rebuilt.stored);
  return out;
}

/** {@link storedValues}, each with whether it shares objects with other reads (`store` reading through `memo`). */
export async function rebuiltValues(store: RowReads, namespace: string, entry: RowInfo, only?: ReadonlySet<string>, memo?: ParsedPayloads): Promise<Map<string, Rebuilt>> {
  const out = new Map<string, Rebuilt>();
  const channels = channelsOf(entry.p).filter((ch) => only === undefined || only.has(ch));
  if (channels.length === 0) return out;
  const rebuilder = new ChannelRebuilder(store, namespace, memo);
  await rebuilder.load(entry);
  for (const ch of channels) out.set(ch, rebuilder.value(entry.p, ch, entry.rowId));
  return out;
}
