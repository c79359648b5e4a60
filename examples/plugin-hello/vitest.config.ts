import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts'],
    pool: 'forks',
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // The JSON report feeds the pass/fail totals that .ci/run prints at the end.
    reporters: ['default', 'json'],
    outputFile: { json: 'out-tsc/vitest-results.json' },
  },
});
