import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.js'],
    pool: 'forks',
    testTimeout: 120_000,
    reporters: ['default', 'json'],
    outputFile: { json: 'out-tsc/vitest-results.json' },
  },
});
