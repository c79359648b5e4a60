import type { CheckpointAdapter, CheckpointRow } from '@session-checkpoint/core';

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
   * the camelCase {@link CheckpointRow} fields.
   */
  tamper(id: number, patch: Partial<Record<keyof CheckpointRow, unknown>>): Promise<void>;
  /**
   * Opens a second adapter over the same store (another connection, or another process's view).
   * Required when `adapter.capabilities.persistent` is true; the suite closes what it opens.
   */
  reopen?(): Promise<CheckpointAdapter>;
  /** Closes everything and removes the store. */
  destroy(): Promise<void>;
}

/** Builds a fresh subject; called once per test. */
export type ConformanceFactory = () => Promise<ConformanceSubject>;

/**
 * The test functions the suite registers its cases with: vitest's, mocha's, jest's or
 * `node:test`'s `describe`/`it` all fit. Assertions use `node:assert/strict`, so no `expect` is needed.
 */
export interface ConformanceTestApi {
  describe(name: string, fn: () => void): void;
  it(name: string, fn: () => Promise<void>, timeout?: number): void;
}

/** Options of {@link runConformanceSuite}. */
export interface ConformanceOptions {
  /** Only groups whose name is listed run. Default is every group. */
  only?: readonly string[];
  /** Groups to leave out, each with the reason to print. Default is none. */
  skip?: Readonly<Record<string, string>>;
  /** Per-test timeout in ms, passed to `it`. Default is `30000`. */
  timeout?: number;
}
