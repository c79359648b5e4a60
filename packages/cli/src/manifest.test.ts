/**
 * oclif answers `--help` and finds commands from oclif.manifest.json when it exists, so a stale
 * manifest hides new commands and flags (TOOLCHAIN pitfall 12). The build generates it
 * (`npm run manifest`, after bundling); this test fails when it does not match the compiled commands
 * or does not point at the bundled ones.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const PACKAGE_DIR = fileURLToPath(new URL('..', import.meta.url));
const MANIFEST = `${PACKAGE_DIR}oclif.manifest.json`;
const COMMANDS_DIR = `${PACKAGE_DIR}dist/commands`;

interface Manifest {
  version: string;
  commands: Record<string, { flags: Record<string, unknown>; examples?: unknown[]; relativePath: string[] }>;
}

describe('oclif manifest', () => {
  it('exists and matches the compiled commands (regenerate with `npm run manifest`)', async () => {
    expect(existsSync(MANIFEST), 'oclif.manifest.json missing: run `npm run manifest` in packages/cli after building').toBe(true);
    const manifest = JSON.parse(readFileSync(MANIFEST, 'utf8')) as Manifest;
    const pkg = JSON.parse(readFileSync(`${PACKAGE_DIR}package.json`, 'utf8')) as { version: string };
    expect(manifest.version).toBe(pkg.version);
    const files = readdirSync(COMMANDS_DIR).filter((f) => f.endsWith('.js'));
    const ids = files.map((f) => f.slice(0, -3)).sort();
    expect(Object.keys(manifest.commands).sort()).toEqual(ids);
    for (const id of ids) {
      const { default: command } = (await import(`${COMMANDS_DIR}/${id}.js`)) as {
        default: { flags?: Record<string, unknown>; baseFlags?: Record<string, unknown>; examples?: unknown[] };
      };
      const flags = Object.keys({ ...command.baseFlags, ...command.flags }).sort();
      expect(Object.keys(manifest.commands[id]?.flags ?? {}).sort(), `flags of ${id}`).toEqual(flags);
      expect(manifest.commands[id]?.examples, `examples of ${id}`).toEqual(command.examples);
      // oclif loads the bundled command (scripts/bundle.mjs), not the tsc output.
      expect(manifest.commands[id]?.relativePath.join('/'), `bundled path of ${id}`).toBe(`dist/bundle/commands/${id}.js`);
      expect(existsSync(`${PACKAGE_DIR}dist/bundle/commands/${id}.js`), `bundle of ${id}`).toBe(true);
    }
  });
});
