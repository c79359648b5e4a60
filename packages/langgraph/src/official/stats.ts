import type { OfficialSource } from '../rows/types.js';
import type { OfficialStore } from './open.js';
import { sourceOf } from './reader.js';

/**
 * Bytes a row of ours takes beyond its payload (ids, refs, kind, hashes, times), in the estimate
 * of {@link officialStoreStats}. A round figure from our SQLite layout, not a measurement per store.
 */
export const OUR_ROW_OVERHEAD = 300;

/** One thread of an official store, as {@link officialStoreStats} counts it. */
export interface OfficialThreadStats {
  thread_id: string;
  /** Checkpoint namespaces of the thread (`""` is the root graph), sorted. */
  checkpoint_ns: string[];
  /** Checkpoint rows over all its namespaces. */
  checkpoints: number;
  /** Pending-write rows. */
  writes: number;
  /** PostgresSaver only: channel-value blob rows (`0` for SqliteSaver, which keeps values in the checkpoint row). */
  blobs: number;
  /** Bytes of its checkpoint, metadata, write and blob values as stored (the text of jsonb columns). */
  bytes: number;
  /** `checkpoint.ts` of its oldest and newest checkpoint (by checkpoint id): the official tables keep no row time. */
  oldest_write: string | null;
  newest_write: string | null;
  /**
   * An estimate of its size once migrated into our layout: per (namespace, channel) the largest
   * stored value once (a list such as `messages` is stored as appended items, so its last and
   * largest version holds each item about once), plus each checkpoint's document without values,
   * its metadata and writes, plus {@link OUR_ROW_OVERHEAD} a row. A guide before moving, not a promise:
   * it counts payload bytes, and a SQLite file adds indexes and row fields (on a 300-turn thread the
   * file came out at about twice the estimate; docs/benchmarks.md).
   */
  estimated_bytes_in_our_layout: number;
}

/** What {@link officialStoreStats} returns. */
export interface OfficialStoreStats {
  source: OfficialSource;
  /** `sqlite:PATH` or the PostgreSQL URL (password hidden). */
  location: string;
  /** PostgreSQL schema, or `main` for SQLite. */
  schema: string;
  /** Threads, the largest first (by `bytes`). */
  threads: OfficialThreadStats[];
  /** Sums over the threads. */
  totals: { threads: number; checkpoints: number; writes: number; blobs: number; bytes: number; estimated_bytes_in_our_layout: number };
}

const num = (v: unknown): number => (typeof v === 'number' ? v : Number(v ?? 0));
const str = (v: unknown): string => String(v);

/**
 * Per thread of an official saver's store: checkpoints, writes, blobs, bytes, the time of its
 * oldest and newest checkpoint, and an estimate of its size in our layout
 * ({@link OfficialThreadStats.estimated_bytes_in_our_layout}). Aggregates in SQL: a few grouped
 * queries over the tables, no value leaves the database. On SQLite, the size of each checkpoint
 * document without values is measured with SQLite's JSON functions, which read every checkpoint
 * row once (in C); PostgresSaver keeps values apart, so its documents are measured directly.
 *
 * @param options.threadId Only this thread. Default is every thread.
 * @example
 * ```ts
 * const store = await openOfficialStore('postgres://user@host/db?schema=lg');
 * const { threads } = await officialStoreStats(store);
 * console.log(threads[0].thread_id, threads[0].bytes, threads[0].estimated_bytes_in_our_layout);
 * ```
 */
