import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { RUNTIME_OK } from './test-support/backends.js';

/* The example that docs/ai-sdk.md quotes runs as written, with node, twice in one empty folder. */

const example = fileURLToPath(new URL('../../../examples/ai-sdk-chat-store.mjs', import.meta.url));

describe.skipIf(!RUNTIME_OK)('the example', () => {
  it('runs with node, twice in one folder', () => {
    const cwd = mkdtempSync(join(tmpdir(), 'sc-ai-sdk-example-'));
    try {
      const outputs = [1, 2].map(() => spawnSync(process.execPath, [example], { cwd, encoding: 'utf8' }));
      for (const result of outputs) {
        expect(result.stderr).toBe('');
        expect(result.status).toBe(0);
      }
      expect(outputs.map((r) => r.stdout)).toEqual([1, 2].map(() => 'Weather in Paris? | Sunny, 21 °C.\nsave 1: +2 -0, save 2: +1 -1\n'));
    } finally {
      rmSync(cwd, { recursive: true, force: true });
    }
  });
});
