import { CheckpointNotFoundError, CheckpointValidationError } from '@session-checkpoint/core';
import { encodeCursor } from '@session-checkpoint/core/toolkit';
import { recordOf } from '../format/json.js';
import { nextNodes } from '../rows/state.js';
import { pageStart, type LanggraphTimelineOptions } from '../rows/timeline.js';
import type { CheckpointSelector, LanggraphState, LanggraphThreadSummary, LanggraphTimelineEntry, LanggraphWrite, OfficialSource, PendingWriteTuple, TimelinePage } from '../rows/types.js';
import { decodeStored, decodeStoredValue, jsonFormOf, type DecodedValue, type ValuePlace } from './decode.js';
import type { OfficialRow, OfficialStore } from './open.js';

/*
 * The `./rows` answers (threads, timeline pages, states, writes) over an official saver's tables.
 * Every read is bounded: a timeline page reads its checkpoints' small fields in SQL (SQLite's JSON
 * functions, PostgreSQL's jsonb operators), never their values; a state reads one checkpoint, its
 * blobs and its writes. Nothing is verified (the rows carry no hash): each answer says so.
 */

/** Which checkpoint of which thread of an official store: `./rows`' selector without a store namespace (latest: by id, as the savers order them). */
export type OfficialSelector = Omit<CheckpointSelector, 'namespace'>;

/** Options of {@link officialTimeline}: those of `./rows`' timeline without a store namespace. */
export type OfficialTimelineOptions = Omit<LanggraphTimelineOptions, 'namespace'>;

/** The name each saver goes by in answers. */
export function sourceOf(store: OfficialStore): OfficialSource {
  return store.kind === 'sqlite' ? 'SqliteSaver' : 'PostgresSaver';
}

const text = (v: unknown): string => (typeof v === 'string' ? v : Buffer.isBuffer(v) ? v.toString('utf8') : String(v));
const num = (v: unknown): number => (typeof v === 'number' ? v : typeof v === 'bigint' ? Number(v) : Number(v ?? 0));

/** A JSON column as SQLite returns it (text) or pg (already parsed). */
function jsonColumn(v: unknown): unknown {
  if (v === null || v === undefined) return null;
  if (typeof v === 'string') return JSON.parse(v) as unknown;
  return v;
}

/** RFC 3339 UTC in whole seconds, from LangGraph's `ts` (the form `./rows` gives `created_at`). */
function wholeSeconds(ts: string | null): string {
  const t = ts === null ? Number.NaN : Date.parse(ts);
  return Number.isNaN(t) ? '' : new Date(Math.floor(t / 1000) * 1000).toISOString().replace('.000Z', 'Z');
}

/** The threads of the store, most recently active first (by their newest checkpoint's `ts`). */
export async function officialThreads(store: OfficialStore, options: { threadId?: string } = {}): Promise<LanggraphThreadSummary[]> {
  const { checkpoints, writes, blobs } = store.tables;
  const where = options.threadId === undefined ? '' : 'WHERE thread_id = $1';
  const args = options.threadId === undefined ? [] : [options.threadId];
  const size = store.kind === 'sqlite' ? (c: string) => `coalesce(length(${c}), 0)` : (c: string) => `coalesce(octet_length(${c}::text), 0)`;
  const rows = await store.query(
    `SELECT thread_id, checkpoint_ns, count(*) AS n, sum(${size('checkpoint')} + ${size('metadata')}) AS bytes, min(checkpoint_id) AS first_id, max(checkpoint_id) AS last_id
     FROM ${checkpoints} ${where} GROUP BY thread_id, checkpoint_ns`,
    args,
  );
  // SqliteSaver's writes keep their value in `value`; PostgresSaver's writes and blobs in `blob`.
  const valueSize = store.kind === 'sqlite' ? 'coalesce(length(value), 0)' : 'coalesce(octet_length(blob), 0)';
  const extra = new Map<string, number>();
  for (const table of [writes, ...(blobs === null ? [] : [blobs])]) {
    for (const r of await store.query(`SELECT thread_id, sum(${valueSize}) AS bytes FROM ${table} ${where} GROUP BY thread_id`, args)) {
      extra.set(text(r.thread_id), (extra.get(text(r.thread_id)) ?? 0) + num(r.bytes));
    }
  }
  const threads = new Map<string, { ns: string[]; count: number; bytes: number; first: [string, string]; last: [string, string] }>();
  for (const r of rows) {
    const id = text(r.thread_id);
    const t = threads.get(id) ?? { ns: [], count: 0, bytes: 0, first: [text(r.checkpoint_ns), text(r.first_id)], last: [text(r.checkpoint_ns), text(r.last_id)] };
    t.ns.push(text(r.checkpoint_ns));
    t.count += num(r.n);
    t.bytes += num(r.bytes);
    if (text(r.first_id) < t.first[1]) t.first = [text(r.checkpoint_ns), text(r.first_id)];
    if (text(r.last_id) > t.last[1]) t.last = [text(r.checkpoint_ns), text(r.last_id)];
    threads.set(id, t);
  }
  const out: LanggraphThreadSummary[] = [];
  for (const [id, t] of threads) {
    const [first, latest] = await Promise.all([tsOf(store, id, ...t.first), tsOf(store, id, ...t.last)]);
    out.push({
      family: 'langgraph',
      source: sourceOf(store),
      verified: false,
      namespace: store.schema,
      thread_id: id,
      checkpoint_ns: t.ns.sort(),
      count: t.count,
      bytes: t.bytes + (extra.get(id) ?? 0),
      first_created_at: wholeSeconds(first),
      latest_created_at: wholeSeconds(latest),
    });
  }
  return out.sort((a, b) => (a.latest_created_at < b.latest_created_at ? 1 : a.latest_created_at > b.latest_created_at ? -1 : a.thread_id < b.thread_id ? -1 : 1));
}

