import type { Checkpoint, CheckpointStore } from '@session-checkpoint/core';
import { TwoGenerationCache } from '@session-checkpoint/core/toolkit';
import { valuesOf, type ValuePayload } from './values.js';

/*
 * A page of messages is read again and again (an agent's recall at every turn, a history browsed
 * back and forth), and after the store has verified its rows (a hash, or its verified-text memo)
 * most of what is left of our part of the read is `JSON.parse` of each row's payload: about
 * 1.3 µs for a 770-byte message, most of it the message's small keys and short values (its id,
 * thread, resource, role, type, time), which a store of columns pays in its driver instead. A
 * copy of the same value, parsed before, costs about a sixth of that (decision 0051).
 *
 * So the values of inline rows are kept by the payload SHA-256 the store verified the row under:
 * a verified row with that SHA-256 holds exactly the text the kept value was parsed from (a
 * different text would need a SHA-256 collision, or fail the store's check before it gets here).
 * Every read hands out a fresh deep copy, as `JSON.parse` would: the caller (Mastra's
 * `MessageList`) changes the messages it gets, and the kept value must never be reachable.
 *
 * As the store's own memo, a value is kept from its row's second read on, not its first: a kept
 * value outlives the young generation, which costs the garbage collector more than the parse it
 * saves for a row read once (docs/decisions/0013-first-reads-leave-less-garbage.md).
 */

/** Payload text kept for, in UTF-16 code units of the rows' texts, per domain object (about 4 MB of values at most). */
const BUDGET = 4 * 1024 * 1024;
/** A row longer than this is never kept (a few large ones would push out a page of small ones). */
const MAX_TEXT = BUDGET / 64;
/** Hashes noted as read once, per generation of {@link ParsedValues}'s note of them. */
const SEEN_GENERATION = 8192;

/**
 * A deep copy of a JSON value as `JSON.parse` built it: own keys in their order, `__proto__` an
 * own key. Objects and arrays are copied by spread and `slice`, which give the copy the hidden
 * class (and elements kind) of its source, the one `JSON.parse` gave it: `MessageList` runs
 * type checks over every pair of a page's messages, and copies built key by key, of other hidden
 * classes than the messages parsed elsewhere, made it about 50 µs slower a page (decision 0051).
 */
export function copyJson(value: unknown): unknown {
  if (typeof value !== 'object' || value === null) return value;
  if (Array.isArray(value)) {
    const out = value.slice();
    for (let i = 0; i < out.length; i++) {
      const item: unknown = out[i];
      if (typeof item === 'object' && item !== null) out[i] = copyJson(item);
    }
    return out;
  }
  const out: Record<string, unknown> = { ...(value as Record<string, unknown>) };
  for (const key of Object.keys(out)) {
    const item = out[key];
    if (typeof item !== 'object' || item === null) continue;
    if (key === '__proto__') Object.defineProperty(out, key, { value: copyJson(item), enumerable: true, writable: true, configurable: true });
    else out[key] = copyJson(item);
  }
  return out;
}

/**
 * Values of inline value rows parsed before, by the SHA-256 of their payload, in two generations
 * bounded by the length of their texts (core's `TwoGenerationCache`: the recently used kept).
 *
 * @example
 * ```ts
 * const parsed = new ParsedValues();
 * const values = await parsed.valuesOf(store, 'mastra', rows); // as valuesOf(store, 'mastra', rows)
 * ```
 */
export class ParsedValues {
  readonly #kept = new TwoGenerationCache<string, { value: unknown; weight: number }>(BUDGET, (entry) => entry.weight);
  /** Hashes read once, not yet kept (a value is kept from its row's second read on). */
  readonly #seenOnce = new TwoGenerationCache<string, true>(2 * SEEN_GENERATION);

  /** As {@link valuesOf} (the same values, the same errors), parsing only rows whose value is not kept. */
  async valuesOf(store: CheckpointStore, namespace: string, rows: readonly Checkpoint[]): Promise<unknown[]> {
    const out = new Array<unknown>(rows.length);
    let missing: number[] | undefined;
    for (let i = 0; i < rows.length; i++) {
      const kept = this.#kept.get((rows[i] as Checkpoint).payloadSha256);
      if (kept === undefined) (missing ??= []).push(i);
      else out[i] = copyJson(kept.value);
    }
    if (missing === undefined) return out;
    const parsed = await valuesOf(store, namespace, missing.map((i) => rows[i] as Checkpoint));
    missing.forEach((i, k) => {
      const row = rows[i] as Checkpoint;
      out[i] = parsed[k];
      if ((row.payload as ValuePayload).parts !== undefined || row.payloadJson.length > MAX_TEXT) return;
      if (this.#seenOnce.delete(row.payloadSha256)) this.#kept.set(row.payloadSha256, { value: copyJson(parsed[k]), weight: row.payloadJson.length });
      else this.#seenOnce.set(row.payloadSha256, true);
    });
    return out;
  }

  /** Forgets every kept value (the domain's reset). */
  clear(): void {
    this.#kept.deleteKeys(() => true);
    this.#seenOnce.deleteKeys(() => true);
  }
}
