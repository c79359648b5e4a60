import type { AdapterCapabilities } from '@session-checkpoint/core';
import { CONFORMANCE_GROUPS } from './conformance-groups.js';
import { withSubject } from './context.js';
import type { ConformanceFactory, ConformanceGroup, ConformanceOptions, ConformanceRequirement, ConformanceSubject, ConformanceTestApi } from './types.js';

/**
 * The default per-case timeout: a minute. Every case does a few dozen calls at most, so this is
 * generous on a loaded machine, and a hung adapter is reported within a minute instead of ten.
 */
export const DEFAULT_CASE_TIMEOUT_MS = 60_000;

/** Why a case cannot run on this subject, or `undefined` when it can. */
function missing(requirement: ConformanceRequirement | undefined, capabilities: AdapterCapabilities, subject: ConformanceSubject): string | undefined {
  if (requirement === undefined) return undefined;
  if (requirement === 'storesBytes') return subject.storesBytes ? undefined : 'the subject does not declare storesBytes';
  if (requirement === 'sourceRefAt') return typeof subject.adapter.sourceRefAt === 'function' ? undefined : 'the adapter has no sourceRefAt';
  if (requirement === 'listBySourceRefRanges') return typeof subject.adapter.listBySourceRefRanges === 'function' ? undefined : 'the adapter has no listBySourceRefRanges';
  if (requirement === 'insertMany') return typeof subject.adapter.insertMany === 'function' ? undefined : 'the adapter has no insertMany';
  if (requirement === 'insertManyIfPresent') return typeof subject.adapter.insertManyIfPresent === 'function' ? undefined : 'the adapter has no insertManyIfPresent';
  return capabilities[requirement] ? undefined : `the adapter does not declare the capability ${requirement}`;
}

/** Rejects group names that do not exist (the types already do, for TypeScript callers). */
function checkGroupNames(options: ConformanceOptions): void {
  for (const name of [...(options.only ?? []), ...Object.keys(options.skip ?? {})]) {
    if (!Object.hasOwn(CONFORMANCE_GROUPS, name)) {
      throw new TypeError(`unknown conformance group '${name}'; the groups are ${Object.keys(CONFORMANCE_GROUPS).join(', ')}`);
    }
  }
}

/**
 * Registers the whole adapter contract with the given test functions. Every case gets a fresh
 * subject from `factory` and destroys it afterwards. The factory is called once first, to read the
 * adapter's capabilities: a case that needs one the adapter does not declare is registered with
 * `it.skip`, so the runner reports it as skipped, never as passed. Await it at the top level of a
 * test file, or in an async `describe` (vitest, `node:test`).
 *
 * @example
 * ```ts
 * import { describe, it } from 'vitest';
 * import { runConformanceSuite } from '@session-checkpoint/conformance';
 * import { MemoryAdapter } from '@session-checkpoint/core';
 *
 * await runConformanceSuite({ describe, it }, async () => {
 *   const adapter = new MemoryAdapter();
 *   return { adapter, storesBytes: true, tamper: (id, patch) => adapter.tamperForTesting(id, patch), destroy: () => adapter.close() };
 * }, { only: ['crud', 'isolation'] });
 * ```
 */
export async function runConformanceSuite(api: ConformanceTestApi, factory: ConformanceFactory, options: ConformanceOptions = {}): Promise<void> {
  checkGroupNames(options);
  const timeout = options.timeout ?? DEFAULT_CASE_TIMEOUT_MS;
  const probe = await factory();
  const capabilities = { ...probe.adapter.capabilities };
  await probe.destroy();
  api.describe('session-checkpoint adapter conformance', () => {
    for (const [group, cases] of Object.entries(CONFORMANCE_GROUPS) as [ConformanceGroup, typeof CONFORMANCE_GROUPS[ConformanceGroup]][]) {
      if (options.only && !options.only.includes(group)) continue;
      const groupSkip = options.skip?.[group];
      api.describe(group, () => {
        for (const testCase of cases) {
          const reason = groupSkip ?? missing(testCase.requires, capabilities, probe);
          if (reason !== undefined) {
            api.it.skip(`${testCase.name} (skipped: ${reason})`, async () => {}, timeout);
            continue;
          }
          api.it(testCase.name, () => withSubject(factory, (ctx) => testCase.run(ctx)), timeout);
        }
      });
    }
  });
}

/**
 * Registers one group of the contract only: the same as `runConformanceSuite` with
 * `only: [group]`, for an adapter's test file that runs the groups one by one (or one group
 * while working on it).
 *
 * @example
 * ```ts
 * await runConformanceGroup({ describe, it }, 'close', factory);
 * await runConformanceGroup({ describe, it }, 'persistence', factory, { timeout: 120_000 });
 * ```
 */
export async function runConformanceGroup(
  api: ConformanceTestApi,
  group: ConformanceGroup,
  factory: ConformanceFactory,
  options: Omit<ConformanceOptions, 'only'> = {},
): Promise<void> {
  await runConformanceSuite(api, factory, { ...options, only: [group] });
}
