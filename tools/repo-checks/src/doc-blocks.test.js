// Every code block of docs/*.md and the package READMEs is checked, or says why not. README.md,
// README.de.md and docs/cli.md have their own checks (readme.test.js, shell-blocks.test.js), and so
// do the sh blocks of packages/cli/README.md. What "checked" means, by the block's language:
// - ts: type-checked with the repository's strict settings against the built packages (their
//   dist/*.d.ts, through the workspace's node_modules), each block as a module of its own;
// - js: type-checked as JavaScript (checkJs, implicit any allowed), which catches a wrong
//   import, a misspelt method or a wrong argument count;
// - json: parsed;
// - sh: never unmarked here (these files' commands need registries, servers or data of their own).
// The comment on the line before a fence says what else applies:
// - `<!-- not run: reason -->`: not checked, for the reason given;
// - `<!-- excerpt of: path -->`: the block is a verbatim excerpt of that repository file, which its
//   own package's build and tests compile and run (compared line by line, leading blanks aside);
// - `<!-- type-checked only: reason -->`: type-checked, but not run, for the reason given.
// Every other ts and js block is also run: compiled to JavaScript and run with node in an empty
// folder of its own (as a reader would paste it into a file), and must exit 0 with nothing on stderr.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { read, root } from './repo.js';

