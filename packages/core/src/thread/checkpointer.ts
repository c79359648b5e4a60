import type { CheckpointStore } from '../store/checkpoint-store.js';
import type { JsonObject } from '../types.js';
import { resolveNamespace, validateToken } from '../validation/fields.js';
import { positiveInteger } from '../validation/integers.js';

/** Options of {@link Checkpointer}. */
export interface CheckpointerOptions {
  /** Namespace that holds every thread of this checkpointer. Default is `"default"`. */
  namespace?: string;
  /** Checkpoints kept per thread; older ones go in the same transaction as each put. Default is `50`. */
  maxHistory?: number;
  /** Kind recorded on each checkpoint. Default is `"thread"`. */
  kind?: string;
}

/** One saved state of a thread, as {@link Checkpointer.history} returns it. */
export interface ThreadEntry<State extends JsonObject = JsonObject> {
  /** Checkpoint id. */
  id: number;
  threadId: string;
  state: State;
  /** RFC 3339 UTC, whole seconds. */
  createdAt: string;
}

/**
 * The per-thread API for agent loops (windlass-style): a thread is a session of one namespace.
 * Every state is canonicalised, hashed and verified like any checkpoint; retention (`maxHistory`)
 * runs in the same transaction as each put, so a thread never holds more than `maxHistory`
 * checkpoints, even under concurrent puts.
 *
 * @example
 * ```ts
 * const threads = new Checkpointer(new CheckpointStore(new MemoryAdapter()), { maxHistory: 10 });
 * await threads.put('t-1', { messages: ['hi'] });
 * await threads.get('t-1'); // { messages: ['hi'] }
 * ```
 */
export class Checkpointer<State extends JsonObject = JsonObject> {
  /** The store written through. */
  readonly store: CheckpointStore;
  /** The namespace of every thread. */
  readonly namespace: string;
  /** Checkpoints kept per thread. */
  readonly maxHistory: number;
  readonly #kind: string;

  constructor(store: CheckpointStore, options: CheckpointerOptions = {}) {
    this.store = store;
    this.namespace = resolveNamespace(options.namespace);
    this.#kind = validateToken(options.kind ?? 'thread', 'kind');
    this.maxHistory = positiveInteger(options.maxHistory ?? 50, 'maxHistory');
  }

  /**
   * Saves a new state of a thread and applies retention, atomically. Returns the checkpoint id.
   *
   * @example
   * ```ts
   * const id = await threads.put('t-1', { step: 2 });
   * ```
   */
  async put(threadId: string, state: State): Promise<number> {
    const checkpoint = await this.store.create(
      { namespace: this.namespace, sessionId: threadId, kind: this.#kind, payload: state },
      { keepLatest: this.maxHistory },
    );
    return checkpoint.id;
  }

  /**
   * The newest state of a thread, or `undefined` when it has none.
   *
   * @example
   * ```ts
   * const state = await threads.get('t-1');
   * ```
   */
  async get(threadId: string): Promise<State | undefined> {
    const latest = await this.store.latest(threadId, { namespace: this.namespace });
    return latest?.payload as State | undefined;
  }

  /**
   * Up to `limit` states of a thread, newest first.
   *
   * @param limit Default is `20`.
   * @example
   * ```ts
   * for (const entry of await threads.history('t-1', 5)) console.log(entry.createdAt, entry.state);
   * ```
   */
  async history(threadId: string, limit = 20): Promise<ThreadEntry<State>[]> {
    const page = await this.store.list({ namespace: this.namespace, sessionId: threadId, limit });
    return page.map((cp) => ({ id: cp.id, threadId: cp.sessionId, state: cp.payload as State, createdAt: cp.createdAt }));
  }

  /**
   * Deletes every state of a thread. Returns how many checkpoints went.
   *
   * @example
   * ```ts
   * await threads.delete('t-1'); // 3
   * ```
   */
  async delete(threadId: string): Promise<number> {
    const result = await this.store.deleteSession(threadId, { namespace: this.namespace, apply: true });
    return result.deleted.length;
  }

  /**
   * Ids of every thread with at least one state, most recently active first.
   *
   * @example
   * ```ts
   * await threads.threads(); // ['t-2', 't-1']
   * ```
   */
  async threads(): Promise<string[]> {
    return (await this.store.sessions({ namespace: this.namespace })).map((s) => s.sessionId);
  }
}
