// The tarball checks themselves, on a package folder made here: each defect is reported.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { writeFiles } from './scratch-project.js';
import { tarballProblems } from './tarballs.js';

const dir = mkdtempSync(join(tmpdir(), 'sc-tarball-check-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const good = {
  name: '@session-checkpoint/x', version: '0.1.0', description: 'x', license: 'MIT', repository: 'r', homepage: 'h', bugs: 'b',
  peerDependencies: { '@session-checkpoint/core': '^0.1.0' },
  bin: { x: 'bin/run.js' },
  oclif: { commands: './dist/bundle/commands' },
};
const goodFiles = ['package.json', 'README.md', 'LICENSE', 'CHANGELOG.md', 'bin/run.js', 'dist/bundle/commands/get.js', 'dist/index.js'];

describe('tarballProblems', () => {
  const repo = 'https://github.com/session-checkpoint/session-checkpoint-ts';
  writeFiles(dir, { 'README.md': `[docs](https://example.org/docs.md) [here](#usage) [cli](${repo}/blob/@session-checkpoint/x@0.1.0/docs/cli.md)\n\n## ES modules only\n`, 'dist/index.js.map': '{"sources":["../src/index.ts"]}' });

  it('finds nothing wrong with a complete package', () => {
    expect(tarballProblems({ dir, manifest: good }, goodFiles)).toEqual([]);
  });

  it('reports every defect', () => {
    writeFiles(dir, { 'README.md': 'See [the docs](../../docs/x.md) and [main](https://github.com/session-checkpoint/session-checkpoint-ts/blob/main/docs/x.md).\n' });
    const manifest = { ...good, homepage: undefined, peerDependencies: { '@session-checkpoint/core': '*' }, bin: { x: './bin/run.js' } };
    const files = [...goodFiles.filter((f) => f !== 'LICENSE'), 'dist/a.test.js', 'fixtures/x.json', 'dist/index.js.map', 'dist/commands/get.js'];
    expect(tarballProblems({ dir, manifest }, files)).toEqual([
      'missing LICENSE',
      'ships a test: dist/a.test.js',
      'ships test material: fixtures/x.json',
      'dist/index.js.map points at ../src/index.ts, which is not shipped',
      'package.json has no homepage',
      'peerDependencies.@session-checkpoint/core is "*", not a caret range',
      'bin.x starts with ./ (npm publish drops it)',
      'command code shipped twice: dist/commands/get.js besides dist/bundle/commands/',
      'README link ../../docs/x.md does not work on the registry page',
      'README link https://github.com/session-checkpoint/session-checkpoint-ts/blob/main/docs/x.md is not at the tag @session-checkpoint/x@0.1.0',
      'README does not say the package is ES modules only',
    ]);
  });
});
