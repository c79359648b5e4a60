import { type InsertPrecondition, MAX_CHECKPOINT_ID, type NewCheckpointRow } from '@session-checkpoint/core';
import { requiredRowsCondition, requiredRowsParameters } from './conditional-insert-sql.js';
import type { SqlFlavor } from './sql-flavor.js';

/*
 * insertMany as one statement per chunk of rows:
 *
 *   WITH "batch" ("o", <columns>) AS (VALUES (0, ...), (1, ...), ...)
 *   INSERT INTO <table> (<columns>) SELECT <columns> FROM "batch"
 *   WHERE NOT EXISTS (<a stored row holds a (namespace, source_ref) of the batch>)
 *     AND <highest id handed out> <= MAX_CHECKPOINT_ID - <rows>
 *   ORDER BY "o" ON CONFLICT DO NOTHING RETURNING "id", "source_ref", "payload_sha256"
 *
 * The same rules as the single insert (the adapter's compiled `insert`), for the batch as a whole:
 * a batch with a taken ref, or that would pass the id limit, is not offered at all, so it takes no
 * id (SQLite's AUTOINCREMENT counter and PostgreSQL's identity sequence stay where they were), and
 * the adapter then works out which row the single inserts would have refused first. ON CONFLICT
 * DO NOTHING stays the backstop for a concurrent PostgreSQL insert of the same ref, which turns
 * into fewer rows returned than offered (the adapter deletes what went in and reports the clash).
 * Refs that clash inside the batch never reach the statement (the adapter checks them first).
 *
 * Ids follow "o": the rows are inserted in that order, and each draws the next id (SQLite's
 * AUTOINCREMENT under its write lock; PostgreSQL's sequence, whose values one statement draws in
 * ascending order). RETURNING's order is not promised on SQLite, so the adapter sorts the ids and
 * checks each against its row's ref and hash.
 */

/** The columns of an inserted row, in the order of {@link insertManyParameters}. */
const COLUMNS = ['namespace', 'session_id', 'kind', 'name', 'payload_json', 'payload_sha256', 'created_at', 'source_ref'] as const;

/** Rows per statement: 800 parameters, below SQLite's oldest limit of 999 (PostgreSQL takes 65,535). */
export const INSERT_MANY_CHUNK = 100;

/**
 * The table an insert SQL writes to (`insert into <table> ("namespace", ...`), or `undefined` when
 * the adapter's compiled insert is not of that shape (a plugin of the caller's Kysely instance
 * rewrote it): the adapter then inserts row by row.
 */
export function insertTable(insertSql: string): string | undefined {
  const match = /^insert into (.+?) \("namespace", "session_id", "kind", "name", "payload_json", "payload_sha256", "created_at", "source_ref"\)/.exec(insertSql);
  return match?.[1];
}

/** The SQL inserting `count` rows into `table` (as the adapter's insert names it). */
export function insertManySql(table: string, flavor: SqlFlavor, count: number): string {
  const quoted = COLUMNS.map((c) => `"${c}"`).join(', ');
  let next = 0;
  // PostgreSQL cannot type a bare parameter in a VALUES list of a CTE: each one says text.
  const p = () => (flavor === 'postgres' ? `cast($${++next} as text)` : '?');
  const values: string[] = [];
  for (let k = 0; k < count; k++) values.push(`(${k}, ${COLUMNS.map(p).join(', ')})`);
  const highest =
    flavor === 'postgres'
      ? `coalesce(pg_sequence_last_value(pg_get_serial_sequence('${table.replaceAll("'", "''")}', 'id')::regclass), 0)`
      : `max(coalesce((select max("id") from ${table}), 0), coalesce((select "seq" from "sqlite_sequence" where "name" = 'checkpoints'), 0))`;
  return (
    `with "batch" ("o", ${quoted}) as (values ${values.join(', ')}) ` +
    `insert into ${table} (${quoted}) select ${quoted} from "batch" ` +
    `where not exists (select 1 from ${table} as "c" join "batch" as "b" on "c"."namespace" = "b"."namespace" and "c"."source_ref" = "b"."source_ref") ` +
    `and ${highest} <= ${MAX_CHECKPOINT_ID - count} ` +
    `order by "o" on conflict do nothing returning "id", "source_ref" as "sourceRef", "payload_sha256" as "payloadSha256"`
  );
}

