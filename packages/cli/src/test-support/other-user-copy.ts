import { spawnSync } from 'node:child_process';
import { chmodSync, cpSync, existsSync, lstatSync, mkdirSync, mkdtempSync, readFileSync, readlinkSync, realpathSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, isAbsolute, join, relative } from 'node:path';
import { CLI_BIN } from './run-cli.js';

/*
 * Tests that run the binary as another user (root dropping to `nobody` with setpriv) cannot run it
 * from the checkout: users clone into private (0700) directories, and `mktemp -d` and root's home
 * are 0700 too, so `nobody` cannot even reach bin/run.cjs. They run a copy instead: the built CLI
 * and every package it loads, in a fresh directory under the system temp directory, readable by
 * every user. When no such place exists the tests skip and say why.
 */

/** The repository root, from the binary's path (`<root>/packages/cli/bin/run.cjs`). */
const ROOT = realpathSync(join(dirname(CLI_BIN), '..', '..', '..'));

/** What a workspace package ships (its `files`): the rest (src, tests, caches) is not loaded. */
const SHIPPED = new Set(['package.json', 'bin', 'dist', 'oclif.manifest.json']);

/** The directory of package `name` as Node resolves it from `from`, or `undefined`. */
function packageDir(from: string, name: string): string | undefined {
  for (let dir = from; ; dir = dirname(dir)) {
    const candidate = join(dir, 'node_modules', name);
    if (existsSync(join(candidate, 'package.json'))) return candidate;
    if (dirname(dir) === dir) return undefined;
  }
}

/** Every package directory the CLI can load at run time (dependencies, optional and peer ones present), as found on the way. */
function runtimeClosure(start: string): string[] {
  const found = new Set<string>();
  const queue = [start];
  while (queue.length > 0) {
    const dir = queue.shift() as string;
    const manifest = JSON.parse(readFileSync(join(realpathSync(dir), 'package.json'), 'utf8')) as Record<string, Record<string, string> | undefined>;
    const names = [manifest.dependencies, manifest.optionalDependencies, manifest.peerDependencies].flatMap((deps) => Object.keys(deps ?? {}));
    for (const name of names) {
      const at = packageDir(realpathSync(dir), name);
      if (at === undefined || found.has(at)) continue;
      found.add(at);
      queue.push(at);
    }
  }
  return [...found];
}

/** Copies `dir` (a path inside the repository) to the same place under `target`; a workspace package only what it ships. */
function copyPackage(dir: string, target: string): void {
  const real = realpathSync(dir);
  // A package outside the repository (node_modules linked in from elsewhere) is copied where it was found.
  const outside = relative(ROOT, real).startsWith('..') || isAbsolute(relative(ROOT, real));
  const destination = join(target, relative(ROOT, outside ? dir : real));
  if (!existsSync(destination)) {
    const workspace = !relative(ROOT, real).split(/[\\/]/u).includes('node_modules');
    cpSync(real, destination, { recursive: true, verbatimSymlinks: true, filter: (source) => !workspace || dirname(source) !== real || SHIPPED.has(basename(source)) });
  }
  if (!outside && lstatSync(dir).isSymbolicLink()) {
    const link = join(target, relative(ROOT, dir));
    mkdirSync(dirname(link), { recursive: true });
    if (!existsSync(link)) symlinkSync(readlinkSync(dir), link);
  }
}

/** Runs `node -e script` as `nobody`; true when it exits 0. */
function nobodyRuns(script: string): boolean {
  const result = spawnSync('/usr/bin/setpriv', ['--reuid=nobody', '--regid=nogroup', '--clear-groups', process.execPath, '-e', script], { cwd: '/', stdio: 'ignore' });
  return result.status === 0;
}

/** Where the copy is, or why there is none. */
export type OtherUserCopy = { bin: string; root: string } | { reason: string };

/**
 * Copies the built CLI with every package it loads into a fresh directory under the system temp
 * directory, made readable and traversable by every user, and checks that `nobody` can load the
 * binary's entry from there. Call it as root with setpriv present.
 *
 * @example
 * ```ts
 * const copy = copyCliForOtherUsers();
 * if ('reason' in copy) console.warn(`SKIPPED: ${copy.reason}`);
 * ```
 */
export function copyCliForOtherUsers(): OtherUserCopy {
  const base = realpathSync(tmpdir());
  if (!nobodyRuns(`require('fs').accessSync(${JSON.stringify(base)}, require('fs').constants.X_OK)`)) {
    return { reason: `nobody cannot reach the temp directory ${base} (set TMPDIR to a directory every user may enter)` };
  }
  const target = mkdtempSync(join(base, 'sc-cli-for-nobody-'));
  chmodSync(target, 0o755);
  const cli = join(ROOT, 'packages', 'cli');
  for (const dir of [cli, ...runtimeClosure(cli)]) copyPackage(dir, target);
  // mkdtemp-made and copied directories keep their modes; open every directory of the copy for reading.
  spawnSync('chmod', ['-R', 'a+rX', target]);
  const bin = join(target, relative(ROOT, CLI_BIN));
  if (!nobodyRuns(`require('fs').accessSync(${JSON.stringify(bin)}, require('fs').constants.R_OK)`)) {
    return { reason: `nobody cannot read the copy of the CLI at ${bin}` };
  }
  return { bin, root: target };
}
