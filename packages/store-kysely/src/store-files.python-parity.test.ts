import { execFileSync, spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { readFileSync, statSync } from 'node:fs';
import { Checkpointer, isCheckpointIntegrityError, isStoreSchemaError, Keyring, type Checkpoint } from '@session-checkpoint/core';
import { readFixtureJson } from '@session-checkpoint/fixtures';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Selectable } from 'kysely';
import { openSqliteStore } from './index.js';
import type { CheckpointsTable } from './schema.js';
import { copyFixture, tempDir } from './test-support/temp-dir.js';

/** A stored row as the manifest records it: the table's columns, plus the parsed payload. */
interface ManifestRecord extends Selectable<CheckpointsTable> {
  /** Python's json.loads of payload_json (big integers lose precision here, as in JSON.parse). */
  payload: unknown;
}
const manifest = readFixtureJson<{
  schema_sql: string[];
  namespaces: string[];
  records: ManifestRecord[];
  sqlite_sequence: [string, number][];
}>('py-store.manifest.json');

function asRecord(cp: Checkpoint): ManifestRecord {
  return {
    id: cp.id,
    namespace: cp.namespace,
    session_id: cp.sessionId,
    kind: cp.kind,
    name: cp.name,
    payload_json: cp.payloadJson,
    payload_sha256: cp.payloadSha256,
    created_at: cp.createdAt,
    source_ref: cp.sourceRef,
    payload: cp.payload,
  };
}

/** The reference's list order: created_at desc, id desc. */
function referenceOrder(namespace: string): number[] {
  return manifest.records
    .filter((r) => r.namespace === namespace)
    .sort((a, b) => (a.created_at === b.created_at ? b.id - a.id : a.created_at < b.created_at ? 1 : -1))
    .map((r) => r.id);
}

/** What the Python reference checks on open, done with plain SQL. */
function pythonOpenChecks(path: string) {
  const db = new Database(path, { readonly: true });
  try {
    const tables = db
      .prepare("SELECT name FROM sqlite_master WHERE type='table' AND name NOT LIKE 'sqlite_%' ORDER BY name")
      .all()
      .map((r) => (r as { name: string }).name);
    const columns = (t: string) =>
      db
        .prepare('SELECT name FROM pragma_table_info(?) ORDER BY name')
        .all(t)
        .map((r) => (r as { name: string }).name);
    const meta = (db.prepare("SELECT value FROM checkpoint_meta WHERE key='schema_version'").get() as { value: string } | undefined)?.value;
    const userVersion = db.pragma('user_version', { simple: true });
    const sqlOf = (name: string) => (db.prepare('SELECT sql FROM sqlite_master WHERE name = ?').get(name) as { sql: string }).sql;
    return {
      tables,
      metaColumns: columns('checkpoint_meta'),
      checkpointColumns: columns('checkpoints'),
      meta,
      userVersion,
      metaSql: sqlOf('checkpoint_meta'),
      checkpointsSql: sqlOf('checkpoints'),
      indexSql: sqlOf('idx_checkpoints_namespace_created'),
      sequenceSql: sqlOf('sqlite_sequence'),
    };
  } finally {
    db.close();
  }
}

function snapshot(path: string) {
  return { bytes: readFileSync(path), mode: statSync(path).mode };
}

