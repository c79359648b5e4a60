/**
 * oclif answers `--help` and finds commands from oclif.manifest.json when it exists, so a stale
 * manifest hides new commands and flags (TOOLCHAIN pitfall 12). The build generates it
 * (`npm run manifest`, after bundling) from the command declarations (src/commands, through
 * src/command/oclif-commands.ts); this test fails when it does not match them, or when the list of
 * built-ins misses a file of src/commands.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { GLOBAL_FLAGS, type FlagSchema } from './command/flags.js';
import { BUILTINS } from './commands/index.js';

const PACKAGE_DIR = fileURLToPath(new URL('..', import.meta.url));
const MANIFEST = `${PACKAGE_DIR}oclif.manifest.json`;

interface ManifestFlag {
  type: string;
  required?: boolean;
  default?: unknown;
  description?: string;
  helpGroup?: string;
}

interface Manifest {
  version: string;
  commands: Record<string, { flags: Record<string, ManifestFlag>; examples?: unknown[]; summary?: string; description?: string }>;
}

describe('oclif manifest', () => {
  const manifest = JSON.parse(readFileSync(MANIFEST, 'utf8')) as Manifest;

  it('lists every file of src/commands once, as BUILTINS does', () => {
    const files = readdirSync(fileURLToPath(new URL('./commands', import.meta.url))).filter((f) => f.endsWith('.ts') && f !== 'index.ts');
    const ids = BUILTINS.map((command) => command.id);
    expect(new Set(ids).size).toBe(ids.length);
    // A topic's command (`keys:new`) lives in `keys-new.ts`.
    expect([...ids].sort()).toEqual(files.map((f) => f.slice(0, -3).replace('-', ':')).sort());
    const pkg = JSON.parse(readFileSync(`${PACKAGE_DIR}package.json`, 'utf8')) as { version: string; oclif: { commands: { target: string } } };
    expect(manifest.version).toBe(pkg.version);
    expect(Object.keys(manifest.commands).sort()).toEqual([...ids].sort());
    // oclif loads the bundled classes (scripts/bundle.mjs), not the tsc output.
    expect(pkg.oclif.commands).toEqual({ strategy: 'explicit', target: './dist/bundle/oclif-commands.js', identifier: 'COMMANDS' });
    expect(existsSync(`${PACKAGE_DIR}dist/bundle/oclif-commands.js`)).toBe(true);
  });

  it.each(BUILTINS.map((command) => [command.id, command] as const))('%s: help text, examples and flags as declared', (id, command) => {
    const entry = manifest.commands[id]!;
    expect([entry.summary, entry.description, entry.examples]).toEqual([command.summary, command.description, command.examples]);
    const flags: FlagSchema = { ...GLOBAL_FLAGS, ...command.flags };
    expect(Object.keys(entry.flags).sort()).toEqual(Object.keys(flags).sort());
    for (const [name, spec] of Object.entries(flags)) {
      const ours = { boolean: spec.type === 'boolean', required: spec.required === true, default: spec.default, description: spec.description, helpGroup: spec.helpGroup };
      const theirs = entry.flags[name]!;
      // The manifest leaves out a boolean's `false` default.
      expect(ours, `${id} --${name}`).toEqual({ boolean: theirs.type === 'boolean', required: theirs.required === true, default: theirs.type === 'boolean' ? undefined : theirs.default, description: theirs.description, helpGroup: theirs.helpGroup });
    }
  });
});
