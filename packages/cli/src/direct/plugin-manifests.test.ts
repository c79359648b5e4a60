import { execFileSync } from 'node:child_process';
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { EXAMPLE_PLUGIN, dataHomeLinking, hookPlugin } from '../test-support/plugin-setups.js';
import { removeTempDirs, tempDir } from '../test-support/run-cli.js';
import { pluginCommandFile, pluginsLeaveBuiltinAlone } from './plugin-manifests.js';

const work = tempDir('sc-plugin-manifests-');
let n = 0;

/** A data directory (not its XDG home) linking plugins made by `make`. */
function dataDirLinking(...roots: string[]): string {
  return join(dataHomeLinking(join(work, `home-${n++}`), roots), 'session-checkpoint');
}

/** A plugin folder with the given package.json fields and files. */
function plugin(pjson: Record<string, unknown>, files: Record<string, string> = {}): string {
  const root = join(work, `plugin-${n++}`);
  mkdirSync(root, { recursive: true });
  writeFileSync(join(root, 'package.json'), JSON.stringify({ name: `p${n}`, version: '1.0.0', type: 'module', ...pjson }));
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(root, path, '..'), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  return root;
}

const manifest = (commands: Record<string, unknown>, version = '1.0.0') => JSON.stringify({ version, commands });

describe('pluginsLeaveBuiltinAlone', () => {
  afterAll(removeTempDirs);

  it('is true with no plugin record, or a record of no plugins', () => {
    expect(pluginsLeaveBuiltinAlone('get', join(work, 'nothing-here'))).toBe(true);
    expect(pluginsLeaveBuiltinAlone('get', dataDirLinking())).toBe(true);
  });

  it('is true for the example plugin, which only adds `hello`', () => {
    expect(pluginsLeaveBuiltinAlone('get', dataDirLinking(EXAMPLE_PLUGIN))).toBe(true);
    expect(pluginsLeaveBuiltinAlone('hello', dataDirLinking(EXAMPLE_PLUGIN))).toBe(false);
  });

  it('is false when a plugin declares a hook or nested plugins', () => {
    expect(pluginsLeaveBuiltinAlone('get', dataDirLinking(EXAMPLE_PLUGIN, hookPlugin(join(work, 'hooked'), join(work, 'm'))))).toBe(false);
    expect(pluginsLeaveBuiltinAlone('get', dataDirLinking(plugin({ oclif: { commands: './c', plugins: ['other'] } })))).toBe(false);
  });

  it('reads command ids and aliases from a manifest of the same version', () => {
    const aliased = plugin({ oclif: { commands: './c' } }, { 'oclif.manifest.json': manifest({ fetch: { id: 'fetch', aliases: ['get'] } }) });
    expect(pluginsLeaveBuiltinAlone('get', dataDirLinking(aliased))).toBe(false);
    expect(pluginsLeaveBuiltinAlone('list', dataDirLinking(aliased))).toBe(true);
    const hidden = plugin({ oclif: { commands: './c' } }, { 'oclif.manifest.json': manifest({ fetch: { id: 'fetch', hiddenAliases: ['list'] } }) });
    expect(pluginsLeaveBuiltinAlone('list', dataDirLinking(hidden))).toBe(false);
    // oclif ignores a manifest of another version and loads the classes; so the files decide.
    const stale = plugin({ oclif: { commands: './c' } }, { 'oclif.manifest.json': manifest({ fetch: { id: 'fetch' } }, '0.9.0'), 'c/get.js': 'export default class {}' });
    expect(pluginsLeaveBuiltinAlone('get', dataDirLinking(stale))).toBe(false);
    expect(pluginsLeaveBuiltinAlone('list', dataDirLinking(stale))).toBe(true);
  });

  it('without a manifest, takes ids from the command files and gives up where aliases may be declared', () => {
    const nested = plugin({ oclif: { commands: './c' } }, { 'c/get/index.js': 'export default class {}', 'c/tools/list.js': 'export default class {}' });
    expect(pluginsLeaveBuiltinAlone('get', dataDirLinking(nested))).toBe(false);
    expect(pluginsLeaveBuiltinAlone('list', dataDirLinking(nested))).toBe(true);
    const aliases = plugin({ oclif: { commands: './c' } }, { 'c/fetch.js': 'export default class {}', 'lib/base.js': "export class B { static aliases = ['get'] }" });
    expect(pluginsLeaveBuiltinAlone('list', dataDirLinking(aliases))).toBe(false);
    const withDependencies = plugin({ oclif: { commands: './c' }, dependencies: { 'some-base': '1.0.0' } }, { 'c/fetch.js': 'export default class {}' });
    expect(pluginsLeaveBuiltinAlone('list', dataDirLinking(withDependencies))).toBe(false);
    const explicit = plugin({ oclif: { commands: { strategy: 'explicit', target: './index.js' } } });
    expect(pluginsLeaveBuiltinAlone('list', dataDirLinking(explicit))).toBe(false);
  });

  it('finds installed plugins in the data directory', () => {
    const dir = join(work, 'installed', 'session-checkpoint');
    const root = join(dir, 'node_modules', 'inst');
    mkdirSync(join(root, 'c'), { recursive: true });
    writeFileSync(join(root, 'package.json'), JSON.stringify({ name: 'inst', version: '2.0.0', oclif: { commands: './c' } }));
    writeFileSync(join(root, 'c', 'sessions.js'), 'module.exports = class {}');
    writeFileSync(join(dir, 'package.json'), JSON.stringify({ oclif: { plugins: [{ name: 'inst', type: 'user', tag: 'latest' }] }, dependencies: { inst: '2.0.0' } }));
    expect(pluginsLeaveBuiltinAlone('sessions', dir)).toBe(false);
    expect(pluginsLeaveBuiltinAlone('get', dir)).toBe(true);
  });

  it('is false, without blocking, for anything it cannot read: a broken record, a FIFO, a missing plugin, a symlink in a plugin', () => {
    const broken = join(work, 'broken');
    mkdirSync(broken);
    writeFileSync(join(broken, 'package.json'), '{broken');
    expect(pluginsLeaveBuiltinAlone('get', broken)).toBe(false);
    const fifo = join(work, 'fifo');
    mkdirSync(fifo);
    execFileSync('mkfifo', [join(fifo, 'package.json')]);
    expect(pluginsLeaveBuiltinAlone('get', fifo)).toBe(false);
    expect(pluginsLeaveBuiltinAlone('get', dataDirLinking(join(work, 'no-such-plugin')))).toBe(false);
    const linked = plugin({ oclif: { commands: './c' } }, { 'c/fetch.js': 'export default class {}' });
    symlinkSync('/', join(linked, 'c', 'elsewhere'));
    expect(pluginsLeaveBuiltinAlone('get', dataDirLinking(linked))).toBe(false);
  });
});