export async function officialStoreStats(store: OfficialStore, options: { threadId?: string } = {}): Promise<OfficialStoreStats> {
  const { checkpoints, writes, blobs } = store.tables;
  const where = options.threadId === undefined ? '' : 'WHERE thread_id = $1';
  const args = options.threadId === undefined ? [] : [options.threadId];
  const sqlite = store.kind === 'sqlite';
  const size = (c: string) => (sqlite ? `coalesce(length(${c}), 0)` : `coalesce(octet_length(${c}::text), 0)`);
  // The checkpoint document without its values: what our checkpoint row keeps besides refs.
  const docWithoutValues = sqlite ? `coalesce(length(CASE WHEN json_valid(CAST(checkpoint AS TEXT)) THEN json_remove(CAST(checkpoint AS TEXT), '$.channel_values') END), 0)` : size('checkpoint');
  const perNs = await store.query(
    `SELECT thread_id, checkpoint_ns, count(*) AS n, sum(${size('checkpoint')} + ${size('metadata')}) AS bytes, sum(${docWithoutValues} + ${size('metadata')}) AS kept,
       min(checkpoint_id) AS first_id, max(checkpoint_id) AS last_id, ${sqlite ? `max(${size('checkpoint')})` : '0'} AS largest
     FROM ${checkpoints} ${where} GROUP BY thread_id, checkpoint_ns`,
    args,
  );
  const valueColumn = sqlite ? 'value' : 'blob';
  const perWrites = await store.query(`SELECT thread_id, count(*) AS n, sum(coalesce(${sqlite ? 'length' : 'octet_length'}(${valueColumn}), 0)) AS bytes FROM ${writes} ${where} GROUP BY thread_id`, args);
  const perBlobs =
    blobs === null
      ? []
      : await store.query(
          `SELECT thread_id, sum(n) AS n, sum(bytes) AS bytes, sum(largest) AS largest FROM (
             SELECT thread_id, checkpoint_ns, channel, count(*) AS n, sum(coalesce(octet_length(blob), 0)) AS bytes, max(coalesce(octet_length(blob), 0)) AS largest
             FROM ${blobs} ${where} GROUP BY thread_id, checkpoint_ns, channel) per_channel GROUP BY thread_id`,
          args,
        );
  const threads = new Map<string, OfficialThreadStats & { first: [string, string]; last: [string, string] }>();
  for (const r of perNs) {
    const id = str(r.thread_id);
    const ns = str(r.checkpoint_ns);
    const t = threads.get(id) ?? {
      thread_id: id,
      checkpoint_ns: [],
      checkpoints: 0,
      writes: 0,
      blobs: 0,
      bytes: 0,
      oldest_write: null,
      newest_write: null,
      estimated_bytes_in_our_layout: 0,
      first: [ns, str(r.first_id)],
      last: [ns, str(r.last_id)],
    };
    t.checkpoint_ns.push(ns);
    t.checkpoints += num(r.n);
    t.bytes += num(r.bytes);
    // SQLite: the largest checkpoint row holds the namespace's values once (the last, fullest state).
    t.estimated_bytes_in_our_layout += num(r.kept) + num(r.n) * OUR_ROW_OVERHEAD + (sqlite ? num(r.largest) : 0);
    if (str(r.first_id) < t.first[1]) t.first = [ns, str(r.first_id)];
    if (str(r.last_id) > t.last[1]) t.last = [ns, str(r.last_id)];
    threads.set(id, t);
  }
  for (const r of perWrites) {
    const t = threads.get(str(r.thread_id));
    if (!t) continue;
    t.writes += num(r.n);
    t.bytes += num(r.bytes);
    t.estimated_bytes_in_our_layout += num(r.bytes) + num(r.n) * OUR_ROW_OVERHEAD;
  }
  for (const r of perBlobs) {
    const t = threads.get(str(r.thread_id));
    if (!t) continue;
    t.blobs += num(r.n);
    t.bytes += num(r.bytes);
    t.estimated_bytes_in_our_layout += num(r.largest);
  }
  const ts = sqlite ? `CASE WHEN json_valid(CAST(checkpoint AS TEXT)) THEN json_extract(CAST(checkpoint AS TEXT), '$.ts') END` : `checkpoint->>'ts'`;
  const tsOf = async ([ns, id]: [string, string], thread: string) => {
    const [row] = await store.query(`SELECT ${ts} AS ts FROM ${checkpoints} WHERE thread_id = $1 AND checkpoint_ns = $2 AND checkpoint_id = $3`, [thread, ns, id]);
    return typeof row?.ts === 'string' ? row.ts : null;
  };
  const out: OfficialThreadStats[] = [];
  for (const { first, last, ...t } of threads.values()) {
    t.checkpoint_ns.sort();
    t.oldest_write = await tsOf(first, t.thread_id);
    t.newest_write = await tsOf(last, t.thread_id);
    out.push(t);
  }
  out.sort((a, b) => b.bytes - a.bytes || (a.thread_id < b.thread_id ? -1 : 1));
  const sum = (k: 'checkpoints' | 'writes' | 'blobs' | 'bytes' | 'estimated_bytes_in_our_layout') => out.reduce((n, t) => n + t[k], 0);
  return {
    source: sourceOf(store),
    location: store.location,
    schema: store.schema,
    threads: out,
    totals: { threads: out.length, checkpoints: sum('checkpoints'), writes: sum('writes'), blobs: sum('blobs'), bytes: sum('bytes'), estimated_bytes_in_our_layout: sum('estimated_bytes_in_our_layout') },
  };
}
