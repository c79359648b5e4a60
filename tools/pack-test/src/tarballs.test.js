// The tarball checks themselves, on a package folder made here: each defect is reported.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { writeFiles } from './scratch-project.js';
import { publishedManifest, restoreManifest, stripManifest } from './published-manifest.js';
import { packedManifestProblems, tarballProblems } from './tarballs.js';

const dir = mkdtempSync(join(tmpdir(), 'sc-tarball-check-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const good = {
  name: '@session-checkpoint/x', version: '0.1.0', description: 'x', license: 'MIT', repository: 'r', homepage: 'h', bugs: 'b',
  peerDependencies: { '@session-checkpoint/core': '^0.1.0' },
  bin: { x: 'bin/run.js' },
  oclif: { commands: './dist/bundle/commands' },
};
const goodFiles = ['package.json', 'README.md', 'LICENSE', 'CHANGELOG.md', 'bin/run.js', 'dist/bundle/commands/get.js', 'dist/index.js', 'dist/index.d.ts'];

describe('tarballProblems', () => {
  const repo = 'https://github.com/session-checkpoint/session-checkpoint-ts';
  writeFiles(dir, { 'README.md': `[docs](https://example.org/docs.md) [here](#usage) [cli](${repo}/blob/@session-checkpoint/x@0.1.0/docs/cli.md)\n\n## ES modules only\n`, 'dist/index.js.map': '{"sources":["../src/index.ts"]}', 'dist/index.js': 'export {};\n', 'dist/index.d.ts': 'export {};\n', 'bin/run.js': '', 'dist/bundle/commands/get.js': '', 'dist/commands/get.js': '', 'dist/a.test.js': '' });

  it('finds nothing wrong with a complete package', () => {
    expect(tarballProblems({ dir, manifest: good }, goodFiles)).toEqual([]);
  });

  it('reports every defect', () => {
    writeFiles(dir, { 'README.md': 'See [the docs](../../docs/x.md) and [main](https://github.com/session-checkpoint/session-checkpoint-ts/blob/main/docs/x.md).\n' });
    const manifest = { ...good, homepage: undefined, peerDependencies: { '@session-checkpoint/core': '*' }, bin: { x: './bin/run.js' } };
    writeFiles(dir, { 'dist/index.js': 'export {};\n//# sourceMappingURL=index.js.map\n', 'dist/index.d.ts': 'export {};\n//# sourceMappingURL=index.d.ts.map' });
    const files = [...goodFiles.filter((f) => f !== 'LICENSE'), 'dist/a.test.js', 'fixtures/x.json', 'dist/index.js.map', 'dist/commands/get.js'];
    expect(tarballProblems({ dir, manifest }, files)).toEqual([
      'missing LICENSE',
      'dist/index.d.ts names the source map index.d.ts.map, which is not shipped',
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

  it('allows an internal subpath only under an exact pin in dependencies', () => {
    writeFiles(dir, { 'README.md': '## ES modules only\n', 'dist/index.js': "import { a } from '@session-checkpoint/core/internal';\nimport { b } from '@session-checkpoint/core/toolkit';\n", 'dist/index.d.ts': 'export {};\n' });
    const underPeer = { ...good };
    expect(tarballProblems({ dir, manifest: underPeer }, goodFiles)).toEqual([
      'imports @session-checkpoint/core/internal, which has no semver promise, but does not pin @session-checkpoint/core to an exact version in dependencies',
    ]);
    const pinned = { ...good, peerDependencies: {}, dependencies: { '@session-checkpoint/core': '0.1.0' } };
    expect(tarballProblems({ dir, manifest: pinned }, goodFiles)).toEqual([]);
    // An exact pin without an internal import is still not a caret range.
    writeFiles(dir, { 'dist/index.js': "import { b } from '@session-checkpoint/core/toolkit';\n" });
    expect(tarballProblems({ dir, manifest: pinned }, goodFiles)).toEqual(['dependencies.@session-checkpoint/core is "0.1.0", not a caret range']);
    writeFiles(dir, { 'dist/index.js': 'export {};\n' });
  });

  it("checks the module of oclif's explicit command discovery", () => {
    writeFiles(dir, { 'README.md': '## ES modules only\n', 'dist/index.js': 'export {};\n', 'dist/index.d.ts': 'export {};\n', 'dist/bundle/oclif-commands.js': '' });
    const explicit = { ...good, oclif: { commands: { strategy: 'explicit', target: './dist/bundle/oclif-commands.js', identifier: 'COMMANDS' } } };
    const files = goodFiles.filter((f) => f !== 'dist/bundle/commands/get.js');
    expect(tarballProblems({ dir, manifest: explicit }, [...files, 'dist/bundle/oclif-commands.js'])).toEqual([]);
    expect(tarballProblems({ dir, manifest: explicit }, files)).toEqual(['oclif.commands target (./dist/bundle/oclif-commands.js) is not in the tarball']);
  });
});

describe('published manifests', () => {
  const dev = { name: 'x', version: '1.0.0', nx: { tags: [] }, scripts: { prepack: 'node ../../tools/pack-test/src/published-manifest.js strip', postpack: 'node ../../tools/pack-test/src/published-manifest.js restore' }, devDependencies: { a: '1' }, dependencies: { b: '1' } };

  it('strips nx, scripts and devDependencies and nothing else', () => {
    expect(publishedManifest(dev)).toEqual({ name: 'x', version: '1.0.0', dependencies: { b: '1' } });
  });

  it("strips a folder's package.json for packing and restores it byte for byte, refusing to strip twice", () => {
    const pkg = mkdtempSync(join(tmpdir(), 'sc-manifest-'));
    const text = `${JSON.stringify(dev, null, 2)}\n`;
    writeFiles(pkg, { 'package.json': text });
    stripManifest(pkg);
    expect(JSON.parse(readFileSync(join(pkg, 'package.json'), 'utf8'))).toEqual(publishedManifest(dev));
    expect(() => stripManifest(pkg)).toThrow(/a previous pack did not finish/);
    restoreManifest(pkg);
    expect(readFileSync(join(pkg, 'package.json'), 'utf8')).toBe(text);
    rmSync(pkg, { recursive: true, force: true });
  });

  it('reports development fields left in a packed manifest and missing prepack/postpack steps', () => {
    expect(packedManifestProblems(dev, publishedManifest(dev))).toEqual([]);
    expect(packedManifestProblems({ ...dev, scripts: {} }, dev)).toEqual([
      'the packed package.json still has "nx"',
      'the packed package.json still has "scripts"',
      'the packed package.json still has "devDependencies"',
      'scripts.prepack does not end by stripping the manifest (published-manifest.js strip)',
      'scripts.postpack does not restore the manifest (published-manifest.js restore)',
    ]);
  });
});
