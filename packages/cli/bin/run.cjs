#!/usr/bin/env node
// Every outcome is one JSON document on stdout, even a failure to load the CLI itself.
// CommonJS on purpose: an ES module entry makes Node 20 start its ESM loader (and build
// namespace facades for every built-in it imports) before any of our code runs, which cost a
// `get` about 5 ms of CPU against this file (docs/cli.md, Start-up time).
'use strict';
const { lstatSync, mkdirSync } = require('node:fs');
const nodeModule = require('node:module');
const { homedir } = require('node:os');
const { dirname, join } = require('node:path');
const { pathToFileURL } = require('node:url');

/**
 * Node >= 22.1 can cache compiled code between runs, and start-up is mostly module compilation.
 * The cache lives in this user's own cache folder ($XDG_CACHE_HOME/session-checkpoint, else
 * ~/.cache/session-checkpoint), never in a shared one such as Node's default under /tmp, where
 * another user could plant compiled code: the folder and its parent must be directories (not
 * links) owned by this user and closed to group and others, or the cache stays off. Any failure
 * (no home, read-only disk) leaves it off too; a run never depends on it. A no-op on Node 20.
 */
function enableCompileCache() {
  if (typeof nodeModule.enableCompileCache !== 'function') return;
  try {
    const dir = join(process.env.XDG_CACHE_HOME || join(homedir(), '.cache'), 'session-checkpoint', 'node-compile-cache');
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const uid = process.getuid?.();
    for (const path of [dirname(dir), dir]) {
      const stat = lstatSync(path);
      if (!stat.isDirectory()) return;
      if (uid !== undefined && (stat.uid !== uid || (stat.mode & 0o077) !== 0)) return;
    }
    nodeModule.enableCompileCache(dir);
  } catch {
    // The cache is an optimisation only.
  }
}

function exit(code) {
  // Exit once stdout has drained: a lingering handle (a pool timer) must not keep us alive.
  process.stdout.write('', () => process.exit(code));
}

function fail(error) {
  const message = error instanceof Error ? error.message : String(error);
  process.stdout.write(`${JSON.stringify({ ok: false, error: message, type: 'InternalError' }, null, 2)}\n`);
  exit(1);
}

enableCompileCache();
try {
  // main() installs the stderr guard before anything loads oclif (whose modules keep a reference
  // to process.stderr.write); the bundle's static imports never reach oclif. oclif finds the
  // package root from this file's URL.
  const { main } = require('../dist/fast/main.cjs');
  main(process.argv.slice(2), pathToFileURL(__filename).href).then(exit, fail);
} catch (error) {
  fail(error);
}
