import type { MetaChange, MetaEntry, MetaSwap } from '@session-checkpoint/core';
import type { CompiledQuery } from 'kysely';
import { rawQuery } from './raw-query.js';
import type { SqlFlavor } from './sql-flavor.js';

/*
 * The adapter's metadata entries (a sealed store's heads, issue 36): rows of `checkpoint_meta`
 * beside the `schema_version` row, which the Python tool ignores (it reads only that key). No
 * table or column is added. Every statement is parameterised; only the schema name is spliced in,
 * quoted, as everywhere in this package. Built as raw text, so the SQLite front door's hot path
 * never loads Kysely for them.
 */

/** The meta table, qualified on PostgreSQL (the schema quoted as postgres-statements.ts does, without loading Kysely). */
function table(flavor: SqlFlavor, schema: string): string {
  return flavor === 'postgres' ? `"${schema.replaceAll('"', '""')}"."checkpoint_meta"` : '"checkpoint_meta"';
}

/** Placeholders from `$from + 1` on PostgreSQL, `?` on SQLite. */
function placeholders(flavor: SqlFlavor, from = 0): () => string {
  let n = from;
  return () => (flavor === 'postgres' ? `$${++n}` : '?');
}

/** The entries of these keys; with `lock` (PostgreSQL, in a transaction), held `FOR UPDATE`. */
export function readMetaQuery(flavor: SqlFlavor, schema: string, keys: readonly string[], lock: boolean): CompiledQuery<MetaEntry> {
  const p = placeholders(flavor);
  const list = keys.map(() => p()).join(', ');
  return rawQuery(`select "key", "value" from ${table(flavor, schema)} where "key" in (${list})${lock && flavor === 'postgres' ? ' for update' : ''}`, keys);
}

/** Entries whose key starts with `prefix` (compared by its characters, whatever the collation). */
export function listMetaQuery(flavor: SqlFlavor, schema: string, prefix: string): CompiledQuery<MetaEntry> {
  const p = placeholders(flavor);
  return rawQuery(`select "key", "value" from ${table(flavor, schema)} where substr("key", 1, ${p()}) = ${p()}`, [prefix.length, prefix]);
}

/** One change: an upsert, an insert that keeps an existing entry, or a delete. */
export function changeMetaQuery(flavor: SqlFlavor, schema: string, change: MetaChange): CompiledQuery {
  const p = placeholders(flavor);
  if (change.value === null) return rawQuery(`delete from ${table(flavor, schema)} where "key" = ${p()}`, [change.key]);
  const onConflict = change.ifAbsent === true ? 'do nothing' : 'do update set "value" = excluded."value"';
  return rawQuery(`insert into ${table(flavor, schema)} ("key", "value") values (${p()}, ${p()}) on conflict ("key") ${onConflict}`, [change.key, change.value]);
}

/** Claims a swapped entry that must be absent: a row back when this statement created it. */
export function claimMetaQuery(flavor: SqlFlavor, schema: string, swap: MetaSwap): CompiledQuery<{ one: number }> {
  const p = placeholders(flavor);
  return rawQuery(`insert into ${table(flavor, schema)} ("key", "value") values (${p()}, ${p()}) on conflict ("key") do nothing returning 1 as "one"`, [swap.key, swap.value]);
}

const WHERE = ' where not exists (';
const SUFFIX = ' on conflict do nothing returning "id"';

/**
 * PostgreSQL: `insertWithMeta` as one autocommit statement, built from the adapter's compiled
 * insert (`INSERT ... SELECT <values> WHERE NOT EXISTS (<ref taken>) ... RETURNING "id"`, as
 * conditional-insert-sql.ts extends it):
 *
 * - the insert's WHERE first reads the swapped entry `FOR UPDATE` and compares it with the
 *   expected text: the entry stays locked until the statement commits, and a writer that changed
 *   it since this statement's snapshot is seen (the locking read re-checks the newest version);
 * - a CTE updates the swapped entry, and another upserts the other entries, each only when the
 *   insert returned its row, so the row and the entries are written together or not at all;
 * - the statement returns the next value of the id sequence too, drawn while the entry is held:
 *   the id of the next sealed create, above every id handed out so far as long as the next
 *   swap succeeds (no other writer moved the entry, so none drew an id since).
 *
 * `undefined` when the insert SQL is not of that shape (a Kysely plugin rewrote it); the caller
 * then takes a transaction.
 */
export function swapInsertSql(insertSql: string, schema: string, parameterCount: number, also: number): string | undefined {
  const at = insertSql.indexOf(WHERE);
  if (at < 0 || !insertSql.endsWith(SUFFIX)) return undefined;
  const p = placeholders('postgres', parameterCount);
  const meta = table('postgres', schema);
  const key = p();
  const expected = p();
  const value = p();
  const insert = `${insertSql.slice(0, at)} where (select "value" from ${meta} where "key" = ${key} for update) = ${expected} and not exists (${insertSql.slice(at + WHERE.length)}`;
  const rows = Array.from({ length: also }, () => `(cast(${p()} as text), cast(${p()} as text))`).join(', ');
  const alsoCte = also === 0 ? '' : `, "also" as (insert into ${meta} ("key", "value") select "k", "v" from (values ${rows}) as "e"("k", "v") where exists (select 1 from "ins") on conflict ("key") do update set "value" = excluded."value" returning 1)`;
  const sequence = p();
  return `with "ins" as (${insert}), "swap" as (update ${meta} set "value" = ${value} where "key" = ${key} and exists (select 1 from "ins") returning 1)${alsoCte} select "id", nextval(pg_get_serial_sequence(cast(${sequence} as text), 'id')) as "next" from "ins"`;
}

/** The parameters after the insert's own, in the order {@link swapInsertSql} numbers them (the table name of the sequence last). */
export function swapInsertParameters(swap: MetaSwap, also: readonly MetaChange[]): unknown[] {
  return [swap.key, swap.expected, swap.value, ...also.flatMap((c) => [c.key, c.value])];
}
