// docs/ai-sdk.md shows examples/ai-sdk-chat.mjs verbatim, and the example runs as written: a
// Vercel AI SDK chat stored append-only (one verified row per message) and loaded back through
// the `ai` package's validateUIMessages.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { codeBlocks, read, root } from './repo.js';

describe('the AI SDK recipe', () => {
  const example = read('examples/ai-sdk-chat.mjs');

  it('is in docs/ai-sdk.md verbatim', () => {
    expect(codeBlocks(read('docs/ai-sdk.md'))).toContain(`\`\`\`js\n${example}\`\`\``);
  });

  it('runs with node as written: appends only new messages and loads them back validated', () => {
    const cwd = mkdtempSync(join(tmpdir(), 'sc-ai-sdk-'));
    try {
      const result = spawnSync(process.execPath, [join(root, 'examples/ai-sdk-chat.mjs')], { cwd, encoding: 'utf8' });
      expect(result.stderr).toBe('');
      expect(result.status).toBe(0);
      expect(result.stdout.split('\n')).toEqual([
        'saved 2 messages',
        'stored rows: 3',
        'loaded 3 messages, validated: u1, a1, u2',
        'same as saved: true',
        '',
      ]);
    } finally {
      rmSync(cwd, { recursive: true, force: true });
    }
  });
});
