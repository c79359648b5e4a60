/*
 * A row's payload check is a pure function of two strings: its text and its stored SHA-256 (read
 * limits are fixed per store). Agent loops re-read the same rows at every step: the carried
 * values of the latest checkpoint, the earlier pieces of a growing list, a page of history. This
 * memo keeps the pairs that passed, so that a row whose text and hash are identical to a pair
 * already checked passes by comparing the text in full (a memcmp) instead of hashing it and
 * scanning it again. Any other row, including one whose text differs by a single byte under the
 * same hash, is checked from scratch. Failures are never remembered, and texts come only from
 * rows the store read and checked itself, never from what it was asked to write.
 */

/** The default of `CheckpointStoreOptions.verifiedTextCache`: 8 Mi UTF-16 code units. */
export const DEFAULT_VERIFIED_TEXT_CACHE = 8 * 1024 * 1024;

/**
 * Payload texts that passed verification, by SHA-256, least recently used first out; bounded by
 * their total length in UTF-16 code units. A text longer than the whole budget is not kept.
 *
 * @example
 * ```ts
 * const memo = new VerifiedPayloads(1024);
 * memo.remember(sha, text);
 * memo.knows(sha, text);  // true: the same text under the same hash
 * memo.knows(sha, other); // false: check it
 * ```
 */
export class VerifiedPayloads {
  readonly #texts = new Map<string, string>();
  #size = 0;

  /** @param budget total UTF-16 code units kept; `0` keeps nothing. */
  constructor(readonly budget: number) {}

  /** True when exactly `text` passed under exactly `sha256` before (and is still kept). */
  knows(sha256: string, text: string): boolean {
    const known = this.#texts.get(sha256);
    if (known === undefined || known !== text) return false;
    // Most recently used last: the Map keeps insertion order.
    this.#texts.delete(sha256);
    this.#texts.set(sha256, known);
    return true;
  }

  /** Keeps a pair that has just passed the full check. */
  remember(sha256: string, text: string): void {
    if (text.length > this.budget || this.#texts.has(sha256)) return;
    this.#texts.set(sha256, text);
    this.#size += text.length;
    // Most reads stay within the budget: only an overflow walks the oldest entries out.
    if (this.#size <= this.budget) return;
    for (const [oldSha, oldText] of this.#texts) {
      this.#texts.delete(oldSha);
      this.#size -= oldText.length;
      if (this.#size <= this.budget) break;
    }
  }

  /** Total UTF-16 code units kept now. */
  get size(): number {
    return this.#size;
  }
}
