import type { BaseCheckpointSaver } from '@langchain/langgraph-checkpoint';
import { checkpointPayload, isCheckpointRow, WRITE_KIND, writePayload } from '../format/payloads.js';
import { checkpointPrefix, checkpointRef } from '../format/refs.js';
import { rowsByPrefix } from '../read/entries.js';
import { SessionCheckpointSaver } from '../saver.js';

/*
 * How the migration finds what a saver holds without reading its values: the thread ids, then
 * per thread the (checkpoint_ns, checkpoint_id) pairs, then whether one checkpoint is there.
 * SqliteSaver and PostgresSaver keep `checkpoints` tables that a direct query reads by id (their
 * own `list` reads every row of the selection, values and all, before yielding the first: 4.2 GiB
 * for a 300-turn thread); our saver reads its index rows; any other saver answers through `list`.
 */

/** One checkpoint of a thread, without its values. */
export interface CheckpointKey {
  ns: string;
  id: string;
  /** Pending writes stored against it, when the saver can count them without reading values. */
  writes?: number;
}

/** What the migration reads of a saver, by id only. */
export interface SaverIndex {
  /** Distinct thread ids, sorted. */
  threads(): Promise<string[]>;
  /** The checkpoints of one thread, by namespace then id (JavaScript string order: oldest first). */
  checkpoints(thread: string): Promise<CheckpointKey[]>;
  /** True when the saver holds this checkpoint. */
  has(thread: string, ns: string, id: string): Promise<boolean>;
  /** Checkpoints of these threads (or of every thread), when the saver counts them cheaply. */
  count?(threads: readonly string[] | undefined): Promise<number>;
}

interface SqliteDb {
  prepare(sql: string): { all(...args: unknown[]): unknown[]; get(...args: unknown[]): unknown };
}
interface PgPool {
  query(sql: string, args?: unknown[]): Promise<{ rows: Record<string, unknown>[] }>;
}

/** The better-sqlite3 database of a SqliteSaver (structurally: its public `db`), else `undefined`. */
export function sqliteDbOf(saver: BaseCheckpointSaver): SqliteDb | undefined {
  const db = (saver as { db?: unknown }).db;
  return typeof (db as SqliteDb | undefined)?.prepare === 'function' ? (db as SqliteDb) : undefined;
}

/** The pool and schema of a PostgresSaver (structurally: `pool` and `options.schema`), else `undefined`. */
export function postgresOf(saver: BaseCheckpointSaver): { pool: PgPool; schema: string } | undefined {
  const { pool, options } = saver as { pool?: unknown; options?: { schema?: unknown } };
  if (typeof (pool as PgPool | undefined)?.query !== 'function' || typeof options?.schema !== 'string') return undefined;
  return { pool: pool as PgPool, schema: options.schema };
}

