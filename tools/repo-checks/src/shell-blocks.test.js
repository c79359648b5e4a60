// The ```sh blocks of README.md (README.de.md has the same blocks, checked in readme.test.js),
// docs/cli.md and the CLI's README run as a reader would run them: in order, one file's blocks in
// one fresh folder, with `session-checkpoint` (and `npx session-checkpoint`) being this
// repository's built CLI. Every command must succeed and print one JSON document per call with
// `"ok": true`. A block that is not run says why in an HTML comment on the line before its fence:
// `<!-- not run: reason -->`.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { read, root } from './repo.js';

const FILES = ['README.md', 'docs/cli.md', 'packages/cli/README.md'];

/** The sh blocks of a Markdown text: the script, the line it starts on, and the not-run reason if marked. */
function shellBlocks(markdown) {
  return [...markdown.matchAll(/^```(?:sh|bash|shell)\n([\s\S]*?)^```$/gm)].map((match) => {
    const before = markdown.slice(0, match.index).trimEnd().split('\n').pop();
    return {
      script: match[1],
      line: markdown.slice(0, match.index).split('\n').length,
      notRun: /^<!-- not run: (.+) -->$/.exec(before)?.[1],
    };
  });
}

/**
 * A folder to run one file's blocks in: `session-checkpoint` on the PATH runs the built CLI,
 * `npx session-checkpoint` the same (any other `npx` fails), `examples/` is the repository's, and
 * the CLI's plugin record lives inside.
 */
function readerFolder() {
  const dir = mkdtempSync(join(tmpdir(), 'sc-shell-blocks-'));
  mkdirSync(join(dir, '.bin'));
  writeFileSync(join(dir, '.bin', 'session-checkpoint'), `#!/bin/sh\nexec "${process.execPath}" "${join(root, 'packages/cli/bin/run.cjs')}" "$@"\n`, { mode: 0o755 });
  writeFileSync(join(dir, '.bin', 'npx'), '#!/bin/sh\n[ "$1" = session-checkpoint ] || { echo "npx $1: not this CLI" >&2; exit 127; }\nshift\nexec session-checkpoint "$@"\n', { mode: 0o755 });
  symlinkSync(join(root, 'examples'), join(dir, 'examples'));
  return dir;
}

/** Each command's stdout, as the JSON documents it holds (the CLI prints one per call, indented). */
function documents(stdout) {
  return stdout
    .split(/\n(?=\{)/)
    .filter((text) => text.trim() !== '')
    .map((text) => JSON.parse(text));
}

describe.each(FILES)('%s: shell blocks', (file) => {
  const blocks = shellBlocks(read(file));

  it('has sh blocks, each either run here or marked with why not', () => {
    expect(blocks.length).toBeGreaterThan(0);
    for (const block of blocks) if (block.notRun !== undefined) expect(block.notRun.length, `line ${block.line}`).toBeGreaterThan(10);
  });

  it('runs every unmarked block in order, each command printing {"ok": true, ...} and nothing on stderr', () => {
    const dir = readerFolder();
    const env = { ...process.env, PATH: `${join(dir, '.bin')}:${process.env.PATH}`, HOME: dir, XDG_DATA_HOME: join(dir, '.data'), XDG_CACHE_HOME: join(dir, '.cache') };
    delete env.SESSION_CHECKPOINT_DATA_DIR;
    delete env.SESSION_CHECKPOINT_STORE;
    delete env.SESSION_CHECKPOINT_DATABASE_URL;
    try {
      for (const block of blocks.filter((b) => b.notRun === undefined)) {
        const result = spawnSync('bash', ['-e', '-o', 'pipefail', '-c', block.script], { cwd: dir, env, encoding: 'utf8' });
        const where = `${file}:${block.line}\n${block.script}`;
        expect({ status: result.status, stderr: result.stderr }, where).toEqual({ status: 0, stderr: '' });
        const docs = documents(result.stdout);
        expect(docs.length, where).toBe(block.script.split('\n').filter((line) => /^(npx )?session-checkpoint /.test(line.replace(/^\s*\|\s*/, ''))).length);
        for (const doc of docs) expect(doc, where).toMatchObject({ ok: true });
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
