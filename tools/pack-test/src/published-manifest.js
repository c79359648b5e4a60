#!/usr/bin/env node
/**
 * What goes to npm in a package's package.json: the development fields (`nx`, `scripts`,
 * `devDependencies`) are left out. Each package's `prepack` runs `strip` (it keeps the original
 * beside it as `.package.json.dev`) and its `postpack` runs `restore`, so `npm pack` and
 * `npm publish` ship the clean manifest and the working tree gets its own back
 * (docs/releasing.md, "What a tarball holds"). tools/pack-test packs copies the same way and
 * checks every packed manifest.
 *
 * Usage (from a package folder): `node ../../tools/pack-test/src/published-manifest.js strip|restore`
 */
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Fields only the repository needs: Nx's project settings, npm scripts, development dependencies. */
export const DEVELOPMENT_FIELDS = ['nx', 'scripts', 'devDependencies'];

/** Where `strip` keeps the original package.json (a dot file: never in a tarball's `files`). */
export const KEPT_ORIGINAL = '.package.json.dev';

/**
 * The manifest as published: `manifest` without {@link DEVELOPMENT_FIELDS}, key order kept.
 *
 * @example publishedManifest({ name: 'x', scripts: { lint: 'eslint src' } }) // { name: 'x' }
 */
export function publishedManifest(manifest) {
  return Object.fromEntries(Object.entries(manifest).filter(([key]) => !DEVELOPMENT_FIELDS.includes(key)));
}

/**
 * Replaces `dir`'s package.json with the published one, keeping the original as
 * {@link KEPT_ORIGINAL}. Refuses when a kept original is already there (a pack that failed before
 * `postpack`): `restore` first, so the original is never overwritten by a stripped copy.
 */
export function stripManifest(dir) {
  const path = join(dir, 'package.json');
  const kept = join(dir, KEPT_ORIGINAL);
  if (existsSync(kept)) throw new Error(`${kept} exists: a previous pack did not finish; run "restore" first`);
  const text = readFileSync(path, 'utf8');
  writeFileSync(kept, text);
  writeFileSync(path, `${JSON.stringify(publishedManifest(JSON.parse(text)), null, 2)}\n`);
}

/** Puts the original package.json back (nothing to do when none is kept). */
export function restoreManifest(dir) {
  const kept = join(dir, KEPT_ORIGINAL);
  if (existsSync(kept)) renameSync(kept, join(dir, 'package.json'));
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) {
  const [command] = process.argv.slice(2);
  if (command === 'strip') stripManifest(process.cwd());
  else if (command === 'restore') restoreManifest(process.cwd());
  else {
    process.stderr.write('usage: published-manifest.js strip|restore (in a package folder)\n');
    process.exitCode = 2;
  }
}
