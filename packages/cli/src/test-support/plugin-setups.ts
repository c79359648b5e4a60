import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The example plugin (examples/plugin-hello): adds `hello`, no hooks, no manifest. */
export const EXAMPLE_PLUGIN = fileURLToPath(new URL('../../../../examples/plugin-hello', import.meta.url));

/**
 * Writes an XDG data home whose plugin record links `roots` (what `plugins link` records), and
 * returns it (for `XDG_DATA_HOME`).
 */
export function dataHomeLinking(home: string, roots: readonly string[]): string {
  const dir = join(home, 'session-checkpoint');
  mkdirSync(dir, { recursive: true });
  const plugins = roots.map((root, i) => ({ name: `linked-plugin-${i}`, type: 'link', root }));
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ private: true, oclif: { schema: 1, plugins } }));
  return home;
}

/**
 * A plugin with no commands and an `init` hook that leaves `marker` behind (showing that oclif
 * loaded it). A hook could change any command, so every call goes through oclif while it is
 * installed: the way to run a corpus through oclif's path.
 */
export function hookPlugin(root: string, marker: string): string {
  mkdirSync(join(root, 'commands'), { recursive: true });
  writeFileSync(join(root, 'init.js'), `import { writeFileSync } from 'node:fs';\nexport default async function () { writeFileSync(${JSON.stringify(marker)}, ''); }\n`);
  writeFileSync(join(root, 'package.json'), JSON.stringify({ name: 'hook-plugin', version: '1.0.0', type: 'module', oclif: { commands: './commands', hooks: { init: './init.js' } } }));
  return root;
}

/** One way the same corpus is run: the environment that selects it. */
export interface PluginSetup {
  name: string;
  /** Extra environment (`XDG_DATA_HOME`). */
  env: Record<string, string>;
}

/**
 * The three set-ups every corpus runs under, whose outputs must be byte-identical: no plugin
 * (built-ins on the direct path), the example plugin linked (still the direct path: it cannot
 * change a built-in), and a plugin with a hook (everything through oclif).
 *
 * @param work A private directory for the data homes.
 * @param marker File the hook plugin's init hook creates.
 */
export function pluginSetups(work: string, marker: string): PluginSetup[] {
  return [
    { name: 'no plugin', env: { XDG_DATA_HOME: join(work, 'data-none') } },
    { name: 'example plugin linked', env: { XDG_DATA_HOME: dataHomeLinking(join(work, 'data-example'), [EXAMPLE_PLUGIN]) } },
    { name: 'hook plugin (oclif path)', env: { XDG_DATA_HOME: dataHomeLinking(join(work, 'data-hook'), [hookPlugin(join(work, 'hook-plugin'), marker), EXAMPLE_PLUGIN]) } },
  ];
}
