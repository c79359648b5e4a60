import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts'],
    // The official LangGraph validation suite calls describe/it/expect as globals.
    globals: true,
    pool: 'forks',
    testTimeout: 120_000,
    hookTimeout: 120_000,
    // The JSON report feeds the pass/fail totals that .ci/run prints at the end.
    reporters: ['default', 'json'],
    outputFile: { json: 'out-tsc/vitest-results.json' },
  },
});
