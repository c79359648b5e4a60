/**
 * A bounded cache that keeps the recently used entries in two generations: entries go into the
 * young one, and when it would weigh more than half the capacity the old one is dropped whole and
 * the young one becomes old; a hit in the old generation moves the entry back to the young one.
 * So everything set or read within the last half capacity of weight is kept, the total never
 * exceeds the capacity, and every operation is O(1).
 *
 * Why not one Map evicting its oldest entry (`keys().next()`, or a `for...of` from the start):
 * V8 leaves a hole per deleted entry until the table is rebuilt, and each eviction walks the holes
 * before the first live entry. At about a thousand entries that cost 1 to 4 us per insert, on
 * every read of the LangGraph saver (docs/decisions/0013-first-reads-leave-less-garbage.md).
 *
 * Values are never `undefined` (`get` answers `undefined` for a missing key).
 *
 * @example
 * ```ts
 * const texts = new TwoGenerationCache<string, string>(1024, (text) => text.length);
 * texts.set('k', 'some text');
 * texts.get('k'); // 'some text'
 * ```
 */
export class TwoGenerationCache<K, V extends {} | null> {
  #young = new Map<K, V>();
  #old = new Map<K, V>();
  #youngWeight = 0;
  #oldWeight = 0;
  readonly #half: number;

  /**
   * @param capacity total weight kept at most; an entry weighing more than half of it is not kept.
   * @param weigh the weight of a value, a number >= 0. Default is 1 per entry.
   */
  constructor(
    readonly capacity: number,
    private readonly weigh: (value: V) => number = () => 1,
  ) {
    this.#half = capacity / 2;
  }

  /** The value of `key`, or `undefined`; a hit counts as a use. */
  get(key: K): V | undefined {
    const young = this.#young.get(key);
    if (young !== undefined) return young;
    const old = this.#old.get(key);
    if (old !== undefined) {
      this.#old.delete(key);
      this.#oldWeight -= this.weigh(old);
      this.#add(key, old);
    }
    return old;
  }

  /** True when `key` is kept (not a use). */
  has(key: K): boolean {
    return this.#young.has(key) || this.#old.has(key);
  }

  /** Sets `key` to `value` as its most recent use; a value too heavy to keep only removes the key. */
  set(key: K, value: V): void {
    this.delete(key);
    this.#add(key, value);
  }

  /** Removes `key`; true when it was kept. */
  delete(key: K): boolean {
    const young = this.#young.get(key);
    if (young !== undefined) {
      this.#young.delete(key);
      this.#youngWeight -= this.weigh(young);
      return true;
    }
    const old = this.#old.get(key);
    if (old === undefined) return false;
    this.#old.delete(key);
    this.#oldWeight -= this.weigh(old);
    return true;
  }

  /** Removes every key for which `drop` is true. */
  deleteKeys(drop: (key: K) => boolean): void {
    for (const key of [...this.#young.keys(), ...this.#old.keys()]) if (drop(key)) this.delete(key);
  }

  /** Entries kept now. */
  get size(): number {
    return this.#young.size + this.#old.size;
  }

  /** Total weight kept now. */
  get weight(): number {
    return this.#youngWeight + this.#oldWeight;
  }

  #add(key: K, value: V): void {
    const weight = this.weigh(value);
    if (weight > this.#half) return;
    if (this.#youngWeight + weight > this.#half) {
      this.#old = this.#young;
      this.#oldWeight = this.#youngWeight;
      this.#young = new Map();
      this.#youngWeight = 0;
    }
    this.#young.set(key, value);
    this.#youngWeight += weight;
  }
}
