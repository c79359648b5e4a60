import { CheckpointValidationError, type CheckpointStore } from '@session-checkpoint/core';

/*
 * The session's store argument, checked at construction rather than at the first call (where a
 * path or a pending promise would fail as `this.store.listBySourceRefPrefix is not a function`).
 * Checked by shape, not `instanceof`: an application may load two copies of core (a bundler, a
 * nested node_modules), and a store from the other copy works all the same.
 */

/** What the session calls on its store. */
const STORE_METHODS = ['create', 'prepare', 'insertPrepared', 'findBySourceRef', 'findBySourceRefs', 'listBySourceRefPrefix', 'transaction'] as const;
/** What every storage adapter has and a store does not. */
const ADAPTER_METHODS = ['insert', 'getRow', 'scanRows'] as const;

const EXAMPLE = 'new CheckpointSession(await openSqliteStore(path))';

function hasMethods(value: object, names: readonly string[]): boolean {
  return names.every((name) => typeof (value as Record<string, unknown>)[name] === 'function');
}

/**
 * `value` as a {@link CheckpointStore}, or a `CheckpointValidationError` that says what was passed
 * and what to pass instead.
 *
 * @example
 * ```ts
 * checkpointStore(await openSqliteStore('agent.db')); // the store
 * checkpointStore('agent.db');                         // throws: ... got a string ...
 * ```
 */
export function checkpointStore(value: unknown): CheckpointStore {
  if (typeof value === 'object' && value !== null) {
    if (hasMethods(value, STORE_METHODS) && typeof (value as { adapter?: unknown }).adapter === 'object') return value as CheckpointStore;
    if (typeof (value as { then?: unknown }).then === 'function') {
      refuse(`got a Promise (a store still opening): await it first, e.g. ${EXAMPLE}`);
    }
    if (hasMethods(value, ADAPTER_METHODS)) {
      refuse('got a storage adapter: wrap it in a store, e.g. new CheckpointSession(new CheckpointStore(adapter))');
    }
    refuse(`got an object that is not a CheckpointStore (it lacks ${STORE_METHODS.filter((m) => typeof (value as Record<string, unknown>)[m] !== 'function').join(', ') || 'adapter'}): pass an opened store, e.g. ${EXAMPLE}`);
  }
  if (typeof value === 'string') refuse(`got a string (${JSON.stringify(value.slice(0, 80))}): open the store first, e.g. ${EXAMPLE}`);
  refuse(`got ${value === null ? 'null' : typeof value === 'undefined' ? 'undefined' : `a ${typeof value}`}: pass an opened store, e.g. ${EXAMPLE}`);
}

function refuse(detail: string): never {
  throw new CheckpointValidationError(`CheckpointSession needs a CheckpointStore as its first argument, but ${detail}`);
}