describe('pluginCommandFile', () => {
  afterAll(removeTempDirs);

  it('finds the example plugin\'s command from its commands folder', () => {
    expect(pluginCommandFile('hello', dataDirLinking(EXAMPLE_PLUGIN))).toBe(join(EXAMPLE_PLUGIN, 'src', 'commands', 'hello.js'));
    expect(pluginCommandFile('nothing', dataDirLinking(EXAMPLE_PLUGIN))).toBeUndefined();
  });

  it('takes the file from a manifest\'s relativePath, and only for a command id', () => {
    const withPaths = plugin({ oclif: { commands: './c' } }, { 'oclif.manifest.json': manifest({ fetch: { id: 'fetch', aliases: ['grab'], relativePath: ['c', 'fetch.js'] } }) });
    expect(pluginCommandFile('fetch', dataDirLinking(withPaths))).toBe(join(withPaths, 'c', 'fetch.js'));
    expect(pluginCommandFile('grab', dataDirLinking(withPaths))).toBeUndefined();
    const noPaths = plugin({ oclif: { commands: './c' } }, { 'oclif.manifest.json': manifest({ fetch: { id: 'fetch' } }) });
    expect(pluginCommandFile('fetch', dataDirLinking(noPaths))).toBeUndefined();
    const escaping = plugin({ oclif: { commands: './c' } }, { 'oclif.manifest.json': manifest({ fetch: { id: 'fetch', relativePath: ['..', 'x.js'] } }) });
    expect(pluginCommandFile('fetch', dataDirLinking(escaping))).toBeUndefined();
  });

  it('gives up on TypeScript plugins, hooks, two owners, two files for one id, and unreadable records', () => {
    const typescript = plugin({ oclif: { commands: './c' } }, { 'c/fetch.js': 'export default class {}', 'tsconfig.json': '{}' });
    expect(pluginCommandFile('fetch', dataDirLinking(typescript))).toBeUndefined();
    const hooked = hookPlugin(join(work, 'hooked-file'), join(work, 'm2'));
    expect(pluginCommandFile('hello', dataDirLinking(EXAMPLE_PLUGIN, hooked))).toBeUndefined();
    const twin = plugin({ oclif: { commands: './c' } }, { 'c/hello.js': 'export default class {}' });
    expect(pluginCommandFile('hello', dataDirLinking(EXAMPLE_PLUGIN, twin))).toBeUndefined();
    const doubled = plugin({ oclif: { commands: './c' } }, { 'c/fetch.js': 'export default class {}', 'c/fetch/index.js': 'export default class {}' });
    expect(pluginCommandFile('fetch', dataDirLinking(doubled))).toBeUndefined();
    const broken = join(work, 'broken-file');
    mkdirSync(broken);
    writeFileSync(join(broken, 'package.json'), '{broken');
    expect(pluginCommandFile('hello', broken)).toBeUndefined();
  });
});
