import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.js'],
    pool: 'forks',
    // Installing the tarballs (and, without a matching prebuilt better-sqlite3, compiling it)
    // can take minutes on a loaded machine; no verdict depends on how long it takes.
    testTimeout: 300_000,
    hookTimeout: 1_200_000,
    reporters: ['default', 'json'],
    outputFile: { json: 'out-tsc/vitest-results.json' },
  },
});