/** `checkpoint.ts` of one checkpoint, read in SQL (SQLite parses the row's JSON in C; nothing comes back but the time). */
async function tsOf(store: OfficialStore, thread: string, ns: string, id: string): Promise<string | null> {
  const ts = store.kind === 'sqlite' ? `CASE WHEN json_valid(CAST(checkpoint AS TEXT)) THEN json_extract(CAST(checkpoint AS TEXT), '$.ts') END` : `checkpoint->>'ts'`;
  const [row] = await store.query(`SELECT ${ts} AS ts FROM ${store.tables.checkpoints} WHERE thread_id = $1 AND checkpoint_ns = $2 AND checkpoint_id = $3`, [thread, ns, id]);
  return typeof row?.ts === 'string' ? row.ts : null;
}

/** The small fields of one checkpoint row of a timeline page. */
interface PageRow {
  id: string;
  parent: string | null;
  ts: string | null;
  versions: Record<string, unknown> | null;
  /** SQLite: the keys of `channel_values`; PostgreSQL: found from the blobs. */
  channels: string[] | null;
  metadata: unknown;
  error?: string;
  bytes: number;
  writeChannels: string[];
}

/** The SELECT of a page's rows: small fields only, computed by the database. */
function pageSql(store: OfficialStore): string {
  const { checkpoints, writes } = store.tables;
  if (store.kind === 'sqlite') {
    const doc = 'CAST(c.checkpoint AS TEXT)';
    const ok = `(c.type IS NULL OR c.type = 'json') AND json_valid(${doc})`;
    return `SELECT c.checkpoint_id AS id, c.parent_checkpoint_id AS parent, c.type AS type, CAST(c.metadata AS TEXT) AS metadata,
      CASE WHEN ${ok} THEN json_extract(${doc}, '$.ts') END AS ts,
      CASE WHEN ${ok} THEN coalesce(json_extract(${doc}, '$.channel_versions'), '{}') END AS versions,
      CASE WHEN ${ok} THEN (SELECT json_group_array(key) FROM json_each(${doc}, '$.channel_values')) END AS channels,
      coalesce(length(c.checkpoint), 0) + coalesce(length(c.metadata), 0) AS bytes,
      (SELECT coalesce(sum(length(w.value)), 0) FROM ${writes} w WHERE w.thread_id = c.thread_id AND w.checkpoint_ns = c.checkpoint_ns AND w.checkpoint_id = c.checkpoint_id) AS write_bytes,
      (SELECT json_group_array(DISTINCT w.channel) FROM ${writes} w WHERE w.thread_id = c.thread_id AND w.checkpoint_ns = c.checkpoint_ns AND w.checkpoint_id = c.checkpoint_id) AS write_channels
      FROM ${checkpoints} c`;
  }
  return `SELECT c.checkpoint_id AS id, c.parent_checkpoint_id AS parent, 'json' AS type, c.metadata AS metadata, c.checkpoint->>'ts' AS ts,
      coalesce((SELECT jsonb_object_agg(key, value) FROM jsonb_each_text(c.checkpoint->'channel_versions')), '{}'::jsonb) AS versions, NULL AS channels,
      octet_length(c.checkpoint::text) + octet_length(c.metadata::text) AS bytes,
      (SELECT coalesce(sum(octet_length(w.blob)), 0) FROM ${writes} w WHERE w.thread_id = c.thread_id AND w.checkpoint_ns = c.checkpoint_ns AND w.checkpoint_id = c.checkpoint_id) AS write_bytes,
      (SELECT coalesce(json_agg(DISTINCT w.channel), '[]'::json) FROM ${writes} w WHERE w.thread_id = c.thread_id AND w.checkpoint_ns = c.checkpoint_ns AND w.checkpoint_id = c.checkpoint_id) AS write_channels
      FROM ${checkpoints} c`;
}

