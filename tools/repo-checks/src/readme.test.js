// README.de.md is README.md in German: the same sections in the same order and the very same code
// blocks. The README's library example is examples/library-tour.mjs, and it runs as written.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { codeBlocks, headingLevels, read, root } from './repo.js';

const english = read('README.md');
const german = read('README.de.md');

describe('README.de.md', () => {
  it('has the same section structure as README.md', () => {
    expect(headingLevels(english).length).toBeGreaterThan(3);
    expect(headingLevels(german)).toEqual(headingLevels(english));
  });

  it('has the same code blocks, in the same order', () => {
    expect(codeBlocks(german)).toEqual(codeBlocks(english));
  });

  it('links to the same files, apart from the two READMEs naming each other', () => {
    const targets = (text) => [...text.matchAll(/\]\(([^)\s]+)\)/g)].map((m) => m[1]).filter((t) => !/^README(\.de)?\.md$/.test(t));
    expect(targets(german)).toEqual(targets(english));
  });
});

describe('the library example', () => {
  const tour = read('examples/library-tour.mjs');

  it('is in README.md verbatim', () => {
    expect(codeBlocks(english)).toContain(`\`\`\`js\n${tour}\`\`\``);
  });

  it('runs with node as written and prints what it did', () => {
    const cwd = mkdtempSync(join(tmpdir(), 'sc-library-tour-'));
    try {
      const result = spawnSync(process.execPath, [join(root, 'examples/library-tour.mjs')], { cwd, encoding: 'utf8' });
      expect(result.stderr).toBe('');
      expect(result.status).toBe(0);
      expect(result.stdout.split('\n')).toEqual([
        expect.stringMatching(/^created checkpoint 1: \{"step":1\} \(sha256 [0-9a-f]{64}\)$/),
        'read back, verified: {"step":1}',
        'listed ids: 1',
        'thread-1 state: {"messages":["hi"]}',
        'thread-1 history: 1 entries',
        '',
      ]);
    } finally {
      rmSync(cwd, { recursive: true, force: true });
    }
  });
});
