#!/usr/bin/env node
// Bundles the compiled commands and hooks (dist/commands, dist/hooks) into dist/bundle with
// shared chunks, which is what oclif loads (package.json "oclif.commands"). Why: start-up time is
// mostly Node resolving and compiling modules; kysely alone is ~280 files. One chunk per command
// plus shared chunks cuts a `get` call by about a third. @oclif/* and the native or optional
// drivers stay external (oclif is loaded by bin/run.js anyway; better-sqlite3 is native; pg is
// loaded only for a database URL).
import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { build } from 'rolldown';

const root = fileURLToPath(new URL('..', import.meta.url));
const entries = (dir) => readdirSync(`${root}dist/${dir}`).filter((f) => f.endsWith('.js')).map((f) => [`${dir}/${f.slice(0, -3)}`, `${root}dist/${dir}/${f}`]);

await build({
  input: Object.fromEntries([...entries('commands'), ...entries('hooks')]),
  platform: 'node',
  external: [/^node:/, 'better-sqlite3', 'pg', /^@oclif\//],
  output: { dir: `${root}dist/bundle`, format: 'esm', entryFileNames: '[name].js', chunkFileNames: 'chunks/[name]-[hash].js', sourcemap: true },
  logLevel: 'warn',
});
