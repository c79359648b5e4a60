/**
 * A throw-away npm project outside the workspace (in the OS temp folder) that installs the packed
 * tarballs the way a stranger would, so nothing resolves through the workspace's links.
 */
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * The environment for child processes: npm's own `npm_*` variables from the surrounding
 * `npm test` are dropped (they would point npm back at the workspace), the cache and registry
 * are kept, so are vitest's (`NODE_ENV=test` puts oclif in development mode, which a user's shell
 * does not), and oclif's data, config and cache folders live inside the project.
 */
export function cleanEnv(project) {
  const keep = (key) => (!key.startsWith('npm_') || key === 'npm_config_cache' || key === 'npm_config_registry') && !key.startsWith('VITEST') && key !== 'NODE_ENV';
  const env = Object.fromEntries(Object.entries(process.env).filter(([key]) => keep(key)));
  if (project) Object.assign(env, { XDG_DATA_HOME: join(project, '.xdg', 'data'), XDG_CONFIG_HOME: join(project, '.xdg', 'config'), XDG_CACHE_HOME: join(project, '.xdg', 'cache'), OCLIF_SKIP_NEW_VERSION_CHECK: 'true', OCLIF_DISABLE_LINKED_ESM_WARNING: '1' });
  return env;
}

/**
 * Runs a command in `cwd` and returns `{ status, stdout, stderr }`; never throws on a non-zero exit.
 *
 * @example run(project, 'node', ['store.mjs']).stdout
 */
export function run(cwd, command, args, env = cleanEnv(cwd)) {
  const result = spawnSync(command, args, { cwd, env, encoding: 'utf8' });
  if (result.error) throw result.error;
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

/**
 * Makes the project and installs `tarballs` into it. Third-party dependencies come from the npm
 * cache when it has them (`--prefer-offline`), else from the registry. Install scripts are off;
 * better-sqlite3's native binding is then taken from the workspace when the versions match
 * (the same Node, the same release: compiling it again takes minutes and tests nothing of ours),
 * and rebuilt otherwise.
 */
export function createScratchProject(tarballs, workspaceRoot) {
  const project = mkdtempSync(join(tmpdir(), 'sc-pack-test-'));
  writeFileSync(join(project, 'package.json'), `${JSON.stringify({ name: 'sc-pack-test-app', version: '1.0.0', private: true }, null, 2)}\n`);
  const install = run(project, 'npm', ['install', '--prefer-offline', '--ignore-scripts', '--no-audit', '--no-fund', ...tarballs]);
  if (install.status !== 0) throw new Error(`npm install of the tarballs failed:\n${install.stderr}`);
  provideSqliteBinding(project, workspaceRoot);
  return project;
}

/**
 * Installs `tarballs` globally (`npm i -g`) under a fresh prefix in the OS temp folder, as a user
 * installs the CLI, and returns the prefix: the binary is `<prefix>/bin/session-checkpoint`.
 * npm makes each tarball a top-level global package, so the CLI's dependencies (better-sqlite3,
 * pg) sit in the CLI's own node_modules, out of reach of the store-kysely beside it.
 */
export function installGlobally(tarballs, workspaceRoot) {
  const prefix = mkdtempSync(join(tmpdir(), 'sc-pack-global-'));
  const install = run(prefix, 'npm', ['install', '--global', '--prefix', prefix, '--prefer-offline', '--ignore-scripts', '--no-audit', '--no-fund', ...tarballs]);
  if (install.status !== 0) throw new Error(`npm install --global of the tarballs failed:\n${install.stderr}`);
  provideSqliteBinding(join(prefix, 'lib', 'node_modules', '@session-checkpoint', 'cli'), workspaceRoot);
  return prefix;
}

/** Gives the better-sqlite3 under `project/node_modules` its native binding (install scripts are off). */
function provideSqliteBinding(project, workspaceRoot) {
  const target = join(project, 'node_modules', 'better-sqlite3');
  if (!existsSync(target)) return;
  const binding = join('build', 'Release', 'better_sqlite3.node');
  const version = (dir) => JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')).version;
  let source;
  try {
    source = join(createRequire(join(workspaceRoot, 'packages', 'store-kysely', 'package.json')).resolve('better-sqlite3/package.json'), '..');
  } catch {
    source = undefined;
  }
  if (source && version(source) === version(target) && existsSync(join(source, binding))) {
    mkdirSync(join(target, 'build', 'Release'), { recursive: true });
    copyFileSync(join(source, binding), join(target, binding));
    return;
  }
  const rebuild = run(project, 'npm', ['rebuild', 'better-sqlite3']);
  if (rebuild.status !== 0) throw new Error(`npm rebuild better-sqlite3 failed:\n${rebuild.stderr}`);
}

/** Writes `files` (name -> text) into `dir`, creating folders. */
export function writeFiles(dir, files) {
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(join(dir, name, '..'), { recursive: true });
    writeFileSync(join(dir, name), text);
  }
}
