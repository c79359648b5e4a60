/**
 * Crash safety of an applied import on SQLite: a child process importing a large bundle is
 * SIGKILLed at random moments (some while idle, most in the middle of the insert transaction).
 * Afterwards the store holds either the whole bundle or none of it, and verifies clean.
 * Needs the built packages (`tsc -b`), since the child runs dist like an application would.
 */
import { spawn } from 'node:child_process';
import { existsSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CheckpointStore, MemoryAdapter } from '@session-checkpoint/core';
import { openSqliteStore } from '@session-checkpoint/store-kysely';
import { exportBundle } from '../export/export-bundle.js';
import { serializeBundle } from '../export/serialize-bundle.js';
import { tempDir } from '../test-support/stores.js';

const CHILD = fileURLToPath(new URL('../test-support/import-child.mjs', import.meta.url));
const BUILT = existsSync(fileURLToPath(new URL('../../dist/index.js', import.meta.url)));
const ITEMS = 400;
const RUNS = 12;

interface Outcome {
  killedAt: string;
  rows: number;
}

/** Runs the child; kills it once it reports insert `stallAt` (where it stalls), or after `delayMs`. */
function runChild(storePath: string, bundlePath: string, stallAt: number, delayMs: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CHILD, storePath, bundlePath, String(stallAt)], { stdio: ['ignore', 'pipe', 'pipe'] });
    let last = 'start';
    let stderr = '';
    const kill = () => child.kill('SIGKILL');
    const timer = setTimeout(kill, delayMs);
    let buffered = '';
    child.stdout.on('data', (chunk: Buffer) => {
      buffered += chunk.toString('utf8');
      const lines = buffered.split('\n');
      buffered = lines.pop() ?? '';
      for (const line of lines) {
        last = line;
        if (line === `insert ${stallAt}`) kill();
      }
    });
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    child.on('error', reject);
    child.on('exit', (code, signal) => {
      clearTimeout(timer);
      if (signal === 'SIGKILL' || code === 0) resolve(signal === 'SIGKILL' ? `killed after "${last}"` : `finished "${last}"`);
      else reject(new Error(`child failed (${code}): ${stderr}`));
    });
  });
}

describe.skipIf(!BUILT)('SIGKILL during an applied import (SQLite)', () => {
  let dir: string;
  let bundlePath: string;
  let ids: number[];

  beforeAll(async () => {
    dir = tempDir('sc-sigkill-');
    const source = new CheckpointStore(new MemoryAdapter());
    for (let i = 0; i < ITEMS; i++) {
      await source.create({ namespace: 'big', sessionId: `s-${i % 7}`, payloadJson: `{"i":${i},"f":1.5,"pad":"${'p'.repeat(16_000)}"}`, sourceRef: `r:${i}` });
    }
    const bundle = await exportBundle(source);
    ids = bundle.checkpoints.map((c) => c.id);
    bundlePath = join(dir, 'bundle.json');
    writeFileSync(bundlePath, serializeBundle(bundle));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it(`leaves all or nothing over ${RUNS} kills at random moments`, async () => {
    const outcomes: Outcome[] = [];
    for (let run = 0; run < RUNS; run++) {
      const storePath = join(dir, `store-${run}.sqlite`);
      const seed = await openSqliteStore(storePath);
      await seed.insertPrepared({ ...seed.prepare({ namespace: 'other', sessionId: 'seed', payload: { seed: run } }), id: 10_000 });
      await seed.close();
      // Two of three runs die inside the insert transaction at a random row; the rest at a random time.
      const target = run % 3 === 2 ? -1 : 1 + Math.floor(Math.random() * ITEMS);
      const killedAt = await runChild(storePath, bundlePath, target, target > 0 ? 60_000 : 100 + Math.floor(Math.random() * 3000));
      const store = await openSqliteStore(storePath);
      try {
        const report = await store.verify();
        expect(report.failures, killedAt).toEqual([]);
        const big: number[] = [];
        for await (const cp of store.scan({ namespace: 'big' })) big.push(cp.id);
        expect([0, ITEMS], killedAt).toContain(big.length);
        if (big.length === ITEMS) expect(big).toEqual(ids);
        expect(report.checked).toBe(big.length + 1);
        outcomes.push({ killedAt, rows: big.length });
      } finally {
        await store.close();
      }
    }
    console.log('SIGKILL outcomes:', outcomes.map((o) => `${o.killedAt} -> ${o.rows} rows`).join('; '));
    // Every targeted kill lands inside the open transaction (the child stalls there), so it must
    // leave nothing behind.
    const targeted = outcomes.filter((_, run) => run % 3 !== 2);
    expect(targeted.map((o) => o.rows)).toEqual(targeted.map(() => 0));
  }, 300_000);
});
