import { isDeepStrictEqual, inspect } from 'node:util';
import type { CheckpointError } from '@session-checkpoint/core';

/**
 * A broken rule of the adapter contract. The message names the rule in words, then what was seen
 * ("ids must never be reused after delete: got 3 twice"); the stack starts at the line of the
 * case that checks the rule, in a file this package ships, not inside an assertion library.
 */
export class ConformanceFailure extends Error {
  override readonly name = 'ConformanceFailure';
  /** The rule that broke, as the message states it. */
  readonly rule: string;

  constructor(rule: string, detail: string, caller: Function) {
    super(`${rule}: ${detail}`);
    this.rule = rule;
    // The helper that detected the failure is not where the rule lives: start at its caller.
    Error.captureStackTrace?.(this, caller);
  }
}

/** Short, one-line rendering of a value for failure messages. */
export function show(value: unknown): string {
  if (value instanceof Uint8Array) return `bytes [${[...value].join(',')}]`;
  return inspect(value, { depth: 4, breakLength: Infinity, maxArrayLength: 20, maxStringLength: 200 });
}

/**
 * Fails with `rule` unless `condition` holds; `detail` says what was seen instead (default:
 * `it did not hold`), lazily when it is a function.
 *
 * @example
 * ```ts
 * ensure(c.id !== b.id, 'ids must never be reused after delete', () => `got ${c.id} twice`);
 * ```
 */
export function ensure(condition: unknown, rule: string, detail: string | (() => string) = 'it did not hold'): asserts condition {
  if (!condition) throw new ConformanceFailure(rule, typeof detail === 'function' ? detail() : detail, ensure);
}

/**
 * Fails with `rule` unless `actual` and `expected` are deeply, strictly equal; the message shows both.
 *
 * @example
 * ```ts
 * ensureEqual(ids(await store.list({ namespace: 'app' })), [b.id, a.id], 'list must order newest first');
 * ```
 */
export function ensureEqual<T>(actual: unknown, expected: T, rule: string): asserts actual is T {
  if (!isDeepStrictEqual(actual, expected)) throw new ConformanceFailure(rule, `expected ${show(expected)}, got ${show(actual)}`, ensureEqual);
}

/**
 * Fails with `rule` unless `promise` rejects with an error that `guard` accepts; returns the error.
 *
 * @example
 * ```ts
 * await rejectsWith(store.get(12345, { namespace: 'app' }), isCheckpointNotFoundError, 'a missing id is not found');
 * ```
 */
export async function rejectsWith<T extends CheckpointError>(promise: Promise<unknown>, guard: (e: unknown) => e is T, rule: string): Promise<T> {
  let value: unknown;
  try {
    value = await promise;
  } catch (error) {
    if (guard(error)) return error;
    throw new ConformanceFailure(rule, `it failed with the wrong error: ${String(error)}`, rejectsWith);
  }
  throw new ConformanceFailure(rule, `the call succeeded with ${show(value)}`, rejectsWith);
}

/** Fails with `rule` unless `promise` rejects with an error whose message matches `pattern`. */
export async function rejectsMatching(promise: Promise<unknown>, pattern: RegExp, rule: string): Promise<void> {
  try {
    await promise;
  } catch (error) {
    if (pattern.test(String(error))) return;
    throw new ConformanceFailure(rule, `it failed with the wrong error: ${String(error)}`, rejectsMatching);
  }
  throw new ConformanceFailure(rule, 'the call succeeded', rejectsMatching);
}
