import { execFileSync } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { loadCanonicalVectors, type CanonicalVector } from '@session-checkpoint/fixtures';
import { build, type Rollup } from 'vite';
import { afterAll, describe, expect, it } from 'vitest';
import { canonicalPayloadFromJson, sha256Hex } from './hash.js';

/**
 * Proves that `@session-checkpoint/core/hash` runs in a browser: Vite bundles the package subpath
 * (resolved through its `exports`, browser conditions) into one script, and headless Chromium runs
 * every shared canonical vector and a set of random strings through it. Results must equal Node's.
 * Without Chromium the test is skipped, except under CI=true where Chromium is required.
 */

const packageRoot = fileURLToPath(new URL('../', import.meta.url));
const workDir = join(packageRoot, 'out-tsc', 'hash-browser');

/** What the page and Node compute for each input: hash and size, or the error. */
interface Outcome {
  sha256?: string;
  bytes?: number;
  error?: string;
}

const chromium = findChromium();

function findChromium(): string | undefined {
  for (const name of ['chromium', 'chromium-browser', 'google-chrome']) {
    for (const dir of (process.env.PATH ?? '').split(delimiter)) {
      const file = join(dir, name);
      try {
        execFileSync(file, ['--version'], { stdio: 'ignore', timeout: 30_000 });
        return file;
      } catch {
        // not here; keep looking
      }
    }
  }
  return undefined;
}

function vectors(): CanonicalVector[] {
  return loadCanonicalVectors();
}

/** Random strings (seeded, so a failure repeats) across SHA-256 block boundaries, with non-ASCII and lone surrogates. */
function randomStrings(): string[] {
  let seed = 0x5eed;
  const next = (n: number): number => {
    seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
    return seed % n;
  };
  const alphabet = ['a', '{', '"', 'ä', '€', '😀', '\ud800', '\udc00', '\u0000', '\u07ff', '\uffff'];
  const out: string[] = [];
  for (let length = 0; length < 300; length++) {
    let text = '';
    for (let i = 0; i < length; i++) text += alphabet[next(alphabet.length)];
    out.push(text);
  }
  return out;
}

/** Runs in the page: the same computation as `outcomeInNode`, through the bundled subpath. */
const PAGE_SCRIPT = `
const out = { vectors: {}, strings: [] };
for (const v of INPUT.vectors) {
  const t = v.input_template;
  const text = v.input_json !== undefined ? v.input_json : t.prefix + t.repeat.repeat(t.count) + t.suffix;
  try {
    const p = SC.canonicalPayloadFromJson(text);
    out.vectors[v.name] = { sha256: p.sha256, bytes: p.bytes };
  } catch (e) {
    out.vectors[v.name] = { error: e.name + ': ' + e.message };
  }
}
out.strings = INPUT.strings.map((s) => SC.sha256Hex(s) + ' ' + SC.utf8ByteLength(s));
out.node = typeof process !== 'undefined';
document.getElementById('out').textContent = JSON.stringify(out);
`;

function outcomeInNode(vector: CanonicalVector): Outcome {
  const t = vector.input_template;
  const text = vector.input_json ?? t!.prefix + t!.repeat.repeat(t!.count) + t!.suffix;
  try {
    const payload = canonicalPayloadFromJson(text);
    return { sha256: payload.sha256, bytes: payload.bytes };
  } catch (error) {
    const e = error as Error;
    return { error: `${e.name}: ${e.message}` };
  }
}

afterAll(() => rmSync(workDir, { recursive: true, force: true }));

describe('@session-checkpoint/core/hash in a browser', () => {
  it('bundles for the browser with no node: import and no Buffer', async () => {
    const code = await bundle();
    expect(code).not.toMatch(/\b(?:from|import|require)\s*\(?\s*["']node:/);
    // No global Buffer (a bundler would polyfill it); Node's, reached as a property of the module
    // that process.getBuiltinModule returns, is absent in a browser and used only where it exists.
    expect(code).not.toMatch(/(?<![.\w$])Buffer\b/);
    expect(code).toContain('canonicalPayloadFromJson');
  });

  it.skipIf(!chromium && process.env.CI !== 'true')(
    `computes every canonical vector like Node in headless Chromium${chromium ? '' : ' (no chromium on PATH)'}`,
    async () => {
      expect(chromium, 'CI=true requires Chromium (apt-get install chromium); .ci/run installs it').toBeDefined();
      const all = vectors();
      const strings = randomStrings();
      const input = JSON.stringify({ vectors: all, strings }).replace(/</g, '\\u003c');
      const html =
        '<!doctype html><meta charset="utf-8"><pre id="out">not run</pre>' +
        `<script>${(await bundle()).replace(/<\/script/gi, '<\\/script')}</script>` +
        `<script>const INPUT = ${input};${PAGE_SCRIPT}</script>`;
      const page = join(workDir, 'page.html');
      writeFileSync(page, html);

      const dom = execFileSync(
        chromium!,
        ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', `--user-data-dir=${join(workDir, 'profile')}`, '--dump-dom', pathToFileURL(page).href],
        { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024, timeout: 120_000, stdio: ['ignore', 'pipe', 'ignore'] },
      );
      const match = /<pre id="out">([^<]*)<\/pre>/.exec(dom);
      expect(match, `the page produced no result: ${dom.slice(0, 500)}`).not.toBeNull();
      const result = JSON.parse(unescapeHtml(match![1]!)) as { vectors: Record<string, Outcome>; strings: string[]; node: boolean };

      expect(result.node).toBe(false);
      expect(Object.keys(result.vectors)).toHaveLength(all.length);
      for (const vector of all) expect(result.vectors[vector.name], vector.name).toEqual(outcomeInNode(vector));
      // And the Python reference's own hashes, wherever it produced one.
      const golden = all.filter((vector) => vector.sha256 !== null);
      expect(golden.length).toBeGreaterThan(70);
      for (const vector of golden) expect(result.vectors[vector.name]!.sha256, vector.name).toBe(vector.sha256);
      expect(result.strings).toEqual(strings.map((s) => `${sha256Hex(s)} ${Buffer.byteLength(s)}`));
    },
  );
});

let bundled: Promise<string> | undefined;

/** The subpath bundled by Vite as one browser script (`SC` global), built once per run. */
function bundle(): Promise<string> {
  bundled ??= (async () => {
    mkdirSync(workDir, { recursive: true });
    // The entry sits inside the workspace so that the package name resolves through node_modules
    // and the package's `exports`, exactly as for a consumer.
    const entry = join(workDir, 'entry.js');
    writeFileSync(entry, "export * from '@session-checkpoint/core/hash';\n");
    const result = (await build({
      configFile: false,
      logLevel: 'silent',
      root: workDir,
      build: {
        write: false,
        minify: true,
        emptyOutDir: false,
        lib: { entry, formats: ['iife'], name: 'SC', fileName: () => 'hash.js' },
      },
    })) as Rollup.RollupOutput | Rollup.RollupOutput[];
    const output = (Array.isArray(result) ? result[0]! : result).output;
    const chunks = output.filter((item): item is Rollup.OutputChunk => item.type === 'chunk');
    expect(chunks).toHaveLength(1);
    return chunks[0]!.code;
  })();
  return bundled;
}

function unescapeHtml(text: string): string {
  return text.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&amp;/g, '&');
}
