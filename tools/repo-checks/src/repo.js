/** Reading the repository these checks run over. */
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository root (this file is tools/repo-checks/src/repo.js). */
export const root = fileURLToPath(new URL('../../../', import.meta.url));

/** A file of the repository as text. */
export function read(path) {
  return readFileSync(join(root, path), 'utf8');
}

/** Every package.json under packages/, tools/ and examples/: { dir, manifest }. */
export function workspacePackages() {
  return ['packages', 'tools', 'examples'].flatMap((group) => {
    if (!existsSync(join(root, group))) return [];
    return readdirSync(join(root, group))
      .filter((name) => existsSync(join(root, group, name, 'package.json')))
      .map((name) => ({ dir: `${group}/${name}`, manifest: JSON.parse(read(`${group}/${name}/package.json`)) }));
  });
}

/** The packages that are published: under packages/ and not private. */
export function publishedPackages() {
  return workspacePackages().filter(({ dir, manifest }) => dir.startsWith('packages/') && !manifest.private);
}

/** The files git tracks (so generated and ignored files are left out). */
export function trackedFiles() {
  const result = spawnSync('git', ['ls-files', '-z'], { cwd: root, encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`git ls-files failed: ${result.stderr}`);
  return result.stdout.split('\0').filter(Boolean);
}

/** The fenced code blocks of a Markdown text, each with its fence line, in order. */
export function codeBlocks(markdown) {
  return [...markdown.matchAll(/^```[^\n]*\n[\s\S]*?^```$/gm)].map((match) => match[0]);
}

/** The heading levels of a Markdown text outside code blocks, e.g. [1, 2, 2, 3]. */
export function headingLevels(markdown) {
  const prose = codeBlocks(markdown).reduce((text, block) => text.replace(block, ''), markdown);
  return [...prose.matchAll(/^(#{1,6}) /gm)].map((match) => match[1].length);
}

/**
 * Whether `version` satisfies a caret range the way npm reads it (below 1.0 the minor is the
 * breaking part). Only the `^x.y.z` form that the workspace uses.
 *
 * @example caretSatisfies('^0.1.0', '0.1.3') // true
 */
export function caretSatisfies(range, version) {
  const match = /^\^(\d+)\.(\d+)\.(\d+)$/.exec(range);
  if (!match) return false;
  const [lo, v] = [match.slice(1).map(Number), version.split('.').map(Number)];
  const atLeast = v[0] > lo[0] || (v[0] === lo[0] && (v[1] > lo[1] || (v[1] === lo[1] && v[2] >= lo[2])));
  if (!atLeast) return false;
  if (lo[0] > 0) return v[0] === lo[0];
  if (lo[1] > 0) return v[0] === 0 && v[1] === lo[1];
  return v[0] === 0 && v[1] === 0 && v[2] === lo[2];
}
