import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.js'],
    pool: 'forks',
    // No verdict may depend on the machine's speed: each rule test runs ESLint over fixtures,
    // which took more than vitest's default 5 s on a heavily loaded machine.
    testTimeout: 600_000,
    hookTimeout: 1_200_000,
    reporters: ['default', 'json'],
    outputFile: { json: 'out-tsc/vitest-results.json' },
  },
});
