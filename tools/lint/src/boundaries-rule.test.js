import { ESLint } from 'eslint';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// Lints source text as if it lived in a given package, through the real workspace config.
const root = fileURLToPath(new URL('../../../', import.meta.url));
const eslint = new ESLint({ cwd: root });

async function problems(filePath, code) {
  const [result] = await eslint.lintText(code, { filePath: `${root}${filePath}` });
  return result.messages.map((m) => m.message);
}

describe('session-checkpoint/layers', () => {
  it('fails an upward import from core', async () => {
    const found = await problems('packages/core/src/x.ts', "import { openSqliteStore } from '@session-checkpoint/store-kysely';\n");
    expect(found).toHaveLength(1);
    expect(found[0]).toMatch(/must not import '@session-checkpoint\/store-kysely'/);
  });

  it('fails a runtime dependency in core but allows node builtins and tests', async () => {
    expect(await problems('packages/core/src/x.ts', "import { createHash } from 'node:crypto';\n")).toEqual([]);
    expect(await problems('packages/core/src/x.ts', "import kysely from 'kysely';\n")).toHaveLength(1);
    expect(await problems('packages/core/src/x.test.ts', "import fc from 'fast-check';\n")).toEqual([]);
  });

  it('fails bundle importing the CLI, and the CLI importing a driver', async () => {
    expect(await problems('packages/bundle/src/x.ts', "export * from '@session-checkpoint/cli';\n")).toHaveLength(1);
    expect(await problems('packages/cli/src/x.ts', "const pg = await import('pg');\n")).toHaveLength(1);
  });

  it('fails an adapter that imports the hasher', async () => {
    const found = await problems('packages/store-kysely/src/x.ts', "import { sha256Hex } from '@session-checkpoint/core';\n");
    expect(found.join()).toMatch(/never canonicalise, hash or verify/);
  });

  it('lets tests, and only tests, read the fixtures package; the fixtures package imports nothing of ours', async () => {
    const fixtures = "import { loadTranscript } from '@session-checkpoint/fixtures';\n";
    expect(await problems('packages/core/src/x.test.ts', fixtures)).toEqual([]);
    expect(await problems('packages/cli/src/test-support/x.ts', fixtures)).toEqual([]);
    expect(await problems('packages/core/src/x.ts', fixtures)).toHaveLength(1);
    expect(await problems('tools/fixtures/src/x.js', "import { CheckpointStore } from '@session-checkpoint/core';\n")).toHaveLength(1);
  });

  it('allows downward imports', async () => {
    expect(await problems('packages/cli/src/x.ts', "import { CheckpointStore } from '@session-checkpoint/core';\nimport { importBundle } from '@session-checkpoint/bundle';\n")).toEqual([]);
    expect(await problems('packages/store-kysely/src/x.test.ts', "import { runConformanceSuite } from '@session-checkpoint/conformance';\n")).toEqual([]);
  });
});