/** The parameters of {@link insertManySql}, row after row. */
export function insertManyParameters(rows: readonly NewCheckpointRow[]): unknown[] {
  const out: unknown[] = [];
  for (const row of rows) out.push(row.namespace, row.sessionId, row.kind, row.name, row.payloadJson, row.payloadSha256, row.createdAt, row.sourceRef);
  return out;
}

/** Deletes rows by id (what a batch that went in only in part put there). */
export function deleteIdsSql(table: string, flavor: SqlFlavor, count: number): string {
  const marks = Array.from({ length: count }, (_, k) => (flavor === 'postgres' ? `$${k + 1}` : '?'));
  return `delete from ${table} where "id" in (${marks.join(', ')})`;
}

/*
 * insertManyIfPresent: the statement above (one chunk) with the conditions of insertIfPresent
 * (conditional-insert-sql.ts) in its WHERE: on PostgreSQL with a lock key, first the advisory lock
 * of transactionLock; then the batch's refs free and the id limit, as above; then the count of
 * required rows (by source ref, and SHA-256 where given; read FOR SHARE on PostgreSQL) equal to
 * their number. All of them are one-time filters: the batch goes in whole, or not at all.
 *
 * `onConflict` keeps ON CONFLICT DO NOTHING. Without it (SQLite; PostgreSQL at root level) a ref
 * the guard cannot see (held by two rows of the batch, or by a concurrent PostgreSQL writer's
 * insert that commits after this statement's snapshot) fails the whole statement with a unique
 * violation on the (namespace, source_ref) constraint, which the adapter turns into "not
 * inserted": SQLite undoes the statement whole (also inside a transaction, which goes on), and
 * nothing of the batch was ever visible. With it (PostgreSQL inside a caller's transaction, which
 * a statement error would end) such a clash skips rows instead, and the adapter deletes those
 * that went in.
 */

/** The SQL of insertManyIfPresent for `count` rows and one shape of precondition. */
export function insertManyIfPresentSql(table: string, flavor: SqlFlavor, count: number, present: InsertPrecondition['present'], locked: boolean, onConflict: boolean): string {
  const plain = insertManySql(table, flavor, count);
  const at = plain.indexOf(' where not exists (');
  const tail = ' order by "o" on conflict do nothing returning ';
  const end = plain.indexOf(tail);
  let next = count * COLUMNS.length;
  const p = () => (flavor === 'postgres' ? `$${++next}` : '?');
  const required = present.length > 0 ? ` and ${requiredRowsCondition(table, flavor, present, p)}` : '';
  const lock = locked ? ` (select true from (select pg_advisory_xact_lock(hashtextextended(cast(${p()} as text), 0))) as "lock") and` : '';
  const returning = plain.slice(end + tail.length);
  return `${plain.slice(0, at)} where${lock}${plain.slice(at + ' where'.length, end)}${required} order by "o"${onConflict ? ' on conflict do nothing' : ''} returning ${returning}`;
}

/** The parameters of {@link insertManyIfPresentSql}: the rows', then the required rows' (see requiredRowsParameters), the lock key. */
export function insertManyIfPresentParameters(flavor: SqlFlavor, rows: readonly NewCheckpointRow[], present: InsertPrecondition['present'], lockKeyText: string | undefined): unknown[] {
  const out = insertManyParameters(rows);
  if (present.length > 0) requiredRowsParameters(out, flavor, (rows[0] as NewCheckpointRow).namespace, present);
  if (lockKeyText !== undefined) out.push(lockKeyText);
  return out;
}
