#!/usr/bin/env node
// Three rolldown builds from the compiled output (dist). Why: start-up time is mostly Node
// resolving and compiling modules; kysely alone is ~280 files, @oclif/core ~160.
//
// 1. dist/bundle: what oclif loads (package.json "oclif"): the built-in commands as oclif classes
//    (oclif-commands.js, oclif's explicit command discovery, for its manifest and help), the
//    hooks, and the plugin entry (plugin.js, `@session-checkpoint/cli/plugin`). @oclif/* stays
//    external: oclif's own copy must be the one commands extend, as must a plugin's BaseCommand
//    (src/plugin-host.ts).
// 2. dist/fast: dist/main.js, which bin/run.cjs loads, as CommonJS (`.cjs`): Node 20's ESM loader
//    costs more per module than require() (docs/decisions/0001-cli-commonjs-entry-and-lean-bundle.md),
//    and nothing on this path needs ESM. The built-in commands run from it without oclif, which
//    stays external and is loaded only for help, plugins and plugin commands. External dynamic
//    imports become require() calls (the externals are CommonJS), which skips the ESM loader for
//    better-sqlite3 too. It runs the same modules as dist/main.js, only bundled.
// Neither writes source maps: a map the tarball does not ship would only be a dangling
// `sourceMappingURL` (docs/releasing.md). In both, better-sqlite3 (native) and pg (loaded only
// for a database URL) stay external, and so does typescript, which oclif requires lazily for
// TypeScript plugins only. So do @session-checkpoint/langgraph and @langchain/* (only `migrate`
// loads them): optional, the user's own installed copies.
// 3. dist/inspect-ui: the page of `inspect` (src/inspect/browser/) with preact, htm and uPlot
//    inlined into one minified browser module, next to its HTML and CSS and the libraries'
//    licences. The tarball carries it, so the page loads nothing from the network.
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'rolldown';

const root = fileURLToPath(new URL('..', import.meta.url));
// Chunk names carry content hashes: without a clean start, every rebuild would leave the old
// chunks behind, and `npm pack` would ship them.
for (const dir of ['bundle', 'fast', 'inspect-ui']) rmSync(`${root}dist/${dir}`, { recursive: true, force: true });
const entries = (dir) => readdirSync(`${root}dist/${dir}`).filter((f) => f.endsWith('.js')).map((f) => [`${dir}/${f.slice(0, -3)}`, `${root}dist/${dir}/${f}`]);
const output = (dir) => ({ dir: `${root}dist/${dir}`, format: 'esm', entryFileNames: '[name].js', chunkFileNames: 'chunks/[name]-[hash].js', sourcemap: false });

await build({
  // plugin.js is `@session-checkpoint/cli/plugin` (package.json "exports"): one module and the
  // chunks it shares with the built-in commands, instead of the ~140 files of dist, core and
  // store-kysely it imports unbundled. Each is an ESM load, and while the plugin host's resolve
  // hook is on (src/plugin-host.ts) each also a round trip to Node 20's loader thread
  // (docs/decisions/0003-plugin-entry-bundled-resolve-hook-when-needed.md).
  input: Object.fromEntries([['oclif-commands', `${root}dist/command/oclif-commands.js`], ...entries('hooks'), ['plugin', `${root}dist/plugin.js`]]),
  platform: 'node',
  external: [/^node:/, 'better-sqlite3', 'pg', /^@oclif\//, '@session-checkpoint/langgraph', /^@langchain\//, '@session-checkpoint/mastra', /^@mastra\//],
  output: output('bundle'),
  logLevel: 'warn',
});

await build({
  input: { main: `${root}dist/main.js` },
  platform: 'node',
  external: [/^node:/, 'better-sqlite3', 'pg', /^@oclif\//, 'typescript', '@session-checkpoint/langgraph', /^@langchain\//, '@session-checkpoint/mastra', /^@mastra\//],
  // No comments and ASCII only: every call reads and parses these files, and one non-ASCII
  // character (a comment's dash, a literal U+10FFFF) makes V8 hold and scan the whole file as
  // UTF-16. No source maps, like the rest of dist (docs/releasing.md, "What a tarball holds"):
  // the tarball ships no sources for them to point at; the commented text is in dist/*.js.
  output: { ...output('fast'), format: 'cjs', entryFileNames: '[name].cjs', chunkFileNames: 'chunks/[name]-[hash].cjs', dynamicImportInCjs: false, comments: false, charset: 'ascii' },
  logLevel: 'warn',
});

const ui = `${root}dist/inspect-ui`;
const browser = `${root}src/inspect/browser`;
await build({
  input: { inspect: `${browser}/main.js` },
  platform: 'browser',
  output: { dir: ui, format: 'esm', entryFileNames: '[name].js', sourcemap: false, minify: true, comments: false },
  logLevel: 'warn',
});
mkdirSync(ui, { recursive: true });
for (const file of ['index.html', 'inspect.css']) copyFileSync(`${browser}/${file}`, `${ui}/${file}`);
const require = createRequire(import.meta.url);
// The folder of an installed package (htm's `exports` hide its package.json from require.resolve).
const packageDir = (name) => {
  for (let dir = dirname(require.resolve(name)); dir !== dirname(dir); dir = dirname(dir)) {
    if (existsSync(`${dir}/package.json`) && JSON.parse(readFileSync(`${dir}/package.json`, 'utf8')).name === name) return `${dir}/`;
  }
  throw new Error(`cannot find the folder of ${name}`);
};
copyFileSync(`${packageDir('uplot')}dist/uPlot.min.css`, `${ui}/uPlot.min.css`);
const licences = ['preact', 'htm', 'uplot'].map((name) => {
  const dir = packageDir(name);
  const { version, license } = JSON.parse(readFileSync(`${dir}package.json`, 'utf8'));
  const file = readdirSync(dir).find((f) => /^licen[cs]e/i.test(f));
  return `${name} ${version} (${license})\n\n${file ? readFileSync(`${dir}${file}`, 'utf8').trim() : ''}\n`;
});
writeFileSync(`${ui}/THIRD-PARTY-LICENSES.txt`, `The inspector's page (inspect.js) bundles these libraries:\n\n${licences.join('\n---\n\n')}`);
