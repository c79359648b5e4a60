import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  CheckpointStore,
  Checkpointer,
  generateKeyFile,
  isCheckpointConflictError,
  isCheckpointIntegrityError,
  Keyring,
  sha256Hex,
  type CheckpointAdapter,
  type CheckpointRow,
} from '@session-checkpoint/core';
import { ensure, ensureEqual, rejectsWith, show } from '../assert.js';
import { at, ids } from '../context.js';
import type { CaseContext } from '../context.js';
import type { ConformanceCase } from '../types.js';

/*
 * A store opened with keys over the adapter under test. Sealing lives in core's facade, so an
 * adapter gets sealed stores for free; these cases prove that nothing in the adapter gets in the
 * way: envelopes stored and returned untouched, heads kept in its metadata (or the base class's
 * rows) and changed atomically with the rows they describe, reads of tampered rows failing closed.
 */

/** A fresh keyring per case: no case leans on another's key. */
const sealedStore = (adapter: CheckpointAdapter, keys = Keyring.generate()) => ({ keys, store: new CheckpointStore(adapter, { keys }) });

/** Every stored row and metadata entry, as the adapter returns them: to show a failed read changed nothing. */
async function snapshot(adapter: CheckpointAdapter): Promise<string> {
  const rows = await adapter.scanRows({ afterId: Number.NEGATIVE_INFINITY, limit: 100_000 });
  const meta = adapter.listMeta ? await adapter.listMeta('') : [];
  return JSON.stringify([rows, [...meta].sort((a, b) => (a.key < b.key ? -1 : 1))]);
}

async function clean(store: CheckpointStore, rule: string): Promise<void> {
  const report = await store.verify();
  ensureEqual([report.failures, report.seal?.problems], [[], []], rule);
}

/** Creates rows of one session, one second apart, each with a source ref. */
async function thread(store: CheckpointStore, count: number, sessionId = 's-1', namespace = 'app') {
  const made = [];
  for (let i = 0; i < count; i++) made.push(await store.create({ namespace, sessionId, payload: { i, text: `state ${i} `.repeat(40) }, sourceRef: `${sessionId}/${i}`, createdAt: at(i) }));
  return made;
}

const raw = async (adapter: CheckpointAdapter, id: number) => (await adapter.getRow(id, 'app')) as CheckpointRow;

/** Flips one character of a base64url text at `index`. */
const flip = (text: string, index: number) => text.slice(0, index) + (text[index] === 'A' ? 'B' : 'A') + text.slice(index + 1);

/** The envelope text with one field's value replaced, hash recomputed. */
function edited(row: CheckpointRow, field: string, change: (value: string) => string): { payloadJson: string; payloadSha256: string } {
  const payloadJson = row.payloadJson.replace(new RegExp(`"${field}":"([^"]*)"`), (_m, value: string) => `"${field}":"${change(value)}"`);
  return { payloadJson, payloadSha256: sha256Hex(payloadJson) };
}

/** Runs `read` and requires a CheckpointIntegrityError, with the store byte-for-byte unchanged. */
async function failsClosed(ctx: CaseContext, read: () => Promise<unknown>, rule: string): Promise<void> {
  const before = await snapshot(ctx.adapter);
  await rejectsWith(read(), isCheckpointIntegrityError, rule);
  ensure((await snapshot(ctx.adapter)) === before, `${rule}: the failed read must leave the store unchanged`);
}

/** A child writer of the multi-process case: creates `count` rows, sealed with the key file's keys. */
function sealedWriter(module: string, location: string, writer: number, count: number, keyFile: string) {
  const script = fileURLToPath(new URL('../process-writer.js', import.meta.url));
  const child = spawn(process.execPath, [script, module, location, String(writer), String(count), keyFile], { stdio: ['pipe', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const ready = new Promise<void>((resolve) => child.stdout.on('data', () => resolve()));
  const done = new Promise<{ code: number | null; stderr: string }>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stderr }));
  });
  return { ready: Promise.race([ready, done]), go: () => child.stdin.end('go\n'), done };
}

