import Database from 'better-sqlite3';
import { createHash } from 'node:crypto';

/*
 * The raw floor: what better-sqlite3 alone costs for the same work, with the same schema and
 * pragmas as our SQLite store: an INSERT of a precomputed JSON.stringify text plus its SHA-256, or
 * a SELECT plus the hash check plus JSON.parse. No validation, no canonical form, no async.
 */

const SCHEMA = `
CREATE TABLE IF NOT EXISTS checkpoints (
  id INTEGER PRIMARY KEY AUTOINCREMENT, namespace TEXT NOT NULL, session_id TEXT NOT NULL,
  kind TEXT NOT NULL, name TEXT NOT NULL, payload_json TEXT NOT NULL, payload_sha256 TEXT NOT NULL,
  created_at TEXT NOT NULL, source_ref TEXT, UNIQUE(namespace, source_ref));
CREATE INDEX IF NOT EXISTS idx_checkpoints_namespace_created ON checkpoints(namespace, created_at DESC, id DESC);
CREATE INDEX IF NOT EXISTS idx_checkpoints_session ON checkpoints(namespace, session_id, created_at DESC, id DESC);
`;

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

interface Row {
  id: number;
  payload_json: string;
  payload_sha256: string;
}

/** better-sqlite3 prepared statements doing the store's work and nothing more. */
export class RawFloor {
  readonly #db: Database.Database;
  readonly #insert: Database.Statement;
  readonly #get: Database.Statement;
  readonly #latest: Database.Statement;
  readonly #list: Database.Statement;

  constructor(path: string, durability: 'full' | 'normal') {
    this.#db = new Database(path);
    this.#db.pragma('journal_mode = WAL');
    this.#db.pragma(`synchronous = ${durability === 'full' ? 'FULL' : 'NORMAL'}`);
    this.#db.pragma('busy_timeout = 5000');
    this.#db.exec(SCHEMA);
    this.#insert = this.#db.prepare(
      'INSERT INTO checkpoints (namespace, session_id, kind, name, payload_json, payload_sha256, created_at, source_ref) VALUES (?, ?, ?, ?, ?, ?, ?, NULL)',
    );
    this.#get = this.#db.prepare('SELECT * FROM checkpoints WHERE id = ? AND namespace = ?');
    this.#latest = this.#db.prepare('SELECT * FROM checkpoints WHERE namespace = ? AND session_id = ? ORDER BY created_at DESC, id DESC LIMIT 1');
    this.#list = this.#db.prepare('SELECT * FROM checkpoints WHERE namespace = ? ORDER BY created_at DESC, id DESC LIMIT ? OFFSET 0');
  }

  insert(sessionId: string, payload: object, createdAt: string): number {
    const text = JSON.stringify(payload);
    return Number(this.#insert.run('bench', sessionId, 'manual', 'n', text, sha256(text), createdAt).lastInsertRowid);
  }

  /** Inserts many rows in one transaction (for growth set-up only). */
  bulk(rows: { sessionId: string; text: string; createdAt: string }[]): void {
    this.#db.transaction(() => {
      for (const r of rows) this.#insert.run('bench', r.sessionId, 'manual', 'n', r.text, sha256(r.text), r.createdAt);
    })();
  }

  #check(row: Row | undefined): unknown {
    if (!row) throw new Error('missing row');
    if (sha256(row.payload_json) !== row.payload_sha256) throw new Error('hash mismatch');
    return JSON.parse(row.payload_json);
  }

  get(id: number): unknown {
    return this.#check(this.#get.get(id, 'bench') as Row | undefined);
  }

  latest(sessionId: string): unknown {
    return this.#check(this.#latest.get('bench', sessionId) as Row | undefined);
  }

  list(limit: number): unknown[] {
    return (this.#list.all('bench', limit) as Row[]).map((row) => this.#check(row));
  }

  close(): void {
    this.#db.close();
  }
}
