/*
 * A row's payload check is a pure function of two strings: its text and its stored SHA-256 (read
 * limits are fixed per store). Agent loops re-read the same rows at every step: the carried
 * values of the latest checkpoint, the earlier pieces of a growing list, a page of history. This
 * memo keeps the pairs that passed, so that a row whose text and hash are identical to a pair
 * already checked passes by comparing the text in full (a memcmp) instead of hashing it and
 * scanning it again. Any other row, including one whose text differs by a single byte under the
 * same hash, is checked from scratch. Failures are never remembered, and texts come only from
 * rows the store read and checked itself, or from texts it canonicalised and hashed itself to
 * write them ({@link VerifiedPayloads.written}), never from a text and hash a caller handed over.
 *
 * A text is kept from its second passing on, not its first. Keeping one costs the garbage
 * collector: every kept text outlives the young generation and is copied out of it, and on a
 * sweep of rows read once (a history browsed by id, an export-like pass) that copying cost more
 * than the hash it would save (on the LangGraph saver's reads by id, about 10 us per 3.7 KB row:
 * docs/decisions/0013-first-reads-leave-less-garbage.md). So the first passing only notes the hash (a doorkeeper, as
 * in TinyLFU); a row read again is checked once more and then kept, and every read after that
 * is a hit.
 *
 * A row this process writes is kept at the write, not at a read: its text is canonical and its
 * hash was computed of it by the store's own `prepare`, so the pair passes the check by
 * construction, and an agent loop reads its own rows back at the next step (a LangGraph
 * DeltaChannel chat reads every row it wrote since the last snapshot at every `invoke`). The
 * first and second reads of such a row are then comparisons instead of hash and scan. The text
 * kept is the one already in memory for the insert, so the reads' own copies die young. A loop
 * that writes and never reads pays for keeping them (a median 2% per put and 7% per putWrites of
 * the LangGraph saver, within the noise of single rounds); a small buffer for written texts was
 * tried and made the chat's steady turns slower instead (docs/decisions/0040-self-written-rows.md).
 * A row changed in the file after the write differs from the kept text or hash, and is checked
 * from scratch.
 */
import { TwoGenerationCache } from '../cache/two-generation-cache.js';

/** The default of `CheckpointStoreOptions.verifiedTextCache`: 8 Mi UTF-16 code units. */
export const DEFAULT_VERIFIED_TEXT_CACHE = 8 * 1024 * 1024;

/**
 * Hashes noted as passed once (a cache of twice this many, in two generations): a row read again
 * within this many other first passings is kept. At most 16 Ki hashes, about 1.4 MB; a re-read
 * comes within a step or a page.
 */
const SEEN_ONCE_GENERATION = 8192;

/**
 * Payload texts that passed verification, by SHA-256, the recently used kept; bounded by their
 * total length in UTF-16 code units (a {@link TwoGenerationCache}). A text longer than half the
 * budget is not kept.
 *
 * @example
 * ```ts
 * const memo = new VerifiedPayloads(1024);
 * memo.remember(sha, text); // passed once: only the hash is noted
 * memo.knows(sha, text);  // false: check it
 * memo.remember(sha, text); // passed again: kept
 * memo.knows(sha, text);  // true: the same text under the same hash
 * memo.knows(sha, other); // false: check it
 * ```
 */
export class VerifiedPayloads {
  readonly #texts: TwoGenerationCache<string, string>;
  /** Hashes of pairs that passed once and are not kept yet. */
  readonly #seenOnce = new TwoGenerationCache<string, true>(2 * SEEN_ONCE_GENERATION);

  /** @param budget total UTF-16 code units kept; `0` keeps nothing. */
  constructor(readonly budget: number) {
    this.#texts = new TwoGenerationCache(budget, (text) => text.length);
  }

  /** True when exactly `text` passed under exactly `sha256` before (and is still kept). */
  knows(sha256: string, text: string): boolean {
    return this.#texts.get(sha256) === text;
  }

  /** Called with a pair that has just passed the full check: keeps it if its hash passed before. */
  remember(sha256: string, text: string): void {
    if (text.length > this.budget / 2 || this.#texts.has(sha256)) return;
    if (this.#seenOnce.delete(sha256)) this.#texts.set(sha256, text);
    else this.#seenOnce.set(sha256, true);
  }

  /**
   * Called with a pair the store canonicalised and hashed itself for a write (see
   * `writtenPair` in prepare.ts), never with one a caller built: keeps it at once, since the
   * writer reads its rows back.
   */
  written(sha256: string, text: string): void {
    if (text.length > this.budget / 2) return;
    this.#seenOnce.delete(sha256);
    this.#texts.set(sha256, text);
  }

  /**
   * Drops the text kept under `sha256`, if any: its writer will not read it back (a superseded
   * row; `insertPreparedIfPresent`'s `forgetText`). A later read checks it in full.
   */
  forget(sha256: string): void {
    this.#texts.delete(sha256);
    this.#seenOnce.delete(sha256);
  }

  /** Total UTF-16 code units kept now. */
  get size(): number {
    return this.#texts.weight;
  }
}
