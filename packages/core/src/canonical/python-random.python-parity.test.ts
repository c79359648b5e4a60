/**
 * Randomized comparison with CPython: SC_JSON_RANDOM_COUNT (default 50,000) seeded texts
 * (test-support/random-json.ts, seed SC_JSON_RANDOM_SEED, default 12) go through CPython's
 * json.loads/json.dumps (tools/python-oracle/json_oracle.py) and through every JSON entry point of
 * core; every disagreement is listed. Needs `python3` (CPython 3.11, whose messages the fixtures
 * record); without it the comparison is skipped with a message.
 */
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { disagreements, isDeliberate, type PythonOutcome } from './test-support/python-outcome.js';
import { randomJsonTexts } from './test-support/random-json.js';

const ORACLE = fileURLToPath(new URL('../../../../tools/python-oracle/json_oracle.py', import.meta.url));
const COUNT = Number(process.env.SC_JSON_RANDOM_COUNT ?? 50_000);
const SEED = Number(process.env.SC_JSON_RANDOM_SEED ?? 12);

const version = spawnSync('python3', ['-c', 'import sys; print("%d.%d" % sys.version_info[:2])'], { encoding: 'utf8' });
const python = version.status === 0 ? version.stdout.trim() : undefined;
const skip = python === undefined ? 'python3 not found' : python !== '3.11' ? `python3 is ${python}, the fixtures record CPython 3.11` : undefined;
if (skip !== undefined) console.warn(`python-random.python-parity.test.ts: skipped (${skip})`);

describe.skipIf(skip !== undefined)(`randomized comparison with CPython ${python}`, () => {
  it(`${COUNT} seeded texts agree through every entry point`, { timeout: 600_000 }, () => {
    const texts = randomJsonTexts(COUNT, SEED);
    const run = spawnSync('python3', [ORACLE], { input: JSON.stringify(texts), encoding: 'utf8', maxBuffer: 1 << 30 });
    expect(run.stderr).toBe('');
    const outcomes = JSON.parse(run.stdout) as PythonOutcome[];
    expect(outcomes).toHaveLength(COUNT);
    const found: string[] = [];
    const stages: Record<string, number> = {};
    for (let i = 0; i < COUNT; i++) {
      const outcome = outcomes[i] as PythonOutcome;
      const stage = outcome.stage ?? outcome.type ?? '?';
      stages[stage] = (stages[stage] ?? 0) + 1;
      if (isDeliberate(outcome)) continue;
      for (const line of disagreements(texts[i] as string, outcome)) found.push(`${JSON.stringify(texts[i])}: ${line}`);
    }
    console.info(`python-random.python-parity.test.ts: ${COUNT} texts (seed ${SEED}), CPython outcomes ${JSON.stringify(stages)}, ${found.length} disagreements`);
    expect(found.slice(0, 20)).toEqual([]);
    // Most texts must reach the interesting outcomes, or the generator has gone stale.
    expect(stages.parse).toBeGreaterThan(COUNT / 10);
    expect(stages.dict).toBeGreaterThan(COUNT / 10);
    expect((stages.encode ?? 0) + (stages.dumps ?? 0)).toBeGreaterThan(COUNT / 100);
  });
});
