import { createHash } from 'node:crypto';
import { isCheckpointIntegrityError } from '@session-checkpoint/core';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openSqliteStore } from './index.js';
import { tamperSqlite } from './test-support/sqlite-tamper.js';
import { tempDir } from './test-support/temp-dir.js';

// What a verified read can and cannot see (docs/stores.md, "What a read verifies"). The payload
// hash covers the payload text only and has no key: these tests pin both sides of that line, so
// a change to either (or to the docs' claim) is deliberate.

describe('the limits of read verification', () => {
  let dir: ReturnType<typeof tempDir>;
  beforeEach(() => {
    dir = tempDir('sc-limits-');
  });
  afterEach(() => dir.remove());

  async function withRow(patch: Parameters<typeof tamperSqlite>[2]) {
    const path = dir.file('s.sqlite');
    const store = await openSqliteStore(path);
    const cp = await store.create({ namespace: 'app', sessionId: 's', payload: { step: 1 }, sourceRef: 'r' });
    const raw = new Database(path);
    tamperSqlite(raw, cp.id, patch);
    raw.close();
    return { store, cp };
  }

  it('a well-formed change of created_at, session_id, name or source_ref is returned as stored (not detected)', async () => {
    const { store, cp } = await withRow({ createdAt: '2001-01-01T00:00:00Z', sessionId: 'other', name: 'renamed', sourceRef: 'r2' });
    const got = await store.get(cp.id, { namespace: 'app' });
    expect(got).toMatchObject({ createdAt: '2001-01-01T00:00:00Z', sessionId: 'other', name: 'renamed', sourceRef: 'r2', payloadJson: cp.payloadJson });
    expect((await store.verify()).failures).toEqual([]);
    await store.close();
  });

  it('a changed payload stored with its recomputed hash is returned (the hash is a checksum, not a signature)', async () => {
    const forged = '{"step":2}';
    const { store, cp } = await withRow({ payloadJson: forged, payloadSha256: createHash('sha256').update(forged).digest('hex') });
    expect((await store.get(cp.id, { namespace: 'app' })).payload).toEqual({ step: 2 });
    await store.close();
  });

  it('a changed payload without a recomputed hash fails closed: never returned, named by verify', async () => {
    const { store, cp } = await withRow({ payloadJson: '{"step":2}' });
    const error = await store.get(cp.id, { namespace: 'app' }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(isCheckpointIntegrityError(error)).toBe(true);
    await expect(store.list({ namespace: 'app' })).rejects.toThrow(/integrity/u);
    expect((await store.verify()).failures.map((f) => f.id)).toEqual([cp.id]);
    await store.close();
  });

  it('a malformed field fails closed (created_at not normalised)', async () => {
    const { store, cp } = await withRow({ createdAt: '2026-08-08T09:00:00+02:00' });
    await expect(store.get(cp.id, { namespace: 'app' })).rejects.toThrow(/created_at/u);
    await store.close();
  });
});
