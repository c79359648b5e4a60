#!/usr/bin/env node
// Two rolldown builds from the compiled output (dist). Why: start-up time is mostly Node
// resolving and compiling modules; kysely alone is ~280 files, @oclif/core ~160.
//
// 1. dist/bundle: the commands and hooks oclif loads (package.json "oclif.commands"), one chunk
//    per command plus shared chunks. @oclif/* stays external: oclif's own copy must be the one
//    commands extend, as must a plugin's BaseCommand (src/plugin-host.ts).
// 2. dist/fast: dist/main.js, which bin/run.js loads. Its fast path (src/fast-path.ts) runs a
//    built-in command without oclif's configuration when no plugin is installed, so oclif's
//    command, parser and flag code is inlined there (one file to compile). `@oclif/core/run`,
//    the slow path's entry, stays external so that path uses the copy in node_modules.
// In both, better-sqlite3 (native) and pg (loaded only for a database URL) stay external, and so
// does typescript, which oclif requires lazily for TypeScript plugins only.
import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { build } from 'rolldown';

const root = fileURLToPath(new URL('..', import.meta.url));
const entries = (dir) => readdirSync(`${root}dist/${dir}`).filter((f) => f.endsWith('.js')).map((f) => [`${dir}/${f.slice(0, -3)}`, `${root}dist/${dir}/${f}`]);
const output = (dir) => ({ dir: `${root}dist/${dir}`, format: 'esm', entryFileNames: '[name].js', chunkFileNames: 'chunks/[name]-[hash].js', sourcemap: true });

await build({
  input: Object.fromEntries([...entries('commands'), ...entries('hooks')]),
  platform: 'node',
  external: [/^node:/, 'better-sqlite3', 'pg', /^@oclif\//],
  output: output('bundle'),
  logLevel: 'warn',
});

await build({
  input: { main: `${root}dist/main.js` },
  platform: 'node',
  external: [/^node:/, 'better-sqlite3', 'pg', '@oclif/core/run', 'typescript'],
  output: output('fast'),
  logLevel: 'warn',
});
