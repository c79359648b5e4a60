import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { ensure, ensureEqual } from '../assert.js';
import { ids } from '../context.js';
import type { ConformanceCase } from '../types.js';

/** Child processes of the multi-process case, and the creates each makes (this process makes as many). */
const PROCESSES = 3;
const CREATES_EACH = 40;

/** A running child writer (process-writer.ts): `ready` once its store is open, `go()` starts its creates. */
interface Writer {
  ready: Promise<void>;
  go(): void;
  done: Promise<{ code: number | null; stderr: string }>;
}

function startWriter(module: string, location: string, writer: number): Writer {
  const script = fileURLToPath(new URL('../process-writer.js', import.meta.url));
  const child = spawn(process.execPath, [script, module, location, String(writer), String(CREATES_EACH)], { stdio: ['pipe', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  const done = new Promise<{ code: number | null; stderr: string }>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stderr }));
  });
  const ready = new Promise<void>((resolve) => {
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      if (stdout.startsWith('ready\n')) resolve();
    });
    // A child that fails before it is ready must not hold the case up.
    void done.then(() => resolve());
  });
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return { ready, done, go: () => child.stdin.end('go\n') };
}

/** Many callers at once, outside transactions. */
export const concurrency: ConformanceCase[] = [
  {
    name: 'concurrent creates all succeed with distinct ids',
    async run({ store }) {
      const made = await Promise.all(Array.from({ length: 50 }, (_, i) => store.create({ namespace: 'app', sessionId: `s-${i % 5}`, payload: { i } })));
      ensureEqual(new Set(ids(made)).size, 50, 'concurrent creates must get distinct ids');
      ensureEqual((await store.list({ namespace: 'app', limit: 100 })).length, 50, 'every concurrent create must be stored');
    },
  },
  {
    // A file adapter that reads, changes and writes back a whole file loses the rows another
    // process wrote in between, unless it locks across processes.
    name: 'creates from several OS processes at once are all stored, with distinct ids',
    requires: 'multiProcess',
    async run({ subject, store }) {
      const other = subject.otherProcess;
      ensure(other, 'a multiProcess subject must provide otherProcess (how another process opens the same store)');
      const writers = Array.from({ length: PROCESSES }, (_, k) => startWriter(other.module, other.location, k + 1));
      // Every process opens the store first, then all write at once (this one too).
      await Promise.all(writers.map((writer) => writer.ready));
      for (const writer of writers) writer.go();
      for (let i = 0; i < CREATES_EACH; i++) await store.create({ namespace: 'app', sessionId: 'process-0', payload: { writer: 0, i } });
      const results = await Promise.all(writers.map((writer) => writer.done));
      for (const [k, result] of results.entries()) {
        ensure(result.code === 0, 'every writer process must finish its creates', () => `process ${k + 1} exited ${result.code}: ${result.stderr.trim()}`);
      }
      const rows = await store.list({ namespace: 'app', limit: 1000 });
      const total = (PROCESSES + 1) * CREATES_EACH;
      ensure(rows.length === total, 'every create of every process must be stored', () => `${total - rows.length} of ${total} lost`);
      ensureEqual(new Set(ids(rows)).size, total, 'creates from several processes must get distinct ids');
    },
  },
];
