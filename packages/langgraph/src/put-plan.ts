import { CheckpointValidationError, type CheckpointStore, type CreateCheckpointInput, type JsonValue, type PreparedCheckpoint } from '@session-checkpoint/core';
import { extensionOf, type KnownList } from './list-state.js';
import type { CheckpointPayload, ListPiece } from './row-payloads.js';
import { partRef } from './source-refs.js';
import { cutValue, splitValue, tryPrepare, type ValueCut } from './split-value.js';
import type { StoredValue } from './stored-value.js';
import { isList, type Captured } from './value-capture.js';
import { jsonBytes } from './value-parts.js';

/*
 * The second step of a put (after value-capture.ts, before the rows): what it stores for each
 * channel, in full (`values`), as the items appended to the value of an earlier checkpoint
 * (`lists`), or a link to the checkpoint that holds it unchanged (`carried`); then the row, split
 * into part rows when too large (split-value.ts). Everything here works on captured text and
 * parsed JSON, never on the caller's objects, and nothing here serialises.
 */

/** Lists below this size are never worth a chain: the snapshot rule counts them as this big. */
export const MIN_SNAPSHOT_BYTES = 16 * 1024;

/** Sets an own property, whatever its name (`__proto__` included). */
function setOwn<V>(target: Record<string, V>, key: string, value: V): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}

function record<V>(map: Map<string, V>): Record<string, V> {
  const out: Record<string, V> = {};
  for (const [k, v] of map) setOwn(out, k, v);
  return out;
}

/** The part of a checkpoint payload that is not channel values. */
interface Header {
  parent: string | null;
  checkpoint: StoredValue;
  metadata: StoredValue;
}

/** The channel values of one put, decided channel by channel. */
export class PutPlan {
  readonly #values = new Map<string, StoredValue>();
  readonly #lists = new Map<string, ListPiece>();
  readonly #carried = new Map<string, string>();
  readonly #states = new Map<string, KnownList>();
  /** True once a channel was re-decided after the first payload was built. */
  changed = false;
  #header: Header | undefined;
  /**
   * The last whole-row attempt, by payload object: a put tries the row whole before its
   * transaction and again inside it, and a payload over the limit is canonicalised in full before
   * it is refused, so the second try reuses the first while the payload is the same object.
   */
  #whole: { payload: unknown; prepared: PreparedCheckpoint | undefined } | undefined;

  constructor(
    readonly thread: string,
    readonly ns: string,
    readonly id: string,
    private readonly snapshotRatio: number,
    /** Longest chain of pieces (retention keeps a chain whole: this bounds what it keeps back). */
    private readonly maxChain: number,
  ) {}

  /**
   * Stores the captured value of `channel` as an extension of `previous` when its leading items
   * are, by content, the items of `previous` (see list-state.ts) and the snapshot rule allows;
   * else in full.
   */
  store(channel: string, value: Captured, previous: KnownList | undefined): void {
    this.drop(channel);
    if (!isList(value)) {
      this.#values.set(channel, value.stored);
      return;
    }
    if (value.t === 'json' && previous?.sha !== undefined && previous.holder !== this.id && this.snapshotRatio > 0 && previous.c < this.maxChain) {
      const n = extensionOf(value.items, previous);
      if (n !== undefined) {
        const appended = value.items.slice(n);
        const d = previous.d + jsonBytes(appended);
        // The snapshot rule: a chain never outgrows snapshotRatio x its snapshot.
        if (d <= this.snapshotRatio * Math.max(previous.s, MIN_SNAPSHOT_BYTES)) {
          this.#lists.set(channel, { t: 'json', from: previous.holder, sha: previous.sha, n, since: previous.since, d, s: previous.s, c: previous.c + 1, j: appended });
          this.#states.set(channel, { stored: previous.stored.concat(appended), holder: this.id, sha: undefined, since: previous.since, d, s: previous.s, c: previous.c + 1 });
          return;
        }
      }
    }
    const s = jsonBytes(value.items);
    this.#values.set(channel, { t: value.t, j: value.items, s });
    this.#states.set(channel, { stored: value.items, holder: this.id, sha: undefined, since: this.id, d: 0, s, c: 0 });
  }

