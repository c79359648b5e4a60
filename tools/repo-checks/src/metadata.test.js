// One version per package, told the same way everywhere: package.json, ranges of the packages
// that depend on it, its CHANGELOG.md, llms.txt and (for the CLI) `--version`. No doc names a
// folder of the machine it was written on, and the benchmark report keeps its hand-written part.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { caretSatisfies, publishedPackages, read, root, trackedFiles, workspacePackages } from './repo.js';

const published = publishedPackages();
const versionOf = new Map(published.map(({ manifest }) => [manifest.name, manifest.version]));

describe('versions', () => {
  // An exact pin (a dependency whose `./internal` subpath the package imports: tools/pack-test
  // checks that reason) must name the current version itself.
  it('every range on a workspace package is a caret range its current version satisfies, or an exact pin of that version', () => {
    const problems = [];
    for (const { dir, manifest } of published) {
      for (const field of ['dependencies', 'peerDependencies', 'devDependencies', 'optionalDependencies']) {
        for (const [name, range] of Object.entries(manifest[field] ?? {})) {
          const pinned = field === 'dependencies' && range === versionOf.get(name);
          if (versionOf.has(name) && !pinned && !caretSatisfies(range, versionOf.get(name))) problems.push(`${dir} ${field}.${name} "${range}" does not take ${versionOf.get(name)}`);
        }
      }
    }
    expect(problems).toEqual([]);
  });

  it.each(published.map(({ dir, manifest }) => [manifest.name, dir, manifest.version]))('%s: the newest CHANGELOG.md entry is its version', (name, dir, version) => {
    const newest = /^## (\d+\.\d+\.\d+\S*)/m.exec(read(`${dir}/CHANGELOG.md`));
    expect(newest?.[1]).toBe(version);
  });

  it('llms.txt lists every published package at its version', () => {
    const line = read('llms.txt').split('\n').find((l) => l.startsWith('Versions'));
    const listed = Object.fromEntries([...(line ?? '').matchAll(/(@session-checkpoint\/[a-z-]+) (\d+\.\d+\.\d+)/g)].map((m) => [m[1], m[2]]));
    expect(listed).toEqual(Object.fromEntries(versionOf));
  });

  it("the CLI's --version names the CLI package's version", () => {
    const result = spawnSync(process.execPath, [join(root, 'packages/cli/bin/run.cjs'), '--version'], { encoding: 'utf8', env: { ...process.env, NODE_ENV: 'production' } });
    expect(result.status).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({ ok: true, result: { name: '@session-checkpoint/cli', version: versionOf.get('@session-checkpoint/cli') } });
  });

  it.each(published.map(({ dir, manifest }) => [manifest.name, dir]))('%s: its LICENSE is the repository LICENSE', (name, dir) => {
    expect(read(`${dir}/LICENSE`)).toBe(read('LICENSE'));
  });

  it('tools and examples are private: only packages/ is released', () => {
    const releasable = workspacePackages().filter(({ dir, manifest }) => !dir.startsWith('packages/') && !manifest.private);
    expect(releasable.map(({ dir }) => dir)).toEqual([]);
  });
});

describe('docs', () => {
  it('name no absolute folder of this machine (work, root, home or tmp at the file system root)', () => {
    const docs = trackedFiles().filter((file) => /\.(md|txt)$/.test(file));
    expect(docs.length).toBeGreaterThan(5);
    const hits = docs.flatMap((file) => read(file).split('\n').flatMap((line, i) => (/(^|[\s`'"(=:])\/(work|root|home|tmp)\//.test(line) ? [`${file}:${i + 1}: ${line.trim()}`] : [])));
    expect(hits).toEqual([]);
  });

  it('docs/benchmarks.md ends with tools/bench/figures.md and the link to the decision records, so a bench run that rewrites the report keeps every hand-measured figure', () => {
    // The bench writes its tables, then appends figures.md and the link (tools/bench/src/report.ts).
    const figures = read('tools/bench/figures.md').trimEnd();
    expect(figures).toContain('## Figures from their own scripts');
    const link = 'Why each design was chosen, with the figures that decided it: [decisions/](decisions/README.md).';
    expect(read('docs/benchmarks.md').endsWith(`\n${figures}\n\n${link}\n`)).toBe(true);
    expect(read('docs/decisions/README.md')).toContain('| [0013](0013-first-reads-leave-less-garbage.md) |');
  });
});
