import { CONFORMANCE_GROUPS } from './cases.js';
import { withSubject } from './context.js';
import type { ConformanceFactory, ConformanceOptions, ConformanceTestApi } from './types.js';

/**
 * Registers the whole adapter contract with the given test functions. Call it once per adapter
 * from a test file; every case gets a fresh subject from `factory` and destroys it afterwards.
 * Cases that need a capability the adapter does not declare (`requires` in {@link CONFORMANCE_GROUPS})
 * pass without running their body, since capabilities are only known once the factory has run.
 *
 * @example
 * ```ts
 * import { describe, it } from 'vitest';
 * import { runConformanceSuite } from '@session-checkpoint/conformance';
 * import { MemoryAdapter } from '@session-checkpoint/core';
 *
 * runConformanceSuite({ describe, it }, async () => {
 *   const adapter = new MemoryAdapter();
 *   return { adapter, tamper: (id, patch) => adapter.tamperForTesting(id, patch), destroy: () => adapter.close() };
 * });
 * ```
 */
export function runConformanceSuite(api: ConformanceTestApi, factory: ConformanceFactory, options: ConformanceOptions = {}): void {
  const timeout = options.timeout ?? 30_000;
  api.describe('session-checkpoint adapter conformance', () => {
    for (const [group, cases] of Object.entries(CONFORMANCE_GROUPS)) {
      if (options.only && !options.only.includes(group)) continue;
      const skipReason = options.skip?.[group];
      api.describe(group, () => {
        if (skipReason !== undefined) {
          api.it(`(skipped: ${skipReason})`, async () => {}, timeout);
          return;
        }
        for (const testCase of cases) {
          api.it(
            testCase.name,
            async () => {
              await withSubject(factory, async (ctx) => {
                if (testCase.requires && !ctx.adapter.capabilities[testCase.requires]) return;
                await testCase.run(ctx);
              });
            },
            timeout,
          );
        }
      });
    }
  });
}
