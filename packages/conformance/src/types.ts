import type { AdapterCapabilities, CheckpointAdapter, CheckpointRow } from '@session-checkpoint/core';
import type { CaseContext } from './context.js';
import type { CONFORMANCE_GROUPS } from './conformance-groups.js';

/**
 * The raw column values `tamper` writes over a stored row: any of the camelCase
 * {@link CheckpointRow} fields, each with any value (text, a `Uint8Array` of bytes, a number),
 * since the point is to store what the contract forbids. Wider than `Partial<CheckpointRow>`
 * on purpose: `{ payloadJson: new Uint8Array([0xff]) }` or `{ id: 0 }` must type-check.
 *
 * @example
 * ```ts
 * import type { TamperPatch } from '@session-checkpoint/conformance';
 *
 * const patch: TamperPatch = { payloadSha256: 'x', payloadJson: new Uint8Array([0xff]) };
 * ```
 */
export type TamperPatch = Partial<Record<keyof CheckpointRow, unknown>>;

/**
 * One store under test, as a factory builds it. Each call of the factory must return a fresh,
 * empty, isolated store.
 */
export interface ConformanceSubject {
  /** The adapter under test. */
  adapter: CheckpointAdapter;
  /**
   * Test hook: overwrite stored columns of row `id` with raw values, bypassing the facade, to
   * simulate tampering (e.g. `{ payloadJson: '{"a":2}' }` or `{ payloadSha256: 'x' }`). Keys are
   * the camelCase {@link CheckpointRow} fields. Text is stored exactly as given; a `Uint8Array` is
   * stored as those bytes (a BLOB), never decoded or re-encoded, and the adapter must hand the
   * same bytes back. The suite checks both through `adapter.getRow`.
   */
  tamper(id: number, patch: TamperPatch): Promise<void>;
  /**
   * The payload column can hold bytes, so `tamper` stores a `Uint8Array` as bytes (SQLite's
   * dynamic typing, `MemoryAdapter`). Default is `false` (a PostgreSQL `text` column cannot):
   * the case that tampers with bytes is then skipped.
   */
  storesBytes?: boolean;
  /**
   * Opens a second adapter over the same store (another connection, or another process's view).
   * Required when `adapter.capabilities.persistent` is true; the suite closes what it opens.
   */
  reopen?(): Promise<CheckpointAdapter>;
  /**
   * How another OS process opens the same store. `module` is the file URL (or absolute path) of
   * an ES module exporting `openAdapter(location: string): Promise<CheckpointAdapter>`; the
   * suite's child processes import it and call it with `location` (a path, or whatever text your
   * opener reads: a connection string, JSON). Required when `adapter.capabilities.multiProcess`
   * is true; the `multiProcess` case fails without it. Default: none.
   *
   * @example
   * ```ts
   * { module: new URL('./open-my-adapter.mjs', import.meta.url).href, location: '/tmp/store.json' }
   * ```
   */
  otherProcess?: { module: string; location: string };
  /** Closes everything and removes the store. */
  destroy(): Promise<void>;
}

/** Builds a fresh subject; called once per test, and once before registering to read capabilities. */
export type ConformanceFactory = () => Promise<ConformanceSubject>;

/** A test function as vitest, mocha, jest and `node:test` have it, with its `skip` variant. */
export interface ConformanceTestFunction {
  (name: string, fn: () => Promise<void>, timeout?: number): void;
  /** Registers a test that is reported as skipped (vitest, mocha, jest and `node:test` all have `it.skip`). */
  skip(name: string, fn: () => Promise<void>, timeout?: number): void;
}

/**
 * The test functions the suite registers its cases with: vitest's, mocha's, jest's or
 * `node:test`'s `describe`/`it` all fit. Assertions are the package's own, so no `expect` is needed.
 */
export interface ConformanceTestApi {
  describe(name: string, fn: () => void): void;
  it: ConformanceTestFunction;
}

/** The name of a group of cases, e.g. `'transactions'`; see {@link CONFORMANCE_GROUPS}. */
export type ConformanceGroup = keyof typeof CONFORMANCE_GROUPS;

/**
 * What a case needs beyond the contract: an adapter capability, a subject that stores bytes, or
 * an optional adapter member that has no capability flag (`sourceRefAt`, `listBySourceRefRanges`, `insertMany`).
 */
export type ConformanceRequirement = keyof AdapterCapabilities | 'storesBytes' | 'sourceRefAt' | 'listBySourceRefRanges' | 'insertMany' | 'insertManyIfPresent';

/** One named case of the contract. Its name states the rule it checks. */
export interface ConformanceCase {
  name: string;
  /** Runs only when the adapter (or subject) has this; otherwise the case is reported as skipped. */
  requires?: ConformanceRequirement;
  run(ctx: CaseContext): Promise<void>;
}

/** Options of {@link runConformanceSuite}. */
export interface ConformanceOptions {
  /**
   * Only these groups register. Default is every group. A misspelt name is a compile error, and
   * a run-time error from JavaScript.
   */
  only?: readonly ConformanceGroup[];
  /**
   * Groups whose cases are reported as skipped, each with the reason to print. Default is none.
   *
   * @example
   * ```ts
   * { skip: { persistence: 'the store is in memory' } }
   * ```
   */
  skip?: Readonly<Partial<Record<ConformanceGroup, string>>>;
  /**
   * Per-case timeout in ms, passed to `it`. Default is `60000` (a minute: each case makes a few
   * dozen calls, so a loaded machine stays well inside it, and a hung adapter is reported soon).
   */
  timeout?: number;
}
