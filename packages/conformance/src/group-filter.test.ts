import { MemoryAdapter } from '@session-checkpoint/core';
import { describe, expect, it } from 'vitest';
import { runConformanceSuite, type ConformanceTestApi } from './index.js';

/*
 * Group names are typed: the `@ts-expect-error` lines below are compiled by the typecheck target,
 * which fails if a misspelt group ever compiles again. At run time (JavaScript callers) the same
 * mistakes throw instead of silently running nothing.
 */

const api: ConformanceTestApi = { describe: () => {}, it: Object.assign(() => {}, { skip: () => {} }) };
const factory = async () => {
  const adapter = new MemoryAdapter();
  return { adapter, tamper: (id: number, patch: object) => adapter.tamperForTesting(id, { ...patch }), destroy: () => adapter.close() };
};

describe('conformance group filters', () => {
  it('accept the group names', async () => {
    await expect(runConformanceSuite(api, factory, { only: ['crud', 'isolation'], skip: { persistence: 'in memory' } })).resolves.toBeUndefined();
  });

  it('reject a misspelt group in only', async () => {
    // @ts-expect-error 'transaction' is not a group ('transactions' is)
    await expect(runConformanceSuite(api, factory, { only: ['transaction'] })).rejects.toThrow(/unknown conformance group 'transaction'/);
  });

  it('reject a misspelt group in skip', async () => {
    // @ts-expect-error 'isolaton' is not a group
    await expect(runConformanceSuite(api, factory, { skip: { isolaton: 'typo' } })).rejects.toThrow(/unknown conformance group 'isolaton'/);
  });
});
