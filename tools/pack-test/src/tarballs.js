/**
 * Packing the published packages and checking what each tarball holds, before anything is
 * installed from it.
 */
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { basename, join, posix, sep } from 'node:path';
import { DEVELOPMENT_FIELDS, stripManifest } from './published-manifest.js';

/**
 * The packages that go to npm: every folder under `packages/` whose package.json is not private,
 * so a new package is covered without editing this list.
 *
 * @example publishedPackages('/repo') // [{ dir: '/repo/packages/core', manifest: {...} }, ...]
 */
export function publishedPackages(root) {
  const base = join(root, 'packages');
  return readdirSync(base, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && existsSync(join(base, entry.name, 'package.json')))
    .map((entry) => ({ dir: join(base, entry.name), manifest: JSON.parse(readFileSync(join(base, entry.name, 'package.json'), 'utf8')) }))
    .filter(({ manifest }) => !manifest.private);
}

/**
 * Runs `npm pack` on what the build left in `dir` and returns the tarball path, its file list and
 * the package.json inside it. It packs a copy of the folder (without node_modules) whose
 * package.json has been through `stripManifest`, as the packages' `prepack` does for a real pack:
 * npm's scripts stay off (the Nx build already made dist/ and the oclif manifest, and the CLI's
 * prepack would rebuild its bundle under tests running beside this one), and the working tree is
 * never touched.
 */
export function packPackage(dir, destination, env) {
  const stage = join(mkdtempSync(join(destination, 'stage-')), basename(dir));
  try {
    cpSync(dir, stage, { recursive: true, filter: (source) => !source.slice(dir.length).split(sep).includes('node_modules') });
    stripManifest(stage);
    const result = spawnSync('npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', destination], { cwd: stage, env, encoding: 'utf8' });
    if (result.status !== 0) throw new Error(`npm pack failed in ${dir}:\n${result.stderr}`);
    const [info] = JSON.parse(result.stdout);
    const tarball = join(destination, info.filename);
    const manifest = JSON.parse(spawnSync('tar', ['-xzOf', tarball, 'package/package.json'], { encoding: 'utf8' }).stdout);
    return { tarball, files: info.files.map((file) => file.path), manifest };
  } finally {
    rmSync(join(stage, '..'), { recursive: true, force: true });
  }
}

/**
 * Problems of the package.json a tarball holds (`packed`), given the repository's own (`manifest`):
 * development fields left in, or a package whose `prepack`/`postpack` would not strip them when
 * packed or published for real.
 */
export function packedManifestProblems(manifest, packed) {
  const problems = DEVELOPMENT_FIELDS.filter((field) => field in packed).map((field) => `the packed package.json still has "${field}"`);
  if (!/published-manifest\.js strip$/.test(manifest.scripts?.prepack ?? '')) problems.push('scripts.prepack does not end by stripping the manifest (published-manifest.js strip)');
  if (!/published-manifest\.js restore$/.test(manifest.scripts?.postpack ?? '')) problems.push('scripts.postpack does not restore the manifest (published-manifest.js restore)');
  return problems;
}

/**
 * Everything wrong with one tarball's contents, as readable sentences (empty when it is fit to
 * publish). `dir` is the package folder the tarball was packed from, to read maps and README.
 */
