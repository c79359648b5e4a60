/**
 * Scale check of export and import: 1000 checkpoints of about 16 KiB each (the default import
 * caps allow 16 MiB of payload) through a SQLite store. Every phase runs in its own process so
 * its peak RSS is its own. Figures go to docs/bundle-scale.md.
 *
 * Runs the built packages (dist), as an application would. After building core, store-kysely and
 * bundle: `node tools/bench/scripts/bundle-scale.mjs [count] [payloadKiB]`
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { utf8ByteLength } from '@session-checkpoint/core';
import { openSqliteStore } from '@session-checkpoint/store-kysely';
import { importBundle, readBundleFile, writeBundleFile } from '@session-checkpoint/bundle';

/** @typedef {'seed' | 'baseline' | 'export' | 'import-dry-run' | 'import-apply' | 're-import'} Phase */
/** @typedef {{ phase: Phase, ms: number, peakRssMiB: number, peakHeapDeltaMiB: number, detail: string }} PhaseReport */

const SELF = fileURLToPath(import.meta.url);
const MiB = 1024 * 1024;
/** V8 old-space cap for the bounded-memory export run. */
const HEAP_CAP_MIB = Number(process.env.BENCH_HEAP_CAP_MIB ?? 24);

/** A chat-like payload of about `bytes` canonical bytes: nested objects, floats, text. */
/** @param {number} i @param {number} bytes @returns {string} */
function payload(i, bytes) {
  const messages = [];
  let size = 40;
  for (let m = 0; size < bytes - 400; m++) {
    const content = `message ${m} of step ${i}: ` + 'lorem ipsum dolor sit amet '.repeat(10);
    const message = `{"content":${JSON.stringify(content)},"n":${m},"role":"${m % 2 ? 'assistant' : 'user'}","score":${(m % 7) + 0.25}}`;
    messages.push(message);
    size += message.length + 1;
  }
  const pad = 'x'.repeat(Math.max(0, bytes - size - 60));
  return `{"messages":[${messages.join(',')}],"pad":"${pad}","step":${i},"total":12345678901234567890}`;
}

/** @param {Phase} phase @param {() => Promise<string>} run @returns {Promise<PhaseReport>} */
async function measure(phase, run) {
  const heapStart = process.memoryUsage().heapUsed;
  let heapPeak = heapStart;
  const sampler = setInterval(() => {
    heapPeak = Math.max(heapPeak, process.memoryUsage().heapUsed);
  }, 2);
  const start = performance.now();
  const detail = await run();
  const ms = performance.now() - start;
  clearInterval(sampler);
  heapPeak = Math.max(heapPeak, process.memoryUsage().heapUsed);
  return {
    phase,
    ms: Math.round(ms),
    peakRssMiB: Math.round((process.resourceUsage().maxRSS / 1024) * 10) / 10,
    peakHeapDeltaMiB: Math.round(((heapPeak - heapStart) / MiB) * 10) / 10,
    detail,
  };
}

/** @param {Phase} phase @param {string} dir @param {number} count @param {number} kib */
async function runPhase(phase, dir, count, kib) {
  const source = join(dir, 'source.sqlite');
  const target = join(dir, 'target.sqlite');
  const bundle = join(dir, 'bundle.json');
  switch (phase) {
    case 'seed': {
      const store = await openSqliteStore(source, { durability: 'normal' });
      const report = await measure(phase, async () => {
        let bytes = 0;
        await store.transaction(async (tx) => {
          for (let i = 1; i <= count; i++) {
            const cp = await tx.create({ namespace: 'bench', sessionId: `s-${i % 10}`, payloadJson: payload(i, kib * 1024), sourceRef: `run:${i}` });
            bytes += utf8ByteLength(cp.payloadJson);
          }
        });
        return `${count} checkpoints, ${(bytes / MiB).toFixed(2)} MiB canonical payload`;
      });
      await store.close();
      return report;
    }
    case 'baseline': {
      const store = await openSqliteStore(source, { create: false });
      const report = await measure(phase, async () => 'open store, load modules');
      await store.close();
      return report;
    }
    case 'export': {
      const store = await openSqliteStore(source, { create: false });
      const report = await measure(phase, async () => {
        const result = await writeBundleFile(store, bundle, { storePath: source });
        return `${result.checkpoints} checkpoints, file ${(statSync(bundle).size / MiB).toFixed(2)} MiB`;
      });
      await store.close();
      return report;
    }
    default: {
      if (phase === 'import-apply' || phase === 'import-dry-run') rmSync(target, { force: true });
      const store = await openSqliteStore(target);
      const report = await measure(phase, async () => {
        const text = await readBundleFile(bundle, store.limits);
        const result = await importBundle(store, text, { apply: phase !== 'import-dry-run' });
        return `inserted ${result.inserted.length}, unchanged ${result.unchanged.length}`;
      });
      await store.close();
      return report;
    }
  }
}

async function main() {
  const [, , first, second, third, fourth] = process.argv;
  if (first === '--phase') {
    const report = await runPhase(/** @type {Phase} */ (second), String(third), Number(fourth), Number(process.argv[6]));
    process.stdout.write(JSON.stringify(report) + '\n');
    return;
  }
  const count = Number(first ?? 1000);
  const kib = Number(second ?? 16);
  const dir = mkdtempSync(join(tmpdir(), 'sc-bundle-bench-'));
  try {
    // The second export runs with a small V8 heap cap: it only completes if export memory does
    // not grow with the store (it streams), which the RSS of an uncapped run cannot show (lazy GC).
    /** @type {Array<[Phase, string[]]>} */
    const phases = [
      ['seed', []],
      ['baseline', []],
      ['export', []],
      ['export', [`--max-old-space-size=${HEAP_CAP_MIB}`]],
      ['import-dry-run', []],
      ['import-apply', []],
      ['re-import', []],
    ];
    console.log(`node ${process.version}, ${count} checkpoints x ${kib} KiB, SQLite (durability full for import)`);
    console.log('| phase | time (ms) | peak RSS (MiB) | peak heap delta (MiB) | detail |');
    console.log('|---|---:|---:|---:|---|');
    for (const [phase, flags] of phases) {
      const child = spawnSync(process.execPath, [...flags, SELF, '--phase', phase, dir, String(count), String(kib)], { encoding: 'utf8', maxBuffer: 16 * MiB });
      if (child.status !== 0) throw new Error(`${phase} failed: ${child.stderr}`);
      /** @type {PhaseReport} */
      const r = JSON.parse(child.stdout.trim().split('\n').pop() ?? '{}');
      console.log(`| ${r.phase}${flags.length ? ` (${flags.join(' ')})` : ''} | ${r.ms} | ${r.peakRssMiB} | ${r.peakHeapDeltaMiB} | ${r.detail} |`);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
