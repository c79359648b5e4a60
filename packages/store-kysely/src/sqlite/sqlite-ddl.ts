import { NAMESPACE_INDEX, SESSION_INDEX } from '../schema.js';

/*
 * The v1 tables exactly as the Python reference creates them, whitespace included
 * (fixtures/python-v1/py-store.manifest.json, `schema_sql`). SQLite keeps this text in
 * `sqlite_master`, so a store we create is indistinguishable from one the Python tool created.
 */

/** `CREATE TABLE checkpoint_meta`, verbatim from the reference. */
export const CREATE_META_TABLE = `CREATE TABLE checkpoint_meta (
                            key TEXT PRIMARY KEY,
                            value TEXT NOT NULL
                        )`;

/** `CREATE TABLE checkpoints`, verbatim from the reference. */
export const CREATE_CHECKPOINTS_TABLE = `CREATE TABLE checkpoints (
                            id INTEGER PRIMARY KEY AUTOINCREMENT,
                            namespace TEXT NOT NULL,
                            session_id TEXT NOT NULL,
                            kind TEXT NOT NULL,
                            name TEXT NOT NULL,
                            payload_json TEXT NOT NULL,
                            payload_sha256 TEXT NOT NULL,
                            created_at TEXT NOT NULL,
                            source_ref TEXT,
                            UNIQUE(namespace, source_ref)
                        )`;

/** The reference's namespace index, verbatim. */
export const CREATE_NAMESPACE_INDEX = `CREATE INDEX ${NAMESPACE_INDEX}
                            ON checkpoints(namespace, created_at DESC, id DESC)`;

/**
 * Ours: serves latest/history/retention per session. `IF NOT EXISTS` because stores created by
 * the Python tool get it on first open.
 */
export const CREATE_SESSION_INDEX = `CREATE INDEX IF NOT EXISTS ${SESSION_INDEX}
                            ON checkpoints(namespace, session_id, created_at DESC, id DESC)`;