  /** Links `channel` to the checkpoint `from` that holds its unchanged value. */
  carry(channel: string, from: string, state: KnownList | undefined): void {
    this.drop(channel);
    this.#carried.set(channel, from);
    if (state !== undefined && state.holder === from) this.#states.set(channel, state);
  }

  /** Forgets whatever was decided for `channel`. */
  drop(channel: string): void {
    if (this.#header !== undefined) this.changed = true;
    this.#values.delete(channel);
    this.#lists.delete(channel);
    this.#carried.delete(channel);
    this.#states.delete(channel);
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

  /** The row payload; the header (parent, checkpoint, metadata) is kept for later rebuilds. */
  payload(parent: string | null, checkpoint: StoredValue, metadata: StoredValue): CheckpointPayload {
    this.#header = { parent, checkpoint, metadata };
    this.changed = false;
    return this.#build();
  }

  #build(): CheckpointPayload {
    const h = this.#header as Header;
    const values = [...this.#values.values()];
    const items = values.some((v) => v.form === 'items') || [...this.#lists.values()].some((piece) => piece.form === 'items');
    const split = values.some((v) => v.parts !== undefined);
    return {
      langgraph: items ? 3 : this.#lists.size > 0 || split ? 2 : 1,
      thread_id: this.thread,
      checkpoint_ns: this.ns,
      checkpoint_id: this.id,
      parent_checkpoint_id: h.parent,
      checkpoint: h.checkpoint,
      metadata: h.metadata,
      values: record(this.#values),
      carried: record(this.#carried),
      ...(this.#lists.size > 0 ? { lists: record(this.#lists) } : {}),
    };
  }

  /** Channel -> checkpoint whose row holds its value (this one for values and list pieces). */
  holders(): Record<string, string> {
    const out: Record<string, string> = {};
    for (const channel of this.#values.keys()) setOwn(out, channel, this.id);
    for (const channel of this.#lists.keys()) setOwn(out, channel, this.id);
    for (const [channel, from] of this.#carried) setOwn(out, channel, from);
    return out;
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
   * is over the store's payload limit, each part within it (see split-value.ts).
   *
   * @throws CheckpointValidationError naming the checkpoint, its size without values and `maxPayloadBytes`.
   */
  prepare(tx: CheckpointStore, input: CreateCheckpointInput, namespace: string): { prepared: PreparedCheckpoint; parts: PreparedCheckpoint[] } {
    const first = this.prepareWhole(tx, input);
    if (first !== undefined) return { prepared: first, parts: [] };
    const max = tx.limits.maxPayloadBytes;
    const candidates: { channel: string; list: boolean; cut: ValueCut }[] = [];
    for (const [channel, value] of this.#values) candidates.push({ channel, list: false, cut: cutValue(value) });
    for (const [channel, piece] of this.#lists) candidates.push({ channel, list: true, cut: cutValue({ t: 'json', j: (piece.j ?? []) as JsonValue }) });
    candidates.sort((a, b) => b.cut.bytes - a.cut.bytes);
    const parts: PreparedCheckpoint[] = [];
    const target = { namespace, thread: this.thread, ns: this.ns, checkpointId: this.id, what: `checkpoint ${this.id} of thread '${this.thread}'` };
    for (const c of candidates) {
      const split = splitValue(tx, target, c.channel, c.cut, (k) => partRef(this.thread, this.ns, this.id, k), parts.length);
      parts.push(...split.parts);
      if (c.list) {
        const { j: _items, ...rest } = this.#lists.get(c.channel) as ListPiece;
        this.#lists.set(c.channel, { ...rest, parts: split.value.parts ?? [], ...(split.value.form === 'items' ? { form: 'items' } : {}) });
      } else {
        this.#values.set(c.channel, split.value);
      }
      input.payload = this.#build();
      const prepared = tryPrepare(tx, input);
      if (prepared !== undefined) return { prepared, parts };
    }
    const bytes = JSON.stringify(this.#build()).length;
    throw new CheckpointValidationError(
      `LangGraph checkpoint ${this.id} of thread '${this.thread}' is about ${bytes} bytes even with every channel value in part rows, over the store's maxPayloadBytes (${max}): ` +
        'its checkpoint and metadata alone are too large; raise the limit, e.g. openSqliteStore(path, { limits: { maxPayloadBytes } })',
    );
  }
}