function pageRow(r: OfficialRow, at: Omit<ValuePlace, 'checkpointId' | 'what'>): PageRow {
  const id = text(r.id);
  const row: PageRow = {
    id,
    parent: r.parent === null || r.parent === undefined ? null : text(r.parent),
    ts: typeof r.ts === 'string' ? r.ts : null,
    versions: null,
    channels: null,
    metadata: undefined,
    bytes: num(r.bytes) + num(r.write_bytes),
    writeChannels: ((jsonColumn(r.write_channels) as string[] | null) ?? []).filter((c) => c !== null).sort(),
  };
  try {
    row.metadata = typeof r.metadata === 'string' || r.metadata instanceof Uint8Array ? decodeStoredValue(r.type === null ? null : text(r.type), r.metadata, { ...at, checkpointId: id, what: 'metadata' }) : r.metadata;
    const versions = jsonColumn(r.versions);
    if (versions === null || typeof versions !== 'object') throw new CheckpointValidationError(`checkpoint ${id} could not be read as JSON (serializer type ${JSON.stringify(r.type)})`);
    row.versions = versions as Record<string, unknown>;
    row.channels = (jsonColumn(r.channels) as string[] | null) ?? null;
  } catch (error) {
    row.error = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  }
  return row;
}

/** Channel versions of checkpoints not on the page (the parents of its oldest entries), by id. */
async function versionsOf(store: OfficialStore, thread: string, ns: string, ids: string[]): Promise<Map<string, Record<string, unknown>>> {
  const out = new Map<string, Record<string, unknown>>();
  if (ids.length === 0) return out;
  const sql = pageSql(store) + ` WHERE c.thread_id = $1 AND c.checkpoint_ns = $2 AND c.checkpoint_id IN (${ids.map((_, i) => `$${i + 3}`).join(', ')})`;
  for (const r of await store.query(sql, [thread, ns, ...ids])) {
    const row = pageRow(r, { threadId: thread, checkpointNs: ns });
    if (row.versions) out.set(row.id, row.versions);
  }
  return out;
}

/** PostgreSQL: type and size of the blobs a page's checkpoints name, by `channel\0version`. */
async function blobInfo(store: OfficialStore, thread: string, ns: string, rows: PageRow[]): Promise<Map<string, { type: string; bytes: number }>> {
  const pairs = new Map<string, [string, string]>();
  for (const r of rows) for (const [channel, version] of Object.entries(r.versions ?? {})) pairs.set(`${channel}\u0000${String(version)}`, [channel, String(version)]);
  const out = new Map<string, { type: string; bytes: number }>();
  if (pairs.size === 0 || store.tables.blobs === null) return out;
  const list = [...pairs.values()];
  const found = await store.query(
    `SELECT b.channel, b.version, b.type, coalesce(octet_length(b.blob), 0) AS n FROM ${store.tables.blobs} b
     JOIN unnest($3::text[], $4::text[]) AS p(channel, version) ON b.channel = p.channel AND b.version = p.version
     WHERE b.thread_id = $1 AND b.checkpoint_ns = $2`,
    [thread, ns, list.map((p) => p[0]), list.map((p) => p[1])],
  );
  for (const r of found) out.set(`${text(r.channel)}\u0000${text(r.version)}`, { type: text(r.type), bytes: num(r.n) });
  return out;
}


/**
 * One page of a thread's checkpoints in one checkpoint namespace, newest first (by checkpoint id,
 * as the savers' `list` orders them), in the shape of `./rows`' `langgraphTimeline`: ids, time,
 * bytes (the checkpoint row, its writes and, for PostgresSaver, the blobs of the channels it
 * changed), metadata, changed and present channels, written channels. Reads `limit + 1` rows and
 * their small fields only (never a value), plus the versions of at most one parent off the page.
 * Every entry has `status: "unverified"` (a row that cannot be read: `"failed"` with the error).
 *
 * @throws CheckpointValidationError for a bad `limit` or `cursor`.
 * @example
 * ```ts
 * const page = await officialTimeline(store, { threadId: 'chat-1', limit: 50 });
 * ```
 */
