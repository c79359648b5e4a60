import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.js'],
    pool: 'forks',
    // The first lintText builds the typed-lint program: seconds on a loaded machine, more than
    // vitest's 5 s default (it timed out in a Node 24 pass of CI).
    testTimeout: 60_000,
    reporters: ['default', 'json'],
    outputFile: { json: 'out-tsc/vitest-results.json' },
  },
});
