#!/usr/bin/env node
// Adds up the vitest JSON reports of every package and prints one closing line,
// "Tests: N passed, N failed, N skipped", so CI logs state what ran. Exits 1 if any test failed
// or if no report was found (a run that tested nothing must not look green). `npm test` runs it
// last: Nx hides the output of passing tasks, so this is where a skipped PostgreSQL suite shows.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const root = new URL('../../', import.meta.url).pathname;
let passed = 0, failed = 0, skipped = 0, reports = 0, pgSkipped = 0;
for (const group of ['packages', 'tools', 'examples']) {
  const base = join(root, group);
  if (!existsSync(base)) continue;
  for (const name of readdirSync(base)) {
    const file = join(base, name, 'out-tsc', 'vitest-results.json');
    if (!existsSync(file)) continue;
    const report = JSON.parse(readFileSync(file, 'utf8'));
    reports++;
    passed += report.numPassedTests ?? 0;
    failed += report.numFailedTests ?? 0;
    skipped += (report.numPendingTests ?? 0) + (report.numTodoTests ?? 0);
    for (const file of report.testResults ?? []) {
      for (const test of file.assertionResults ?? []) {
        if (test.status !== 'passed' && test.status !== 'failed' && /postgres/i.test(`${file.name} ${test.fullName}`)) pgSkipped++;
      }
    }
    console.log(`${group}/${name}: ${report.numPassedTests} passed, ${report.numFailedTests} failed, ${report.numPendingTests} skipped`);
  }
}
console.log(`Tests: ${passed} passed, ${failed} failed, ${skipped} skipped`);
if (!process.env.SC_PG_URL) {
  console.log(`NOTICE: SC_PG_URL is not set, so ${pgSkipped} PostgreSQL tests were SKIPPED. Run them with SC_PG_URL=postgres://user@host:5432/db npm test`);
}
process.exit(failed > 0 || reports === 0 || passed === 0 ? 1 : 0);