const COVERED_ELSEWHERE = new Set(['README.md', 'README.de.md', 'docs/cli.md']);
const SHELL_RUN_ELSEWHERE = new Set(['packages/cli/README.md']);
const FILES = [
  ...readdirSync(join(root, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .map((name) => `docs/${name}`),
  ...readdirSync(join(root, 'packages')).map((name) => `packages/${name}/README.md`),
]
  .filter((file) => !COVERED_ELSEWHERE.has(file))
  .sort();

/** The fenced blocks of a Markdown text: language, body, line of the fence, and the comment before it. */
function fencedBlocks(markdown) {
  return [...markdown.matchAll(/^```([^\n]*)\n([\s\S]*?)^```$/gm)].map((match) => {
    const before = markdown.slice(0, match.index).trimEnd().split('\n').pop();
    return {
      lang: match[1].trim(),
      body: match[2],
      line: markdown.slice(0, match.index).split('\n').length,
      notRun: /^<!-- not run: (.+) -->$/.exec(before)?.[1],
      excerptOf: /^<!-- excerpt of: (\S+) -->$/.exec(before)?.[1],
      typeCheckedOnly: /^<!-- type-checked only: (.+) -->$/.exec(before)?.[1],
    };
  });
}

/** Text without each line's leading blanks: an excerpt may come from inside a function. */
const unindented = (text) => text.replace(/^[ \t]+/gm, '');

const blocksOf = Object.fromEntries(FILES.map((file) => [file, fencedBlocks(read(file))]));
const checked = (block) => block.notRun === undefined && block.excerptOf === undefined;

describe.each(FILES)('%s: code blocks', (file) => {
  it('checks each block or says why not; an excerpt is in its file verbatim', () => {
    for (const block of blocksOf[file]) {
      const where = `${file}:${block.line} (${block.lang || 'no language'})`;
      if (block.notRun !== undefined || block.typeCheckedOnly !== undefined) {
        expect((block.notRun ?? block.typeCheckedOnly).length, where).toBeGreaterThan(10);
        if (block.typeCheckedOnly !== undefined) expect(['ts', 'js'], `${where}: type-checked only applies to ts and js`).toContain(block.lang);
      } else if (block.excerptOf !== undefined) {
        expect(unindented(read(block.excerptOf)).includes(unindented(block.body)), `${where} is not in ${block.excerptOf} verbatim`).toBe(true);
      } else if (block.lang === 'json') {
        expect(() => JSON.parse(block.body), where).not.toThrow();
      } else if (['sh', 'bash', 'shell'].includes(block.lang)) {
        expect(SHELL_RUN_ELSEWHERE.has(file), `${where}: run it in shell-blocks.test.js or mark it <!-- not run: reason -->`).toBe(true);
      } else {
        expect(['ts', 'js'], `${where}: an unchecked language; mark it <!-- not run: reason -->`).toContain(block.lang);
      }
    }
  });
});

describe('the TypeScript and JavaScript blocks', () => {
  const dir = join(root, 'tools/repo-checks/out-tsc/doc-blocks');
  /** File name in `dir` → where the block is. */
  const origin = new Map();
  /** File names of the blocks to run. */
  const runnable = [];
  let diagnostics = { ts: '', js: '' };

  beforeAll(() => {
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
    for (const file of FILES) {
      for (const block of blocksOf[file].filter((b) => checked(b) && (b.lang === 'ts' || b.lang === 'js'))) {
        const name = `${file.replaceAll('/', '_').replace(/\.md$/, '')}_${block.line}.${block.lang === 'ts' ? 'ts' : 'mjs'}`;
        // `export {}` makes every block a module (top-level await, no shared globals between blocks).
        writeFileSync(join(dir, name), `${block.body}\nexport {};\n`);
        origin.set(name, `${file}:${block.line}`);
        if (block.typeCheckedOnly === undefined) runnable.push(name);
      }
    }
    const base = { extends: '../../../../tsconfig.base.json', compilerOptions: { composite: false, declaration: false, noEmit: true, lib: ['es2023', 'dom'] } };
    writeFileSync(join(dir, 'tsconfig.ts.json'), JSON.stringify({ ...base, include: ['*.ts'] }));
    // The same blocks compiled to JavaScript for running (js/, beside the sources, so that
    // imports resolve from the workspace's node_modules as they do for the type check).
    writeFileSync(join(dir, 'tsconfig.emit.json'), JSON.stringify({ extends: './tsconfig.ts.json', compilerOptions: { noEmit: false, outDir: 'js', noEmitOnError: false } }));
    writeFileSync(join(dir, 'tsconfig.js.json'), JSON.stringify({ ...base, compilerOptions: { ...base.compilerOptions, allowJs: true, checkJs: true, noImplicitAny: false, noImplicitOverride: false }, include: ['*.mjs'] }));
    const tsc = createRequire(join(root, 'package.json')).resolve('typescript/bin/tsc');
    for (const kind of ['ts', 'js']) {
      const result = spawnSync(process.execPath, [tsc, '-p', join(dir, `tsconfig.${kind}.json`), '--pretty', 'false'], { cwd: dir, encoding: 'utf8' });
      diagnostics[kind] = result.stdout.replace(/^([^\s(]+)\((\d+),(\d+)\)/gm, (_, name, line, column) => `${origin.get(name) ?? name} (block line ${line}, column ${column})`);
    }
    spawnSync(process.execPath, [tsc, '-p', join(dir, 'tsconfig.emit.json')], { cwd: dir, encoding: 'utf8' });
  }, 120_000);

  it('are there to check', () => {
    expect(origin.size).toBeGreaterThan(10);
  });

  it('type-check (ts strict, js as checked JavaScript)', () => {
    expect(diagnostics.ts).toBe('');
    expect(diagnostics.js).toBe('');
  });

  it('run, where not marked type-checked only: exit 0, nothing on stderr', () => {
    expect(runnable.length).toBeGreaterThan(3);
    const failures = [];
    for (const name of runnable) {
      // .mjs: the emitted file is an ES module whatever the nearest package.json says.
      const source = name.endsWith('.ts') ? join(dir, 'js', name.replace(/\.ts$/, '.js')) : join(dir, name);
      const script = join(dir, 'js', `run-${name.replace(/\.(ts|mjs)$/, '')}.mjs`);
      mkdirSync(join(dir, 'js'), { recursive: true });
      writeFileSync(script, readFileSync(source, 'utf8'));
      const cwd = mkdtempSync(join(tmpdir(), 'sc-doc-block-'));
      try {
        const result = spawnSync(process.execPath, [script], { cwd, encoding: 'utf8', timeout: 60_000, env: { ...process.env, SESSION_CHECKPOINT_STORE: '' } });
        if (result.status !== 0 || result.stderr !== '') failures.push(`${origin.get(name)}: exit ${result.status}, stderr ${result.stderr.split('\n').slice(0, 8).join('\n')}`);
      } finally {
        rmSync(cwd, { recursive: true, force: true });
      }
    }
    expect(failures).toEqual([]);
  }, 300_000);
});
