#!/usr/bin/env node
// Two rolldown builds from the compiled output (dist). Why: start-up time is mostly Node
// resolving and compiling modules; kysely alone is ~280 files, @oclif/core ~160.
//
// 1. dist/bundle: the commands and hooks oclif loads (package.json "oclif.commands"), one chunk
//    per command plus shared chunks. @oclif/* stays external: oclif's own copy must be the one
//    commands extend, as must a plugin's BaseCommand (src/plugin-host.ts).
// 2. dist/fast: dist/main.js, which bin/run.js loads, as CommonJS (`.cjs`): Node 20's ESM loader
//    costs more per module than require() (about a sixth of a `get` was ESM loading), and nothing
//    on this path needs ESM. The direct path (src/direct/) runs get, list and create without
//    oclif; the fast path (src/fast-path.ts) runs the other built-in commands without oclif's
//    configuration, so oclif's command, parser and flag code is inlined there. Both apply only
//    when no plugin is installed. `@oclif/core/run`, the slow path's entry, stays external so that
//    path uses the copy in node_modules. External dynamic imports become require() calls (all
//    four externals are CommonJS), which skips the ESM loader for better-sqlite3 too.
// In both, better-sqlite3 (native) and pg (loaded only for a database URL) stay external, and so
// does typescript, which oclif requires lazily for TypeScript plugins only.
import { readdirSync, rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { build } from 'rolldown';

const root = fileURLToPath(new URL('..', import.meta.url));
// Chunk names carry content hashes: without a clean start, every rebuild would leave the old
// chunks behind, and `npm pack` would ship them.
for (const dir of ['bundle', 'fast']) rmSync(`${root}dist/${dir}`, { recursive: true, force: true });
const entries = (dir) => readdirSync(`${root}dist/${dir}`).filter((f) => f.endsWith('.js')).map((f) => [`${dir}/${f.slice(0, -3)}`, `${root}dist/${dir}/${f}`]);
const output = (dir) => ({ dir: `${root}dist/${dir}`, format: 'esm', entryFileNames: '[name].js', chunkFileNames: 'chunks/[name]-[hash].js', sourcemap: true });

await build({
  input: Object.fromEntries([...entries('commands'), ...entries('hooks')]),
  platform: 'node',
  external: [/^node:/, 'better-sqlite3', 'pg', /^@oclif\//],
  output: output('bundle'),
  logLevel: 'warn',
});

/*
 * The fast path never loads oclif's configuration, so its bundle takes oclif's command, flag and
 * argument modules directly instead of @oclif/core's index (which evaluates the plugin loader,
 * help and globbing code), and gives command.js a stand-in for ./config: the one use there is
 * `Command.run`'s `Config.load`, which the fast path does not call (it constructs the command).
 */
const OCLIF_SHIM = '\0oclif-core-fast';
const CONFIG_STUB = '\0oclif-config-unused';
const fastOclif = {
  name: 'fast-oclif',
  resolveId(source, importer) {
    if (source === '@oclif/core') return OCLIF_SHIM;
    if (source === './config' && importer?.replaceAll('\\', '/').endsWith('/@oclif/core/lib/command.js')) return CONFIG_STUB;
    return null;
  },
  load(id) {
    if (id === OCLIF_SHIM) return "export { Command } from '@oclif/core/command';\nexport * as Flags from '@oclif/core/flags';\nexport * as Args from '@oclif/core/args';\n";
    if (id === CONFIG_STUB) return "exports.Config = { load() { throw new Error('oclif configuration is not loaded on the fast path'); } };\n";
    return null;
  },
};

await build({
  input: { main: `${root}dist/main.js` },
  platform: 'node',
  plugins: [fastOclif],
  external: [/^node:/, 'better-sqlite3', 'pg', '@oclif/core/run', 'typescript'],
  output: { ...output('fast'), format: 'cjs', entryFileNames: '[name].cjs', chunkFileNames: 'chunks/[name]-[hash].cjs', dynamicImportInCjs: false },
  logLevel: 'warn',
});
