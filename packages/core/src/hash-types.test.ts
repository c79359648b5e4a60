import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

/**
 * A consumer project outside the workspace, with the built package linked into its node_modules,
 * type-checks an import of `@session-checkpoint/core/hash` under each TypeScript module resolution
 * a user may have. `types: []` and `lib: es2022` (no DOM, no @types/node) prove that the hash
 * subpath's declarations stand alone, as a browser consumer needs; `skipLibCheck: false` checks them.
 */

const packageRoot = realpathSync(fileURLToPath(new URL('../', import.meta.url)));
const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
const consumer = mkdtempSync(join(tmpdir(), 'sc-hash-types-'));

afterAll(() => rmSync(consumer, { recursive: true, force: true }));

const SOURCE = `import { canonicalPayloadFromValue, sha256Hex, type CanonicalPayload } from '@session-checkpoint/core/hash';

const payload: CanonicalPayload = canonicalPayloadFromValue({ b: 1, a: 2 });
const hex: string = sha256Hex(payload.json);
// @ts-expect-error sha256Hex returns a string: the declarations are real, not \`any\`.
const wrong: number = sha256Hex('{}');
export { hex, wrong };
`;

/** `module` to pair with each `moduleResolution` (TypeScript requires node16/nodenext to match). */
const MODES = { node16: 'node16', nodenext: 'nodenext', bundler: 'esnext', node10: 'commonjs' } as const;

function setUp(): void {
  mkdirSync(join(consumer, 'node_modules', '@session-checkpoint'), { recursive: true });
  symlinkSync(packageRoot, join(consumer, 'node_modules', '@session-checkpoint', 'core'), 'dir');
  // An ES module package: under node16/nodenext a CommonJS file could not import the ESM-only package.
  writeFileSync(join(consumer, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module' }));
  writeFileSync(join(consumer, 'index.ts'), SOURCE);
}

describe('@session-checkpoint/core/hash types for a consumer', () => {
  setUp();

  it.each(Object.entries(MODES))('resolve under moduleResolution %s', (resolution, module) => {
    const config = join(consumer, `tsconfig.${resolution}.json`);
    writeFileSync(
      config,
      JSON.stringify({
        compilerOptions: {
          module,
          moduleResolution: resolution,
          target: 'es2022',
          lib: ['es2022'],
          types: [],
          strict: true,
          noEmit: true,
          skipLibCheck: false,
        },
        files: ['index.ts'],
      }),
    );
    let output: string;
    try {
      output = execFileSync(process.execPath, [tsc, '-p', config, '--listFiles'], { cwd: consumer, encoding: 'utf8' });
    } catch (error) {
      const { stdout, stderr } = error as { stdout?: string; stderr?: string };
      throw new Error(`tsc failed under moduleResolution ${resolution}:\n${stdout ?? ''}${stderr ?? ''}`);
    }
    expect(output).toContain(join(packageRoot, 'dist', 'hash.d.ts'));
  });
});