export function tarballProblems({ dir, manifest }, files) {
  const problems = [];
  const shipped = new Set(files);
  for (const required of ['package.json', 'README.md', 'LICENSE', 'CHANGELOG.md']) {
    if (!shipped.has(required)) problems.push(`missing ${required}`);
  }
  for (const file of files) {
    if (/\.test\.|\.spec\./.test(file)) problems.push(`ships a test: ${file}`);
    if (/(^|\/)(fixtures|test-support|__tests__)\//.test(file)) problems.push(`ships test material: ${file}`);
    if (file.endsWith('.tsbuildinfo')) problems.push(`ships build state: ${file}`);
    if (/\.(?:[cm]?js|d\.[cm]?ts)$/.test(file)) {
      // A map reference must reach a shipped map (or be inline): a dangling one sends debuggers
      // and editors looking for a file that is not there.
      const reference = /\/[/*][#@] sourceMappingURL=(\S+?)(?:\s*\*\/)?\s*$/.exec(readFileSync(join(dir, file), 'utf8'))?.[1];
      if (reference !== undefined && !reference.startsWith('data:') && !shipped.has(posix.normalize(posix.join(posix.dirname(file), reference)))) {
        problems.push(`${file} names the source map ${reference}, which is not shipped`);
      }
    }
    if (file.endsWith('.map')) {
      const map = JSON.parse(readFileSync(join(dir, file), 'utf8'));
      for (const source of map.sources ?? []) {
        const target = posix.normalize(posix.join(posix.dirname(file), source));
        if (!shipped.has(target)) problems.push(`${file} points at ${source}, which is not shipped`);
      }
    }
  }
  for (const key of ['description', 'license', 'repository', 'homepage', 'bugs']) {
    if (!manifest[key]) problems.push(`package.json has no ${key}`);
  }
  // A package of ours may import another's `./internal` subpath (no semver promise) only if it
  // pins that package to one exact version as a dependency: a range, or a peer the application
  // chooses, could resolve to a release whose internals differ (docs/releasing.md). Every other
  // range on a package of ours is a caret range.
  const internals = new Set();
  for (const file of files) {
    if (!/\.[cm]?js$/.test(file)) continue;
    for (const [, name] of readFileSync(join(dir, file), 'utf8').matchAll(/['"](@session-checkpoint\/[a-z-]+)\/internal['"]/g)) if (name !== manifest.name) internals.add(name);
  }
  for (const name of internals) {
    if (!/^\d+\.\d+\.\d+$/.test(manifest.dependencies?.[name] ?? '')) problems.push(`imports ${name}/internal, which has no semver promise, but does not pin ${name} to an exact version in dependencies`);
  }
  for (const field of ['dependencies', 'peerDependencies', 'devDependencies']) {
    for (const [name, range] of Object.entries(manifest[field] ?? {})) {
      if (!name.startsWith('@session-checkpoint/') || /^\^\d+\.\d+\.\d+/.test(range)) continue;
      if (field === 'dependencies' && internals.has(name) && /^\d+\.\d+\.\d+$/.test(range)) continue;
      problems.push(`${field}.${name} is "${range}", not a caret range`);
    }
  }
  for (const [bin, path] of Object.entries(manifest.bin ?? {})) {
    if (path.startsWith('./')) problems.push(`bin.${bin} starts with ./ (npm publish drops it)`);
    if (!shipped.has(posix.normalize(path))) problems.push(`bin.${bin} (${path}) is not shipped`);
  }
  problems.push(...oclifProblems(manifest, files));
  const readme = readFileSync(join(dir, 'README.md'), 'utf8');
  const tag = `${manifest.name}@${manifest.version}`;
  for (const [, link] of readme.matchAll(/\]\(([^)\s]+)\)/g)) {
    if (!/^(https:|#)/.test(link) && !shipped.has(posix.normalize(link))) problems.push(`README link ${link} does not work on the registry page`);
    // Files of the repository are linked at this release's tag (docs/releasing.md), not at main.
    const ref = /^https:\/\/github\.com\/session-checkpoint\/session-checkpoint-ts\/(?:blob|tree)\/(.+)$/.exec(link)?.[1];
    if (ref !== undefined && !ref.startsWith(`${tag}/`)) problems.push(`README link ${link} is not at the tag ${tag}`);
  }
  if (!/ES modules only/.test(readme)) problems.push('README does not say the package is ES modules only');
  return problems;
}

/**
 * The oclif commands must be shipped: the module named by explicit discovery
 * (`{strategy: 'explicit', target}`), or the commands directory, each command only there (code
 * shipped once).
 */
function oclifProblems(manifest, files) {
  const commands = manifest.oclif?.commands;
  if (commands?.strategy === 'explicit') return files.includes(posix.normalize(commands.target)) ? [] : [`oclif.commands target (${commands.target}) is not in the tarball`];
  if (typeof commands !== 'string') return [];
  const dir = posix.normalize(commands).replace(/\/$/, '') + '/';
  const inside = files.filter((file) => file.startsWith(dir) && file.endsWith('.js'));
  if (inside.length === 0) return [`oclif.commands (${commands}) has no command in the tarball`];
  const names = new Set(inside.map((file) => file.slice(dir.length)));
  return files
    .filter((file) => !file.startsWith(dir) && /\/commands\//.test(file) && names.has(file.slice(file.lastIndexOf('/commands/') + 10)))
    .map((file) => `command code shipped twice: ${file} besides ${dir}`);
}