describe('Python v1 store files', () => {
  let dir: ReturnType<typeof tempDir>;
  beforeEach(() => {
    dir = tempDir('sc-py-');
  });
  afterEach(() => dir.remove());

  it('opens the reference store: every record equals the manifest through get and list', async () => {
    const path = copyFixture('py-store.sqlite', dir.path);
    const store = await openSqliteStore(path, { create: false });
    try {
      for (const record of manifest.records) {
        expect(asRecord(await store.get(record.id, { namespace: record.namespace }))).toEqual(record);
      }
      for (const namespace of manifest.namespaces) {
        const page = await store.list({ namespace, limit: 100 });
        expect(page.map((cp) => cp.id)).toEqual(referenceOrder(namespace));
        expect(page.map(asRecord)).toEqual(referenceOrder(namespace).map((id) => manifest.records.find((r) => r.id === id)));
      }
      const report = await store.verify();
      expect(report).toMatchObject({ checked: manifest.records.length, ok: manifest.records.length, failures: [] });
      // AUTOINCREMENT state carries over: deleted id 9 is never reused.
      const next = await store.create({ namespace: 'app-a', sessionId: 'sess-ts', payload: { from: 'ts' } });
      expect(next.id).toBe(manifest.sqlite_sequence[0]![1] + 1);
    } finally {
      await store.close();
    }
    // Opening switched the rollback-journal file to WAL (documented) and restricted it to 0600.
    expect(statSync(path).mode & 0o777).toBe(0o600);
    const db = new Database(path, { readonly: true });
    expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
    db.close();
    // It still passes the reference's own open checks.
    expect(pythonOpenChecks(path)).toMatchObject({ tables: ['checkpoint_meta', 'checkpoints'], meta: '1', userVersion: 1 });
  });

  it.each([
    ['tampered-payload.sqlite', 1, 'app-a', 'app_b.v2', [7, 3]],
    ['tampered-hash.sqlite', 3, 'app_b.v2', 'app-a', [8, 2, 5, 1]],
  ] as const)('%s fails closed on the bad row, naming it; other namespaces stay readable', async (file, badId, badNs, goodNs, goodIds) => {
    const store = await openSqliteStore(copyFixture(file, dir.path), { create: false });
    try {
      const onGet = await store.get(badId, { namespace: badNs }).catch((e: unknown) => e);
      expect(isCheckpointIntegrityError(onGet)).toBe(true);
      expect((onGet as Error).message).toBe(`Checkpoint ${badId} failed payload integrity verification`);
      const onList = await store.list({ namespace: badNs }).catch((e: unknown) => e);
      expect(isCheckpointIntegrityError(onList) && onList.ids).toEqual([badId]);
      expect((await store.list({ namespace: goodNs })).map((cp) => cp.id)).toEqual(goodIds);
      expect((await store.get(5, { namespace: 'app-a' })).id).toBe(5);
      const report = await store.verify();
      expect(report.failures.map((f) => f.id)).toEqual([badId]);
    } finally {
      await store.close();
    }
  });

  it.each([
    ['tampered-schema-extra-table.sqlite', (p: string) => `Refusing incompatible SQLite file ${p}; tables=['checkpoint_meta', 'checkpoints', 'intruder']`],
    ['wrong-user-version.sqlite', (p: string) => `Unsupported checkpoint store schema in ${p}: meta=1, user_version=2`],
  ] as const)('%s is refused with StoreSchemaError and left byte- and mode-identical', async (file, message) => {
    const path = copyFixture(file, dir.path);
    const before = snapshot(path);
    for (const create of [true, false]) {
      const error = await openSqliteStore(path, { create }).catch((e: unknown) => e);
      expect(isStoreSchemaError(error)).toBe(true);
      expect((error as Error).message).toBe(message(path));
    }
    const after = snapshot(path);
    expect(after.mode).toBe(before.mode);
    expect(after.bytes.equals(before.bytes)).toBe(true);
  });

  it('a store we create passes the reference open checks, with the reference CREATE text', async () => {
    const path = dir.file('ours.sqlite');
    const store = await openSqliteStore(path);
    await store.create({ namespace: 'app', sessionId: 's', payload: { a: 1 } });
    await store.close();
    const checks = pythonOpenChecks(path);
    expect(checks).toEqual({
      tables: ['checkpoint_meta', 'checkpoints'],
      metaColumns: ['key', 'value'],
      checkpointColumns: ['created_at', 'id', 'kind', 'name', 'namespace', 'payload_json', 'payload_sha256', 'session_id', 'source_ref'],
      meta: '1',
      userVersion: 1,
      metaSql: manifest.schema_sql[0],
      checkpointsSql: manifest.schema_sql[1],
      sequenceSql: manifest.schema_sql[2],
      indexSql: manifest.schema_sql[3],
    });
  });

  it.skipIf(!hasPython())('the Python sqlite3 module reads a store we wrote (WAL) and sees the v1 schema', async () => {
    const path = dir.file('for-python.sqlite');
    const store = await openSqliteStore(path);
    const cp = await store.create({ namespace: 'app', sessionId: 's', payloadJson: '{"n":12345678901234567890,"f":1.0}' });
    await store.close();
    const script = [
      'import json, sqlite3, sys',
      'c = sqlite3.connect(sys.argv[1])',
      "tables = sorted(r[0] for r in c.execute(\"SELECT name FROM sqlite_master WHERE type='table' AND name NOT LIKE 'sqlite_%'\"))",
      "meta = c.execute(\"SELECT value FROM checkpoint_meta WHERE key='schema_version'\").fetchone()[0]",
      "uv = c.execute('PRAGMA user_version').fetchone()[0]",
      "rows = c.execute('SELECT id, payload_json, payload_sha256 FROM checkpoints').fetchall()",
      'print(json.dumps({"tables": tables, "meta": meta, "uv": uv, "rows": rows}))',
    ].join('\n');
    const out = JSON.parse(execFileSync('python3', ['-c', script, path], { encoding: 'utf8' })) as Record<string, unknown>;
    expect(out).toEqual({
      tables: ['checkpoint_meta', 'checkpoints'],
      meta: '1',
      uv: 1,
      rows: [[cp.id, '{"f":1.0,"n":12345678901234567890}', cp.payloadSha256]],
    });
  });
});