export async function officialTimeline(store: OfficialStore, options: OfficialTimelineOptions): Promise<TimelinePage<LanggraphTimelineEntry>> {
  const { limit, before } = pageStart(options);
  const thread = options.threadId;
  const ns = options.checkpointNs ?? '';
  const raw = await store.query(
    pageSql(store) + ` WHERE c.thread_id = $1 AND c.checkpoint_ns = $2${before === undefined ? '' : ' AND c.checkpoint_id < $3'} ORDER BY c.checkpoint_id DESC LIMIT ${limit + 1}`,
    before === undefined ? [thread, ns] : [thread, ns, before],
  );
  const rows = raw.slice(0, limit).map((r) => pageRow(r, { threadId: thread, checkpointNs: ns }));
  const onPage = new Map(rows.map((r) => [r.id, r.versions] as const));
  const missing = [...new Set(rows.map((r) => r.parent).filter((p): p is string => p !== null && !onPage.has(p)))];
  const parents = await versionsOf(store, thread, ns, missing);
  const blobs = store.kind === 'postgres' ? await blobInfo(store, thread, ns, rows) : undefined;
  const entries = rows.map((r): LanggraphTimelineEntry => {
    const entry: LanggraphTimelineEntry = {
      checkpoint_id: r.id,
      parent_checkpoint_id: r.parent,
      checkpoint_ns: ns,
      created_at: wholeSeconds(r.ts),
      bytes: r.bytes,
      row_id: null,
      status: r.error === undefined ? 'unverified' : 'failed',
    };
    if (r.error !== undefined) {
      entry.error = { code: 'UNREADABLE', message: r.error };
      return entry;
    }
    if (r.ts !== null) entry.ts = r.ts;
    entry.metadata = r.metadata;
    const versions = r.versions ?? {};
    const parent = r.parent === null ? undefined : (onPage.get(r.parent) ?? parents.get(r.parent) ?? undefined);
    let present: string[];
    if (blobs !== undefined) {
      present = Object.keys(versions).filter((ch) => {
        const b = blobs.get(`${ch}\u0000${String(versions[ch])}`);
        return b !== undefined && b.type !== 'empty';
      });
    } else present = r.channels ?? [];
    // A first checkpoint changed every channel it has; others the channels whose version moved.
    const changed = present.filter((ch) => parent === undefined || String(versions[ch]) !== String(parent[ch]));
    if (blobs !== undefined) for (const ch of changed) entry.bytes += blobs.get(`${ch}\u0000${String(versions[ch])}`)?.bytes ?? 0;
    entry.changed_channels = changed.sort();
    entry.channels = present.sort();
    entry.write_channels = r.writeChannels;
    return entry;
  });
  const last = rows[rows.length - 1];
  return { entries, next_cursor: raw.length > limit && last !== undefined ? encodeCursor(last.id) : null };
}

/** The checkpoint row a selector names, with its raw columns. */
async function checkpointRow(store: OfficialStore, selector: OfficialSelector): Promise<OfficialRow> {
  const ns = selector.checkpointNs ?? '';
  const cols = 'thread_id, checkpoint_ns, checkpoint_id, parent_checkpoint_id, type, checkpoint, metadata';
  const rows =
    selector.checkpointId === undefined
      ? await store.query(`SELECT ${cols} FROM ${store.tables.checkpoints} WHERE thread_id = $1 AND checkpoint_ns = $2 ORDER BY checkpoint_id DESC LIMIT 1`, [selector.threadId, ns])
      : await store.query(`SELECT ${cols} FROM ${store.tables.checkpoints} WHERE thread_id = $1 AND checkpoint_ns = $2 AND checkpoint_id = $3`, [selector.threadId, ns, selector.checkpointId]);
  const row = rows[0];
  if (row !== undefined) return row;
  const where = `thread '${selector.threadId}'${ns === '' ? '' : ` (checkpoint namespace '${ns}')`} of ${sourceOf(store)} store ${store.location}`;
  throw new CheckpointNotFoundError(selector.checkpointId === undefined ? `no LangGraph checkpoint in ${where}` : `no LangGraph checkpoint ${selector.checkpointId} in ${where}`);
}