/** Sealed stores over the adapter: envelopes, chains, heads, and tampering of every kind failing closed. */
export const sealed: ConformanceCase[] = [
  {
    name: 'a sealed store stores envelopes, never the plaintext, and reads back the exact text',
    async run({ adapter }) {
      const { store } = sealedStore(adapter);
      const payloadJson = '{"big":12345678901234567890,"f":1.0,"secret":"sealed-marker-7f3a"}';
      const cp = await store.create({ namespace: 'app', sessionId: 's-1', payloadJson });
      const row = await raw(adapter, cp.id);
      ensure(row.payloadJson.startsWith('{"ct":"') && !row.payloadJson.includes('sealed-marker-7f3a'), 'the adapter must store the envelope, not the plaintext', () => show(row.payloadJson));
      ensureEqual(row.payloadSha256, sha256Hex(row.payloadJson), 'the stored hash must be the envelope text\'s (what the Python tool checks)');
      ensureEqual((await store.get(cp.id, { namespace: 'app' })).payloadJson, payloadJson, 'a sealed read must return the exact payload text');
      ensureEqual((await store.latest('s-1', { namespace: 'app' }))?.id, cp.id, 'latest must find the sealed row');
      const plain = new CheckpointStore(adapter);
      ensureEqual((await plain.get(cp.id, { namespace: 'app' })).payloadJson, row.payloadJson, 'a store opened without keys must see the envelope as the payload, as stored');
    },
  },
  {
    name: 'a well-formed edit of any column, or an envelope moved to another row, fails closed on read and leaves the store unchanged',
    async run(ctx) {
      const { adapter, subject } = ctx;
      const { store } = sealedStore(adapter);
      const made = await thread(store, 12);
      const other = await thread(store, 1, 's-2');
      const donor = await raw(adapter, other[0]!.id);
      const [m0, m1, m2, m3, m4, m5, m6, m7, m8, m9] = made.map((c) => c.id) as number[];
      const cases: [number, Record<string, unknown>, string][] = [
        [m0!, { kind: 'edited' }, 'kind'],
        [m1!, { name: 'edited' }, 'name'],
        [m2!, { createdAt: at(59) }, 'created_at'],
        [m3!, { sourceRef: 's-1/edited' }, 'source_ref'],
        [m4!, { sessionId: 's-2' }, 'session_id (the row moved to another thread)'],
        [m5!, { payloadSha256: 'a'.repeat(64) }, 'payload_sha256'],
        [m6!, { payloadJson: donor.payloadJson, payloadSha256: donor.payloadSha256 }, 'the envelope of another thread\'s row, with its hash'],
        [m7!, edited(await raw(adapter, m7!), 'ct', (v) => flip(v, 5)), 'a bit of the ciphertext, hash recomputed'],
        [m8!, edited(await raw(adapter, m8!), 'ct', (v) => v.slice(0, -4)), 'the ciphertext truncated, hash recomputed'],
        [m9!, edited(await raw(adapter, m9!), 'iv', (v) => flip(v, 3)), 'the nonce, hash recomputed'],
      ];
      for (const [id, patch] of cases) await subject.tamper(id, patch);
      for (const [id, , what] of cases) {
        const sessionId = what.startsWith('session_id') ? 's-2' : 's-1';
        const read = () => (sessionId === 's-2' ? store.history('s-2', { namespace: 'app' }) : store.get(id, { namespace: 'app' }));
        await failsClosed(ctx, read, `a row with an edited ${what} must fail closed on read`);
      }
      const report = await store.verify();
      ensureEqual([...report.failures.map((f) => f.id)].sort((a, b) => a - b), cases.map(([id]) => id).sort((a, b) => a - b), 'verify must report every edited row');
      ensureEqual((await store.get(made[10]!.id, { namespace: 'app' })).payload, { i: 10, text: 'state 10 '.repeat(40) }, 'an untouched row must stay readable');
      await subject.tamper(made[11]!.id, { namespace: 'elsewhere' });
      await failsClosed(ctx, () => store.get(made[11]!.id, { namespace: 'elsewhere' }), 'a row moved to another namespace must fail closed');
    },
  },
  {
    name: 'plaintext put into a sealed store, even with a correct hash, is refused on read',
    async run(ctx) {
      const { store } = sealedStore(ctx.adapter);
      const [cp] = await thread(store, 1);
      const text = '{"i":0,"text":"injected"}';
      await ctx.subject.tamper(cp!.id, { payloadJson: text, payloadSha256: sha256Hex(text) });
      await failsClosed(ctx, () => store.get(cp!.id, { namespace: 'app' }), 'a plaintext row in a sealed store must fail closed');
      await failsClosed(ctx, () => store.latest('s-1', { namespace: 'app' }), 'latest over a plaintext row in a sealed store must fail closed');
    },
  },
  {
    name: 'deleting the newest rows, or swapping two rows, is detected by latest, history and verify',
    async run(ctx) {
      const { adapter, subject } = ctx;
      const { keys, store } = sealedStore(adapter);
      const made = await thread(store, 6);
      await adapter.deleteRow(made[5]!.id, 'app');
      await adapter.deleteRow(made[4]!.id, 'app');
      await failsClosed(ctx, () => store.latest('s-1', { namespace: 'app' }), 'latest after the newest rows were deleted outside the store must fail closed');
      await failsClosed(ctx, () => store.history('s-1', { namespace: 'app' }), 'history after the newest rows were deleted outside the store must fail closed');
      ensure((await store.verify()).seal?.problems.length, 'verify must report a chain whose newest rows were deleted');

      const { store: second } = sealedStore(adapter, keys);
      const rows = await thread(second, 5, 's-3');
      const a = await raw(adapter, rows[1]!.id);
      const b = await raw(adapter, rows[2]!.id);
      const columns = ({ id: _id, ...rest }: CheckpointRow) => rest;
      await subject.tamper(a.id, { ...columns(b), sourceRef: null });
      await subject.tamper(b.id, columns(a));
      await subject.tamper(a.id, { sourceRef: b.sourceRef });
      await failsClosed(ctx, () => second.history('s-3', { namespace: 'app' }), 'history over two swapped rows must fail closed');
      // Each row's seal covers its own id: both fail alone.
      await failsClosed(ctx, () => second.get(a.id, { namespace: 'app' }), 'get of a row swapped with another must fail closed');
      const report = await second.verify({ namespace: 'app' });
      ensure([a.id, b.id].every((id) => report.failures.some((f) => f.id === id)), 'verify must report both swapped rows', () => show(report.failures));
    },
  },
  {
    name: 'retention, prune, delete, deleteIds and deleteSession keep every chain and head valid',
    async run({ adapter }) {
      const { store } = sealedStore(adapter);
      const threads = new Checkpointer(store, { namespace: 'app', maxHistory: 3 });
      for (let i = 0; i < 7; i++) await threads.put('t-1', { i });
      ensureEqual((await threads.history('t-1')).map((e) => e.state.i), [6, 5, 4], 'maxHistory must keep the newest rows of a sealed thread');
      const made = await thread(store, 8);
      await clean(store, 'a sealed store must verify clean after retention');
      await store.delete(made[7]!.id, { namespace: 'app', apply: true });
      await store.delete(made[3]!.id, { namespace: 'app', apply: true });
      await store.deleteIds([made[0]!.id, made[5]!.id], { namespace: 'app' });
      await store.prune({ namespace: 'app', sessionId: 's-1', keepLatest: 2, apply: true });
      ensureEqual(ids(await store.history('s-1', { namespace: 'app' })), [made[6]!.id, made[4]!.id], 'deletes and prune must leave the newest rows, in order');
      await clean(store, 'a sealed store must verify clean after deletes at every place of a chain and a prune');
      await store.deleteSession('s-1', { namespace: 'app', apply: true });
      await threads.delete('t-1');
      await clean(store, 'a sealed store must verify clean after its sessions are deleted');
    },
  },
  {
    name: 'concurrent sealed writes, and a transaction that fails, leave one consistent chain per session',
    async run({ adapter }) {
      const { store } = sealedStore(adapter);
      await Promise.all([
        ...Array.from({ length: 24 }, (_, i) => store.create({ namespace: 'app', sessionId: `s-${i % 3}`, payload: { i } })),
        ...Array.from({ length: 6 }, (_, i) => new Checkpointer(store, { namespace: 'app', maxHistory: 2 }).put(`t-${i % 2}`, { i })),
        store.transaction(async (tx) => {
          await tx.create({ namespace: 'app', sessionId: 's-0', payload: { in: 'transaction' } });
          await tx.create({ namespace: 'app', sessionId: 's-9', payload: { in: 'transaction' } });
        }),
      ]);
      const head = await store.sealHead();
      let failed: unknown;
      try {
        await store.transaction(async (tx) => {
          await tx.create({ namespace: 'app', sessionId: 's-1', payload: { lost: true } });
          await tx.create({ namespace: 'app', sessionId: 's-1', payload: { lost: true }, sourceRef: 'x' });
          await tx.create({ namespace: 'app', sessionId: 's-1', payload: { lost: true }, sourceRef: 'x' });
        });
      } catch (error) {
        failed = error;
      }
      ensure(isCheckpointConflictError(failed), 'a sealed transaction whose last write conflicts must fail with CheckpointConflictError', () => show(failed));
      ensureEqual(await store.sealHead(), head, 'a failed transaction must leave the store head as it was');
      ensureEqual((await store.list({ namespace: 'app', limit: 100 })).length, 24 + 4 + 2, 'every sealed write must be stored, the failed transaction\'s none');
      await clean(store, 'concurrent sealed writes must leave every chain and head valid');
    },
  },
  {
    name: 'sealed writers in several OS processes at once leave every chain and head valid',
    requires: 'multiProcess',
    async run({ subject, adapter }) {
      const other = subject.otherProcess;
      ensure(other, 'a multiProcess subject must provide otherProcess (how another process opens the same store)');
      const dir = mkdtempSync(join(tmpdir(), 'sc-conformance-keys-'));
      try {
        const keyFile = join(dir, 'store.keys');
        const keys = await generateKeyFile(keyFile);
        const { store } = sealedStore(adapter, keys);
        const writers = [1, 2].map((k) => sealedWriter(other.module, other.location, k, 25, keyFile));
        await Promise.all(writers.map((w) => w.ready));
        for (const w of writers) w.go();
        for (let i = 0; i < 25; i++) await store.create({ namespace: 'app', sessionId: i % 2 ? 'shared' : 'process-0', payload: { writer: 0, i } });
        for (const [k, result] of (await Promise.all(writers.map((w) => w.done))).entries()) {
          ensure(result.code === 0, 'every sealed writer process must finish', () => `process ${k + 1} exited ${result.code}: ${result.stderr.trim()}`);
        }
        ensureEqual((await store.list({ namespace: 'app', limit: 1000 })).length, 75, 'every sealed write of every process must be stored');
        await clean(store, 'sealed writes from several processes must leave every chain and head valid');
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  },
];