function hasPython(): boolean {
  try {
    execFileSync('python3', ['-c', 'import sqlite3'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

describe('a sealed store in the Python tool (CPython, test-support/python_reference_ops.py)', () => {
  const python = spawnSync('python3', ['-c', 'import sys; print(sys.version_info[0])'], { encoding: 'utf8' });
  it.skipIf(python.status !== 0)('lists, verifies the hash of, exports and imports every row: it sees envelopes, never the plaintext', async () => {
    const dir = tempDir('sc-py-sealed-');
    try {
      const path = dir.file('sealed.sqlite');
      const keys = Keyring.generate('py');
      const store = await openSqliteStore(path, { keys });
      const made: Checkpoint[] = [];
      for (let i = 0; i < 5; i++) made.push(await store.create({ namespace: i % 2 ? 'app-b' : 'app-a', sessionId: 's', payloadJson: `{"i":${i},"big":12345678901234567890,"f":1.0,"secret":"python-sealed-marker"}` }));
      await new Checkpointer(store, { namespace: 'app-a', maxHistory: 2 }).put('t', { n: 1 });
      await store.close();
      const script = fileURLToPath(new URL('./test-support/python_reference_ops.py', import.meta.url));
      const run = spawnSync('python3', [script, path, dir.file('python-copy.sqlite'), dir.file('bundle.json'), JSON.stringify(manifest.schema_sql)], { encoding: 'utf8' });
      expect(run.stderr).toBe('');
      const summary = JSON.parse(run.stdout) as { listed: Record<string, number[]>; exported: number[]; inserted: number[]; meta_keys: string[]; envelope_keys: string[] };
      const all = [...made.map((c) => c.id), made[4]!.id + 1];
      expect(summary.exported).toEqual(all);
      expect(summary.inserted).toEqual(all);
      expect(Object.values(summary.listed).flat().sort((a, b) => a - b)).toEqual(all);
      // The first payload is small: stored uncompressed, without `zip`.
      expect(summary.envelope_keys).toEqual(['ct', 'iv', 'key', 'link', 'prev', 'seal', 'sealed']);
      expect(summary.meta_keys).toContain('schema_version');
      expect(summary.meta_keys.some((k) => k.startsWith('seal:'))).toBe(true);
      expect(readFileSync(dir.file('bundle.json'), 'utf8')).not.toContain('python-sealed-marker');
      // The store the Python tool wrote is still readable by us with the keys, row by row.
      const copy = await openSqliteStore(dir.file('python-copy.sqlite'), { keys, create: false });
      try {
        for (const c of made) expect((await copy.get(c.id, { namespace: c.namespace })).payloadJson).toBe(c.payloadJson);
      } finally {
        await copy.close();
      }
    } finally {
      dir.remove();
    }
  });
});
