import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// The CLI bundles `./rows` into its binary and installs neither the Agents SDK nor this package's
// session with it, so nothing `./rows` loads may import `@openai/*`. The verdict comes from the
// built JavaScript (what Node runs: type-only imports are gone there), walked from the subpath's
// entry through every relative import, static or `import()`.

const DIST = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'dist');

/** Every `from '...'`, side-effect `import '...'` and `import('...')` specifier of a module's text. */
const SPECIFIER = /\bfrom\s*'([^']+)'|^\s*import\s*'([^']+)'|\bimport\(\s*'([^']+)'\s*\)/gmu;

/** The modules of this package reached from `entry`, and the packages they import. */
function importGraph(entry: string): { modules: string[]; packages: Set<string> } {
  const modules: string[] = [];
  const packages = new Set<string>();
  const pending = [entry];
  while (pending.length > 0) {
    const file = pending.pop() as string;
    if (modules.includes(file)) continue;
    modules.push(file);
    // Comments out first: a doc comment's example import is not an import.
    const code = readFileSync(file, 'utf8').replace(/\/\*[\s\S]*?\*\//gu, '').replace(/^\s*\/\/.*$/gmu, '');
    for (const match of code.matchAll(SPECIFIER)) {
      const specifier = (match[1] ?? match[2] ?? match[3]) as string;
      if (specifier.startsWith('.')) pending.push(resolve(dirname(file), specifier));
      else packages.add(specifier.startsWith('@') ? specifier.split('/').slice(0, 2).join('/') : (specifier.split('/')[0] as string));
    }
  }
  return { modules: modules.map((file) => file.slice(DIST.length + 1)), packages };
}

describe('the rows subpath', () => {
  it('loads no @openai/* package, directly or through any module it loads', () => {
    const { modules, packages } = importGraph(join(DIST, 'rows', 'index.js'));
    // The walk reaches the shared row format, so it sees what the session's decoder imports.
    expect(modules).toEqual(expect.arrayContaining(['rows/index.js', 'format/item-rows.js', 'format/item-codec.js', 'format/item-parts.js', 'format/source-refs.js']));
    expect([...packages].filter((name) => name.startsWith('@openai/'))).toEqual([]);
    expect([...packages].sort()).toEqual(['@session-checkpoint/core']);
  });

  it('the session entry, walked the same way, does import the Agents SDK (so the check above can fail)', () => {
    expect(importGraph(join(DIST, 'index.js')).packages).toContain('@openai/agents-core');
  });
});