/**
 * The pending writes of one checkpoint, ordered by task id then index (PostgresSaver's order,
 * and SqliteSaver's key order), values decoded. The stores keep no task path: it is `""`.
 *
 * @throws CheckpointNotFoundError when the checkpoint has no row.
 * @throws UndecodableValueError for a value of a type this reader cannot decode.
 */
export async function officialWrites(store: OfficialStore, selector: OfficialSelector & { checkpointId: string }): Promise<LanggraphWrite[]> {
  await checkpointRow(store, selector);
  return (await writesOf(store, selector.threadId, selector.checkpointNs ?? '', selector.checkpointId)).map((w) => ({ ...w, task_path: '', value: jsonFormOf(w.value) }));
}

/** One pending write of {@link OfficialCheckpoint}, its value decoded. */
export interface OfficialWrite {
  task_id: string;
  idx: number;
  channel: string;
  value: DecodedValue;
}

async function writesOf(store: OfficialStore, thread: string, ns: string, id: string): Promise<OfficialWrite[]> {
  const value = store.kind === 'sqlite' ? 'value' : 'blob';
  const rows = await store.query(`SELECT task_id, idx, channel, type, ${value} AS value FROM ${store.tables.writes} WHERE thread_id = $1 AND checkpoint_ns = $2 AND checkpoint_id = $3 ORDER BY task_id, idx`, [thread, ns, id]);
  return rows.map((r) => ({
    task_id: text(r.task_id),
    idx: num(r.idx),
    channel: text(r.channel),
    value: decodeStored(r.type === null ? null : text(r.type), r.value as Uint8Array | string | null, {
      threadId: thread,
      checkpointNs: ns,
      checkpointId: id,
      what: `write ${num(r.idx)} (channel ${text(r.channel)}) of task ${text(r.task_id)}`,
    }),
  }));
}

/** PostgresSaver: the channel values of one checkpoint, from the blobs its versions name (type `empty` left out, as getTuple does). */
async function postgresValues(store: OfficialStore, thread: string, ns: string, id: string, only?: ReadonlySet<string>): Promise<Map<string, DecodedValue>> {
  const rows = await store.query(
    `SELECT b.channel, b.type, b.blob FROM ${store.tables.checkpoints} c
     CROSS JOIN LATERAL jsonb_each_text(c.checkpoint->'channel_versions') v
     JOIN ${store.tables.blobs ?? ''} b ON b.thread_id = c.thread_id AND b.checkpoint_ns = c.checkpoint_ns AND b.channel = v.key AND b.version = v.value
     WHERE c.thread_id = $1 AND c.checkpoint_ns = $2 AND c.checkpoint_id = $3${only === undefined ? '' : ' AND v.key = ANY($4::text[])'}`,
    only === undefined ? [thread, ns, id] : [thread, ns, id, [...only]],
  );
  const values = new Map<string, DecodedValue>();
  for (const r of rows) {
    const type = text(r.type);
    if (type === 'empty') continue;
    const channel = text(r.channel);
    values.set(channel, decodeStored(type, r.blob as Uint8Array | null, { threadId: thread, checkpointNs: ns, checkpointId: id, what: `channel ${channel}` }));
  }
  return values;
}

/** Channel values in their JSON form, as an object (own properties, `__proto__` kept as data). */
function valuesObject(values: Map<string, DecodedValue>): Record<string, unknown> {
  return recordOf([...values].map(([channel, value]) => [channel, jsonFormOf(value)]));
}

/** The checkpoint document of a row: SqliteSaver's serialized checkpoint, or PostgresSaver's jsonb (without values). */
function checkpointDocument(store: OfficialStore, row: OfficialRow, at: ValuePlace): Record<string, unknown> {
  const doc = store.kind === 'sqlite' ? decodeStoredValue(row.type === null ? null : text(row.type), row.checkpoint as Uint8Array | string, at) : jsonColumn(row.checkpoint);
  if (doc === null || typeof doc !== 'object' || Array.isArray(doc)) throw new CheckpointValidationError(`the checkpoint document of ${at.checkpointId} is not a JSON object`);
  return doc as Record<string, unknown>;
}

/**
 * The state at one checkpoint of an official store, in the shape of `./rows`' `langgraphState`
 * (channel values and pending writes in the serializer's JSON form, metadata, `next`), marked
 * `source` and `verified: false`. Reads one checkpoint row, its blobs (PostgresSaver) and its
 * writes. Pending sends of checkpoints before LangGraph's v4 are shown as stored, not migrated.
 *
 * @throws CheckpointNotFoundError when the thread or checkpoint has no row.
 * @throws UndecodableValueError for a value of a type this reader cannot decode.
 * @example
 * ```ts
 * const latest = await officialState(store, { threadId: 'chat-1' });
 * ```
 */
