// docs/ai-sdk.md shows examples/ai-sdk-chat.mjs verbatim, and the example runs as written: a
// Vercel AI SDK chat stored append-only (one verified row per message), a regenerated and an
// edited message stored as new rows, the chat loaded back through the `ai` package's
// validateUIMessages, and a second run in the same folder as good as the first.
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

  it('runs with node as written, twice in one folder: appends, regenerates and edits, and loads the chat back validated', () => {
    const cwd = mkdtempSync(join(tmpdir(), 'sc-ai-sdk-'));
    try {
      for (const run of [1, 2]) {
        const result = spawnSync(process.execPath, [join(root, 'examples/ai-sdk-chat.mjs')], { cwd, encoding: 'utf8' });
        expect(result.stderr, `run ${run}`).toBe('');
        expect(result.status, `run ${run}`).toBe(0);
        expect(result.stdout.split('\n'), `run ${run}`).toEqual([
          'saved 2 messages',
          'appended 1, saved the same list again: 0 written',
          'without replace: CheckpointConflictError',
          'regenerated: 1 written',
          'edited: 2 written',
          'stored rows: 9',
          'loaded 4 messages, validated: u1, a1, u2, a3',
          'same as saved: true',
          '',
        ]);
      }
    } finally {
      rmSync(cwd, { recursive: true, force: true });
    }
  });
});
