import { existsSync, readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/*
 * The `rows` subpaths read a family's rows without the family's framework: the CLI inspects
 * LangGraph threads and Agents sessions with neither `@langchain/*` nor `@openai/*` installed (and
 * AI SDK chats and Mastra threads without `ai` or `@mastra/*`).
 * This walks the built import graph of each subpath (static imports, re-exports and dynamic
 * imports, through the other session-checkpoint packages) and fails on any framework import.
 * It reads `dist`: the graph that runs, after type-only imports are gone.
 */

const packages = fileURLToPath(new URL('../../../packages/', import.meta.url));
const FRAMEWORK = /^(@langchain\/|@openai\/|langchain$|openai$|ai$|@ai-sdk\/|@mastra\/)/;
const SPECIFIERS = /(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+)(['"])([^'"]+)\1/g;

/** The file a `@session-checkpoint/<pkg>[/sub]` specifier loads, from the package's exports map. */
function packageFile(specifier) {
  const [, name, sub] = /^@session-checkpoint\/([^/]+)(\/.*)?$/.exec(specifier) ?? [];
  if (name === undefined) return undefined;
  const dir = resolve(packages, name);
  const manifest = JSON.parse(readFileSync(resolve(dir, 'package.json'), 'utf8'));
  const target = manifest.exports?.[sub === undefined ? '.' : `.${sub}`];
  const file = typeof target === 'string' ? target : (target?.import ?? target?.default);
  return file === undefined ? undefined : resolve(dir, file);
}

/** Every bare specifier reachable from `entry`, with the file importing it. */
function bareImports(entry) {
  const seen = new Set();
  const bare = [];
  const queue = [entry];
  while (queue.length > 0) {
    const file = queue.pop();
    if (seen.has(file)) continue;
    seen.add(file);
    for (const [, , specifier] of readFileSync(file, 'utf8').matchAll(SPECIFIERS)) {
      if (specifier.startsWith('.')) queue.push(resolve(dirname(file), specifier));
      else if (specifier.startsWith('node:')) continue;
      else {
        bare.push({ specifier, from: file.slice(packages.length) });
        const inner = packageFile(specifier);
        if (inner !== undefined) queue.push(inner);
      }
    }
  }
  return { bare, files: seen.size };
}

describe('the rows subpaths import no framework', () => {
  for (const pkg of ['langgraph', 'openai-agents', 'ai-sdk', 'mastra']) {
    it(`@session-checkpoint/${pkg}/rows loads no framework module (@langchain/*, @openai/*, ai, @ai-sdk/*, @mastra/*)`, () => {
      const entry = packageFile(`@session-checkpoint/${pkg}/rows`);
      expect(entry, `${pkg} exports ./rows`).toBeDefined();
      expect(existsSync(entry), `${entry} is built (run the build first)`).toBe(true);
      const { bare, files } = bareImports(entry);
      expect(files).toBeGreaterThan(3);
      expect(bare.filter((b) => FRAMEWORK.test(b.specifier))).toEqual([]);
    });
  }

  it('@session-checkpoint/langgraph/official (the official savers\' stores) loads no framework module either', () => {
    const entry = packageFile('@session-checkpoint/langgraph/official');
    expect(entry, 'langgraph exports ./official').toBeDefined();
    expect(existsSync(entry), `${entry} is built (run the build first)`).toBe(true);
    const { bare, files } = bareImports(entry);
    expect(files).toBeGreaterThan(3);
    expect(bare.filter((b) => FRAMEWORK.test(b.specifier))).toEqual([]);
  });

  it('the walk sees a framework import where there is one (the saver entry)', () => {
    const { bare } = bareImports(packageFile('@session-checkpoint/langgraph'));
    expect(bare.some((b) => b.specifier.startsWith('@langchain/'))).toBe(true);
  });
});