export async function officialState(store: OfficialStore, selector: OfficialSelector): Promise<LanggraphState> {
  const c = await officialCheckpoint(store, selector);
  const values = valuesObject(c.values);
  return {
    family: 'langgraph',
    source: sourceOf(store),
    verified: false,
    namespace: store.schema,
    thread_id: c.threadId,
    checkpoint_ns: c.checkpointNs,
    checkpoint_id: c.checkpointId,
    parent_checkpoint_id: c.parentCheckpointId,
    ts: typeof c.checkpoint.ts === 'string' ? c.checkpoint.ts : '',
    values,
    next: nextNodes(c.checkpoint, new Set(Object.keys(values))),
    metadata: jsonFormOf(c.metadata),
    pending_writes: c.writes.map((w): PendingWriteTuple => [w.task_id, w.channel, jsonFormOf(w.value)]),
    checkpoint: c.checkpoint,
  };
}

/** One checkpoint of an official store, decoded from the serializer's form but not revived: what {@link officialState} and the migration read. */
export interface OfficialCheckpoint {
  threadId: string;
  checkpointNs: string;
  checkpointId: string;
  parentCheckpointId: string | null;
  /** The checkpoint without `channel_values` (`v`, `id`, `ts`, `channel_versions`, `versions_seen`, ...). */
  checkpoint: Record<string, unknown>;
  /** Channel values, as `getTuple` finds them (PostgresSaver: blobs of type `empty` left out). */
  values: Map<string, DecodedValue>;
  metadata: DecodedValue;
  /** Pending writes, by task id then index. */
  writes: OfficialWrite[];
}

/**
 * Reads and decodes one checkpoint (the latest of (thread, ns) without an id): one checkpoint
 * row, its blobs (PostgresSaver) and its writes. Pending sends of checkpoints before LangGraph's
 * v4 are left as stored, not migrated.
 *
 * @throws CheckpointNotFoundError when the thread or checkpoint has no row.
 * @throws UndecodableValueError for a value of a type this reader cannot decode.
 */
export async function officialCheckpoint(store: OfficialStore, selector: OfficialSelector): Promise<OfficialCheckpoint> {
  const row = await checkpointRow(store, selector);
  const thread = selector.threadId;
  const ns = selector.checkpointNs ?? '';
  const id = text(row.checkpoint_id);
  const at = { threadId: thread, checkpointNs: ns, checkpointId: id };
  const doc = checkpointDocument(store, row, { ...at, what: 'the checkpoint' });
  const { channel_values: stored, ...checkpoint } = doc;
  let values: Map<string, DecodedValue>;
  if (store.kind === 'sqlite') {
    values = new Map();
    if (stored !== null && typeof stored === 'object') for (const [channel, json] of Object.entries(stored)) values.set(channel, { type: 'json', json });
  } else values = await postgresValues(store, thread, ns, id);
  checkpoint.channel_versions ??= {};
  checkpoint.versions_seen ??= {};
  const metadata = store.kind === 'sqlite' ? decodeStored(row.type === null ? null : text(row.type), row.metadata as Uint8Array | string, { ...at, what: 'metadata' }) : { type: 'json' as const, json: jsonColumn(row.metadata) };
  return {
    ...at,
    parentCheckpointId: row.parent_checkpoint_id === null || row.parent_checkpoint_id === undefined ? null : text(row.parent_checkpoint_id),
    checkpoint,
    values,
    metadata,
    writes: await writesOf(store, thread, ns, id),
  };
}

/**
 * The values of some channels at one checkpoint (a channel without a value there is left out).
 * PostgresSaver reads only those blobs; SqliteSaver's checkpoint holds every value in one row.
 *
 * @throws CheckpointNotFoundError when the checkpoint has no row.
 */
export async function officialChannelValues(store: OfficialStore, selector: OfficialSelector & { checkpointId: string; channels: readonly string[] }): Promise<Record<string, unknown>> {
  const only = new Set(selector.channels);
  if (store.kind === 'postgres') {
    await checkpointRow(store, selector);
    return valuesObject(await postgresValues(store, selector.threadId, selector.checkpointNs ?? '', selector.checkpointId, only));
  }
  const { values } = await officialState(store, selector);
  return Object.fromEntries(Object.entries(values).filter(([k]) => only.has(k)));
}
