import { existsSync, mkdirSync, realpathSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { HOST_FALLBACK_PACKAGES, SHARED_PACKAGES } from './plugin-host.js';
import { hostHookChangesResolution } from './plugin-resolution.js';
import { EXAMPLE_PLUGIN } from './test-support/plugin-setups.js';
import { removeTempDirs, tempDir } from './test-support/run-cli.js';

const HOST = fileURLToPath(new URL('..', import.meta.url));
const work = tempDir('sc-plugin-resolution-');
let n = 0;

/** The host's own copy of a package (what the hook hands a plugin). */
function hostCopy(name: string): string {
  if (name === '@session-checkpoint/cli') return realpathSync(HOST);
  for (let dir = HOST; ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'node_modules', name, 'package.json'))) return realpathSync(join(dir, 'node_modules', name));
    if (dirname(dir) === dir) throw new Error(`${name} not found from the host`);
  }
}

/**
 * A folder with a node_modules of links to the host's copies of the shared and fallback
 * packages (a workspace the host lives in), with a plugin (a package.json and one command file)
 * inside it; `replace` puts a separate copy of some packages there instead.
 */
function workspacePlugin(replace: string[] = []): string {
  const workspace = join(work, `workspace-${n++}`);
  for (const name of [...SHARED_PACKAGES, ...HOST_FALLBACK_PACKAGES]) {
    const at = join(workspace, 'node_modules', name);
    mkdirSync(dirname(at), { recursive: true });
    if (replace.includes(name)) {
      mkdirSync(at);
      writeFileSync(join(at, 'package.json'), JSON.stringify({ name, version: '0.0.0' }));
    } else {
      symlinkSync(hostCopy(name), at);
    }
  }
  const root = join(workspace, 'plugin');
  mkdirSync(join(root, 'commands'), { recursive: true });
  writeFileSync(join(root, 'package.json'), JSON.stringify({ name: 'p', version: '1.0.0', type: 'module' }));
  writeFileSync(join(root, 'commands', 'x.js'), "export { BaseCommand as default } from '@session-checkpoint/cli/plugin';\n");
  return root;
}

const changes = (roots: string[]) => hostHookChangesResolution(HOST, roots, SHARED_PACKAGES, HOST_FALLBACK_PACKAGES);

describe('hostHookChangesResolution', () => {
  afterAll(removeTempDirs);

  it('is false without plugins, and for the example plugin linked in this workspace', () => {
    expect(changes([])).toBe(false);
    expect(changes([EXAMPLE_PLUGIN])).toBe(false);
  });

  it('is false for a plugin whose own lookup lands on the host copies, with a data directory holding no code', () => {
    const data = join(work, `data-${n++}`);
    mkdirSync(data);
    writeFileSync(join(data, 'package.json'), '{"private": true, "oclif": {"plugins": []}}');
    expect(changes([data, workspacePlugin()])).toBe(false);
  });

  it('is true when a plugin finds its own copy of a shared package', () => {
    expect(changes([workspacePlugin(['@oclif/core'])])).toBe(true);
    expect(changes([workspacePlugin(['@session-checkpoint/cli'])])).toBe(true);
  });

  it('is true when a plugin cannot find a shared package (an installed plugin: optional peers are not installed)', () => {
    const root = join(work, `alone-${n++}`);
    mkdirSync(root);
    writeFileSync(join(root, 'index.js'), "import '@session-checkpoint/cli/plugin';\n");
    expect(changes([root])).toBe(true);
  });

  it('is true for a data directory with installed plugins, and a plugin with a node_modules or a link inside', () => {
    const data = join(work, `data-${n++}`);
    mkdirSync(join(data, 'node_modules'), { recursive: true });
    expect(changes([data])).toBe(true);
    const nested = workspacePlugin();
    mkdirSync(join(nested, 'node_modules'));
    expect(changes([nested])).toBe(true);
    const linked = workspacePlugin();
    symlinkSync(join(linked, 'commands'), join(linked, 'more'));
    expect(changes([linked])).toBe(true);
  });
});