/** JavaScript string order (what LangGraph's savers sort ids by), namespace first. */
function byKey(a: CheckpointKey, b: CheckpointKey): number {
  if (a.ns !== b.ns) return a.ns < b.ns ? -1 : 1;
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

function sqliteIndex(db: SqliteDb): SaverIndex {
  // A file without the tables (a new target) holds nothing; the saver creates them on first put.
  const present = () => db.prepare(`SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'checkpoints'`).get() !== undefined;
  return {
    threads: async () => (present() ? (db.prepare('SELECT DISTINCT thread_id AS t FROM checkpoints ORDER BY thread_id').all() as { t: string }[]).map((r) => r.t) : []),
    checkpoints: async (thread) => {
      if (!present()) return [];
      const rows = db
        .prepare(
          `SELECT c.checkpoint_ns AS ns, c.checkpoint_id AS id,
             (SELECT count(*) FROM writes w WHERE w.thread_id = c.thread_id AND w.checkpoint_ns = c.checkpoint_ns AND w.checkpoint_id = c.checkpoint_id) AS writes
           FROM checkpoints c WHERE c.thread_id = ?`,
        )
        .all(thread) as { ns: string; id: string; writes: number }[];
      return rows.map((r) => ({ ns: r.ns, id: r.id, writes: Number(r.writes) })).sort(byKey);
    },
    has: async (thread, ns, id) => present() && db.prepare('SELECT 1 FROM checkpoints WHERE thread_id = ? AND checkpoint_ns = ? AND checkpoint_id = ?').get(thread, ns, id) !== undefined,
    count: async (threads) => {
      if (!present()) return 0;
      if (threads === undefined) return Number((db.prepare('SELECT count(*) AS n FROM checkpoints').get() as { n: number }).n);
      let n = 0;
      const one = db.prepare('SELECT count(*) AS n FROM checkpoints WHERE thread_id = ?');
      for (const t of threads) n += Number((one.get(t) as { n: number }).n);
      return n;
    },
  };
}

function postgresIndex({ pool, schema }: { pool: PgPool; schema: string }): SaverIndex {
  // PostgresSaver's own quoting of its schema (sql.js: `"${schema}".checkpoints`).
  const table = (name: string) => `"${schema}".${name}`;
  let exists: boolean | undefined;
  const present = async () => {
    // Only a table found is remembered: a target's tables appear with its setup().
    if (exists !== true) exists = (await pool.query('SELECT to_regclass($1) IS NOT NULL AS e', [table('checkpoints')])).rows[0]?.e === true;
    return exists;
  };
  return {
    threads: async () => ((await present()) ? (await pool.query(`SELECT DISTINCT thread_id AS t FROM ${table('checkpoints')} ORDER BY thread_id`)).rows.map((r) => String(r.t)) : []),
    checkpoints: async (thread) => {
      if (!(await present())) return [];
      const { rows } = await pool.query(
        `SELECT c.checkpoint_ns AS ns, c.checkpoint_id AS id,
           (SELECT count(*) FROM ${table('checkpoint_writes')} w WHERE w.thread_id = c.thread_id AND w.checkpoint_ns = c.checkpoint_ns AND w.checkpoint_id = c.checkpoint_id) AS writes
         FROM ${table('checkpoints')} c WHERE c.thread_id = $1`,
        [thread],
      );
      return rows.map((r) => ({ ns: String(r.ns), id: String(r.id), writes: Number(r.writes) })).sort(byKey);
    },
    has: async (thread, ns, id) =>
      (await present()) && (await pool.query(`SELECT 1 FROM ${table('checkpoints')} WHERE thread_id = $1 AND checkpoint_ns = $2 AND checkpoint_id = $3`, [thread, ns, id])).rows.length > 0,
    count: async (threads) => {
      if (!(await present())) return 0;
      const { rows } =
        threads === undefined
          ? await pool.query(`SELECT count(*) AS n FROM ${table('checkpoints')}`)
          : await pool.query(`SELECT count(*) AS n FROM ${table('checkpoints')} WHERE thread_id = ANY($1)`, [threads]);
      return Number(rows[0]?.n ?? 0);
    },
  };
}

function ourIndex(saver: SessionCheckpointSaver): SaverIndex {
  const { store, namespace } = saver;
  return {
    threads: async () => (await store.sessions({ namespace })).map((s) => s.sessionId).sort(),
    checkpoints: async (thread) => {
      // Rows come by ref: a checkpoint, then its write rows. Only ids and counts are kept.
      const keys: CheckpointKey[] = [];
      const at = new Map<string, CheckpointKey>();
      for await (const row of rowsByPrefix(store, { namespace, prefix: checkpointPrefix(thread) })) {
        if (isCheckpointRow(row)) {
          const p = checkpointPayload(row);
          const key = { ns: p.checkpoint_ns, id: p.checkpoint_id, writes: 0 };
          keys.push(key);
          at.set(`${key.ns}\u0000${key.id}`, key);
        } else if (row.kind === WRITE_KIND) {
          const w = writePayload(row);
          const key = at.get(`${w.checkpoint_ns}\u0000${w.checkpoint_id}`);
          if (key) key.writes = (key.writes ?? 0) + w.writes.length;
        }
      }
      return keys.sort(byKey);
    },
    has: async (thread, ns, id) => (await store.findBySourceRef(namespace, checkpointRef(thread, ns, id))) !== undefined,
  };
}

function listIndex(saver: BaseCheckpointSaver, threadIds: readonly string[] | undefined): SaverIndex {
  return {
    threads: async () => {
      if (threadIds !== undefined) return [...new Set(threadIds)].sort();
      const ids = new Set<string>();
      for await (const t of saver.list({ configurable: {} })) ids.add(String(t.config.configurable?.thread_id));
      return [...ids].sort();
    },
    checkpoints: async (thread) => {
      const keys: CheckpointKey[] = [];
      for await (const t of saver.list({ configurable: { thread_id: thread } })) {
        keys.push({ ns: String(t.config.configurable?.checkpoint_ns ?? ''), id: String(t.config.configurable?.checkpoint_id), writes: t.pendingWrites?.length ?? 0 });
      }
      return keys.sort(byKey);
    },
    has: async (thread, ns, id) => (await saver.getTuple({ configurable: { thread_id: thread, checkpoint_ns: ns, checkpoint_id: id } })) !== undefined,
  };
}

/**
 * The index of a saver: by direct query for SqliteSaver and PostgresSaver, by index rows for
 * ours, else through `list` (threads from `threadIds` when given).
 */
export function saverIndex(saver: BaseCheckpointSaver, threadIds?: readonly string[]): SaverIndex {
  const index = indexOf(saver);
  if (threadIds === undefined || index === undefined) return index ?? listIndex(saver, threadIds);
  return { ...index, threads: async () => [...new Set(threadIds)].sort() };
}

function indexOf(saver: BaseCheckpointSaver): SaverIndex | undefined {
  if (saver instanceof SessionCheckpointSaver) return ourIndex(saver);
  const db = sqliteDbOf(saver);
  if (db) return sqliteIndex(db);
  const pg = postgresOf(saver);
  return pg ? postgresIndex(pg) : undefined;
}
