import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { LAYER_RULES } from './layers.js';
import { findRoot, readProjects } from './workspace.js';

/*
 * docs/architecture.md's layer table says in prose what LAYER_RULES enforces. This reads both and
 * fails when they name different packages, so the doc cannot drift from the rule again (it once
 * said the CLI imported only core, store-kysely and bundle, after the rule had grown).
 */

const root = findRoot(new URL('.', import.meta.url).pathname);
/** Our package short names (the last part of `@session-checkpoint/<name>`) by Nx tag, for the tags one package holds. */
const packagesByTag = new Map();
for (const project of readProjects(root).values()) {
  const short = project.name.replace(/^@session-checkpoint\//, '');
  for (const tag of project.tags) if (!['layer:tool', 'layer:plugin'].includes(tag)) packagesByTag.set(tag, [...(packagesByTag.get(tag) ?? []), short]);
}
const NAMES = [...packagesByTag.values()].flat().filter((name) => name !== 'fixtures');

/** The table rows: tag -> { runtime, test } cells. */
function docRows(text) {
  const rows = new Map();
  for (const line of text.split('\n')) {
    const cells = line.split('|').map((cell) => cell.trim());
    const tag = /^`(layer:[a-z-]+)`$/.exec(cells[2] ?? '')?.[1];
    if (tag !== undefined) rows.set(tag, { runtime: cells[3], test: cells[4] });
  }
  return rows;
}

/** Our packages a cell names (as whole words), or '*' for "anything". */
function named(cell) {
  if (/^anything$/.test(cell)) return '*';
  return NAMES.filter((name) => new RegExp(`(^|[^\\w/-])${name}([^\\w-]|$)`).test(cell.replace(/`[^`]*`/g, ''))).sort();
}

/** Our packages a list of tags stands for (fixtures left out: the table names it once, for every row). */
function packagesOf(tags) {
  if (tags.includes('*')) return '*';
  return tags.flatMap((tag) => packagesByTag.get(tag) ?? []).filter((name) => name !== 'fixtures').sort();
}

describe('docs/architecture.md', () => {
  const rows = docRows(readFileSync(join(root, 'docs/architecture.md'), 'utf8'));

  it('has a row for every layer of the rule', () => {
    expect([...rows.keys()].sort()).toEqual(Object.keys(LAYER_RULES).sort());
  });

  it.each(Object.entries(LAYER_RULES))('names for %s exactly the packages the rule allows', (tag, rule) => {
    const row = rows.get(tag);
    expect(row, `no row for ${tag}`).toBeDefined();
    expect(named(row.runtime), `${tag}, run time`).toEqual(packagesOf(rule.runtime));
    const tests = packagesOf(rule.test);
    expect(named(row.test), `${tag}, tests (beyond run time and fixtures)`).toEqual(tests === '*' ? '*' : tests.filter((name) => !packagesOf(rule.runtime).includes(name)));
  });
});
