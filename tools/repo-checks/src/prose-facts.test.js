// Counts and names that the docs state in prose, each checked against the code that decides them:
// the published packages, the conformance kit's cases and groups, the CLI's built-in commands and
// the error types a CLI user can see. A doc that drifts from the code fails here (issue 31).
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { CONFORMANCE_GROUPS } from '@session-checkpoint/conformance';
import * as core from '@session-checkpoint/core';
import { describe, expect, it } from 'vitest';
import { codeBlocks, publishedPackages, read, root } from './repo.js';

/** The files whose prose is checked: the READMEs, docs/*.md (but the benchmark record) and llms.txt. */
const DOCS = [
  'README.md',
  'llms.txt',
  ...readdirSync(join(root, 'docs'))
    .filter((name) => name.endsWith('.md') && name !== 'benchmarks.md')
    .map((name) => `docs/${name}`),
  ...publishedPackages().map(({ dir }) => `${dir}/README.md`),
];

const WORDS = ['zero', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine', 'ten', 'eleven', 'twelve', 'thirteen', 'fourteen', 'fifteen', 'sixteen', 'seventeen', 'eighteen', 'nineteen', 'twenty'];

/** A count as the docs write it: a numeral, or an English number word. */
function numberOf(text) {
  return /^\d+$/.test(text) ? Number(text) : WORDS.indexOf(text.toLowerCase());
}

/** Every match of `pattern` in the checked docs, as `{ file, match }`. */
function mentions(pattern) {
  return DOCS.flatMap((file) => [...read(file).matchAll(pattern)].map((match) => ({ file, match })));
}

/** The rows of the Markdown table that follows `heading` (its first column, backticks removed). */
function tableColumn(markdown, heading) {
  const start = markdown.indexOf(heading);
  if (start === -1) throw new Error(`no section ${heading}`);
  // The table may start on the heading's own line (a table header given as the anchor).
  const lines = markdown.slice(start).split('\n');
  const first = lines.findIndex((line) => line.startsWith('|'));
  const rows = [];
  for (const line of lines.slice(first + 2)) {
    if (!line.startsWith('|')) break;
    rows.push(line.split('|').map((cell) => cell.trim()));
  }
  return rows;
}

const packages = publishedPackages().map(({ manifest }) => manifest.name).sort();
const shortNames = packages.map((name) => name.replace('@session-checkpoint/', ''));

describe('the published packages', () => {
  it('are counted right wherever prose counts them ("seven packages")', () => {
    const counted = mentions(/\b(\w+) packages (?:under `packages\/`|that depend)/g);
    expect(counted.length).toBeGreaterThan(0);
    for (const { file, match } of counted) expect(`${file}: ${match[0]}`).toBe(`${file}: ${match[0].replace(match[1], WORDS[packages.length])}`);
  });

  it('are listed in the README package tables, English and German, and nothing else is', () => {
    const names = (table) => table.map((row) => /`(@session-checkpoint\/[a-z-]+)`/.exec(row[1])?.[1]).sort();
    expect(names(tableColumn(read('README.md'), '## Packages'))).toEqual(packages);
    expect(names(tableColumn(read('README.de.md'), '## Pakete'))).toEqual(packages);
  });

  it("are the rows of releasing.md's dependency table and each is in architecture.md's diagram", () => {
    const rows = tableColumn(read('docs/releasing.md'), '## Dependency or peer').map((row) => row[1].replaceAll('`', ''));
    expect(rows.sort()).toEqual([...shortNames].sort());
    const architecture = read('docs/architecture.md');
    for (const name of packages) expect(architecture, name).toContain(name);
  });
});

describe('the conformance kit', () => {
  const groups = Object.keys(CONFORMANCE_GROUPS);
  const cases = Object.values(CONFORMANCE_GROUPS).reduce((sum, list) => sum + list.length, 0);

  it('has the case and group counts the docs state ("N cases in M groups", "all N cases")', () => {
    const stated = mentions(/\b(\d+) cases in (\d+) groups\b/g);
    expect(stated.map(({ file }) => file)).toEqual(expect.arrayContaining(['docs/conformance.md', 'llms.txt', 'packages/conformance/README.md']));
    for (const { file, match } of stated) expect(`${file}: ${match[0]}`).toBe(`${file}: ${cases} cases in ${groups.length} groups`);
    for (const { file, match } of mentions(/\ball (\d+) cases\b/g)) expect(`${file}: ${match[0]}`).toBe(`${file}: all ${cases} cases`);
  });

  it("has exactly the groups and cases of conformance.md's table, one row per group, cases separated by ' · '", () => {
    const table = tableColumn(read('docs/conformance.md'), '| group | cases |');
    const rows = Object.fromEntries(table.map((row) => [row[1].replaceAll('`', ''), row[2].split(' · ').length]));
    expect(rows).toEqual(Object.fromEntries(groups.map((group) => [group, CONFORMANCE_GROUPS[group].length])));
  });

  it('names every group in llms.txt', () => {
    const line = read('llms.txt').split('\n').find((text) => text.startsWith('- Groups'));
    for (const group of groups) expect(line, group).toContain(`\`${group}\``);
  });
});

describe('the CLI', () => {
  const commands = readdirSync(join(root, 'packages/cli/src/commands'))
    // One file per command; index.ts lists them.
    .filter((name) => name.endsWith('.ts') && !name.includes('.test.') && name !== 'index.ts')
    // A topic's command (`keys new`) lives in `keys-new.ts`.
    .map((name) => name.slice(0, -3).replace('-', ' '))
    .sort();

  it('has the built-in commands docs/cli.md gives a section each, and llms.txt a table row each', () => {
    const cli = read('docs/cli.md');
    const commandsSection = cli.slice(cli.indexOf('## Commands'), cli.indexOf('\n## ', cli.indexOf('## Commands') + 1));
    expect([...commandsSection.matchAll(/^### `([a-z -]+)`/gm)].map((m) => m[1]).sort()).toEqual(commands);
    const llms = tableColumn(read('llms.txt'), '## @session-checkpoint/cli: commands').map((row) => row[1].replaceAll('`', ''));
    expect(llms.sort()).toEqual(commands);
  });

  it('has as many built-in commands as prose counts ("the eleven built-in commands")', () => {
    // "built-in commands", or "all N commands"; README's "Two commands" (npm's) is not about them.
    const counted = mentions(/\b(?:(\w+) built-in commands|all (\w+) commands)\b/g)
      .map(({ file, match }) => ({ file, match: [match[0], match[1] ?? match[2]] }))
      .filter(({ match }) => numberOf(match[1]) > 1);
    expect(counted.length).toBeGreaterThan(0);
    for (const { file, match } of counted) expect(`${file}: ${match[0]}`, 'a count of commands that is not the built-ins? reword it or extend this check').toBe(`${file}: ${match[0].replace(match[1], /^\d+$/.test(match[1]) ? String(commands.length) : WORDS[commands.length])}`);
  });

  // The types the CLI prints itself are the string literals of to-error-json.ts; the others are
  // the names of core's error classes (the base class only says a store is closed, which a CLI
  // call never meets).
  const cliTypes = [...read('packages/cli/src/errors/to-error-json.ts').matchAll(/output\('([A-Za-z]+)'/g)].map((m) => m[1]);
  const coreTypes = Object.keys(core).filter((name) => typeof core[name] === 'function' && core[name].prototype instanceof core.CheckpointError);

  it("lists exactly the error types a user can see in cli.md's type table", () => {
    expect(new Set(cliTypes)).toEqual(new Set(['UsageError', 'CommandError', 'OSError', 'DatabaseError', 'InternalError']));
    const table = tableColumn(read('docs/cli.md'), '`type` values:').map((row) => row[1].replaceAll('`', ''));
    expect(table.sort()).toEqual([...new Set([...coreTypes, ...cliTypes])].sort());
  });

  it('names the CLI-made error types wherever prose lists them after "a core error class name"', () => {
    const lists = mentions(/a core error class name, ((?:`[A-Za-z]+`(?:, | or ))+`[A-Za-z]+`)/g);
    expect(lists.length).toBeGreaterThan(0);
    for (const { file, match } of lists) expect([...match[1].matchAll(/`([A-Za-z]+)`/g)].map((m) => m[1]).sort(), file).toEqual([...new Set(cliTypes)].sort());
  });
});

describe('the plugin example', () => {
  it('is one and the same in plugins.md, cli.md and the CLI README (one style everywhere)', () => {
    const example = (file) => codeBlocks(read(file)).filter((block) => block.includes("from '@session-checkpoint/cli/plugin'") && block.includes('extends BaseCommand'));
    const [first, ...others] = ['docs/plugins.md', 'docs/cli.md', 'packages/cli/README.md'].map(example);
    expect(first).toHaveLength(1);
    for (const blocks of others) expect(blocks).toEqual(first);
  });
});
