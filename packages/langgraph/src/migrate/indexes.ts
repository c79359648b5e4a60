import type { BaseCheckpointSaver } from '@langchain/langgraph-checkpoint';
import { checkpointPayload, isCheckpointRow, WRITE_KIND, writePayload } from '../format/payloads.js';
import { checkpointPrefix, checkpointRef } from '../format/refs.js';
import { rowsByPrefix } from '../read/entries.js';
import { officialStoreOver, type OfficialConnection, type OfficialStore } from '../official/index.js';
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

/**
 * The tables under a SqliteSaver (its public better-sqlite3 `db`) or a PostgresSaver (`pool` and
 * `options.schema`), found structurally, else `undefined`.
 */
export function storeUnder(saver: BaseCheckpointSaver): OfficialStore | undefined {
  const { db, pool, options } = saver as { db?: { prepare?: unknown }; pool?: { query?: unknown }; options?: { schema?: unknown } };
  if (typeof db?.prepare === 'function') return officialStoreOver({ kind: 'sqlite', db: db as Extract<OfficialConnection, { kind: 'sqlite' }>['db'] });
  if (typeof pool?.query !== 'function' || typeof options?.schema !== 'string') return undefined;
  return officialStoreOver({ kind: 'postgres', pool: pool as Extract<OfficialConnection, { kind: 'postgres' }>['pool'], schema: options.schema });
}

/** True when the store has its `checkpoints` table (a new target gets it with its setup()). */
export async function hasCheckpointsTable(store: OfficialStore | undefined): Promise<boolean> {
  if (store === undefined) return false;
  const sql = store.kind === 'sqlite' ? `SELECT 1 AS e FROM sqlite_master WHERE type = 'table' AND name = 'checkpoints'` : 'SELECT 1 AS e WHERE to_regclass($1) IS NOT NULL';
  return (await store.query(sql, store.kind === 'sqlite' ? [] : [store.tables.checkpoints])).length > 0;
}

/** JavaScript string order (what LangGraph's savers sort ids by), namespace first. */
function byKey(a: CheckpointKey, b: CheckpointKey): number {
  if (a.ns !== b.ns) return a.ns < b.ns ? -1 : 1;
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

/**
 * The index of a SqliteSaver's or PostgresSaver's tables (`checkpoints`, and `writes` or
 * `checkpoint_writes`). A location without the tables (a new target) holds nothing; only tables
 * found are remembered, since a target's appear with its setup().
 */
function tableIndex(store: OfficialStore): SaverIndex {
  const { query, tables: { checkpoints, writes } } = store;
  let found = false;
  const present = async () => (found ||= await hasCheckpointsTable(store));
  const count = async (sql: string, args?: unknown[]) => Number((await query(sql, args))[0]?.n ?? 0);
  return {
    threads: async () => ((await present()) ? (await query(`SELECT DISTINCT thread_id AS t FROM ${checkpoints} ORDER BY thread_id`)).map((r) => String(r.t)) : []),
    checkpoints: async (thread) => {
      if (!(await present())) return [];
      const rows = await query(
        `SELECT c.checkpoint_ns AS ns, c.checkpoint_id AS id,
           (SELECT count(*) FROM ${writes} w WHERE w.thread_id = c.thread_id AND w.checkpoint_ns = c.checkpoint_ns AND w.checkpoint_id = c.checkpoint_id) AS writes
         FROM ${checkpoints} c WHERE c.thread_id = $1`,
        [thread],
      );
      return rows.map((r) => ({ ns: String(r.ns), id: String(r.id), writes: Number(r.writes) })).sort(byKey);
    },
    has: async (thread, ns, id) =>
      (await present()) && (await query(`SELECT 1 AS one FROM ${checkpoints} WHERE thread_id = $1 AND checkpoint_ns = $2 AND checkpoint_id = $3`, [thread, ns, id])).length > 0,
    count: async (threads) => {
      if (!(await present())) return 0;
      if (threads === undefined) return count(`SELECT count(*) AS n FROM ${checkpoints}`);
      let n = 0;
      for (const t of threads) n += await count(`SELECT count(*) AS n FROM ${checkpoints} WHERE thread_id = $1`, [t]);
      return n;
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

function listIndex(saver: BaseCheckpointSaver): SaverIndex {
  return {
    threads: async () => {
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

/** The index of a saver: by direct query for SqliteSaver and PostgresSaver, by index rows for ours, else through `list`. */
export function saverIndex(saver: BaseCheckpointSaver, threadIds?: readonly string[]): SaverIndex {
  const store = storeUnder(saver);
  const index = saver instanceof SessionCheckpointSaver ? ourIndex(saver) : store ? tableIndex(store) : listIndex(saver);
  return threadIds === undefined ? index : { ...index, threads: async () => [...new Set(threadIds)].sort() };
}
