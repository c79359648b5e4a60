import { CheckpointValidationError } from '../errors.js';
import type { CheckpointStore } from './checkpoint-store.js';

/*
 * A framework package's store argument (the LangGraph saver's, the agents session's), checked at
 * construction rather than at the first call (where a path or a pending promise would fail as
 * `this.store.transaction is not a function`). Checked by shape, not `instanceof`: an application
 * may load two copies of core (a bundler, a nested node_modules), and a store from the other copy
 * works all the same.
 */

/** Who takes the store: its class name and the store methods it calls. */
export interface StoreTaker {
  /** The class name, e.g. `"SessionCheckpointSaver"`. */
  name: string;
  /** The store methods it calls on the store. */
  methods: readonly string[];
}

/** What every storage adapter has and a store does not. */
const ADAPTER_METHODS = ['insert', 'getRow', 'scanRows'] as const;

function hasMethods(value: object, names: readonly string[]): boolean {
  return names.every((name) => typeof (value as Record<string, unknown>)[name] === 'function');
}

/**
 * `value` as a {@link CheckpointStore}, or a `CheckpointValidationError` that says what was passed
 * and what to pass instead.
 *
 * @example
 * ```ts
 * const taker = { name: 'CheckpointSession', methods: ['transaction'] };
 * storeArgument(await openSqliteStore('agent.db'), taker); // the store
 * storeArgument('agent.db', taker);                         // throws: ... got a string ...
 * ```
 */
export function storeArgument(value: unknown, taker: StoreTaker): CheckpointStore {
  const example = `new ${taker.name}(await openSqliteStore(path))`;
  const refuse = (detail: string): never => {
    throw new CheckpointValidationError(`${taker.name} needs a CheckpointStore as its first argument, but ${detail}`);
  };
  if (typeof value === 'object' && value !== null) {
    if (hasMethods(value, taker.methods) && typeof (value as { adapter?: unknown }).adapter === 'object') return value as CheckpointStore;
    if (typeof (value as { then?: unknown }).then === 'function') refuse(`got a Promise (a store still opening): await it first, e.g. ${example}`);
    if (hasMethods(value, ADAPTER_METHODS)) refuse(`got a storage adapter: wrap it in a store, e.g. new ${taker.name}(new CheckpointStore(adapter))`);
    const lacking = taker.methods.filter((m) => typeof (value as Record<string, unknown>)[m] !== 'function').join(', ') || 'adapter';
    refuse(`got an object that is not a CheckpointStore (it lacks ${lacking}): pass an opened store, e.g. ${example}`);
  }
  if (typeof value === 'string') refuse(`got a string (${JSON.stringify(value.slice(0, 80))}): open the store first, e.g. ${example}`);
  return refuse(`got ${value === null ? 'null' : typeof value === 'undefined' ? 'undefined' : `a ${typeof value}`}: pass an opened store, e.g. ${example}`);
}
