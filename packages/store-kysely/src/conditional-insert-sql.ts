import type { InsertPrecondition } from '@session-checkpoint/core';
import type { SqlFlavor } from './sql-flavor.js';

/*
 * insertIfPresent as one statement: the adapter's compiled insert (`INSERT ... SELECT <values>
 * WHERE NOT EXISTS (<ref taken>) ... ON CONFLICT DO NOTHING RETURNING "id"`) with two more
 * conditions in its WHERE:
 *
 * - PostgreSQL, with a lock key: first, the transaction-scoped advisory lock of transactionLock.
 *   The conditions are one-time filters evaluated in order, so the lock is held before any row is
 *   checked; a writer that took the same lock in an earlier statement (a delete) has committed by
 *   then.
 * - the required rows (by source ref, and SHA-256 where given) all exist (see requiredRowsCondition). On
 *   PostgreSQL they are read `FOR SHARE`: a row deleted by a transaction that committed after this
 *   statement's snapshot is skipped rather than counted, and one found cannot be deleted before
 *   the insert commits. SQLite runs a write statement under its write lock from its first step, so
 *   the count and the insert see one state.
 *
 * The statement is autocommit at root level: no BEGIN and COMMIT round trips.
 */

const SUFFIX = ' on conflict do nothing returning "id"';
const WHERE = ' where not exists (';

/**
 * The SQL of a conditional insert, built from the adapter's insert SQL for one shape of
 * precondition; `undefined` when that SQL is not of the shape above (a Kysely plugin of the
 * caller's instance rewrote it), and the caller then takes its checking transaction.
 */
export function conditionalInsertSql(insertSql: string, flavor: SqlFlavor, present: InsertPrecondition['present'], locked: boolean, parameterCount: number): string | undefined {
  const table = /^insert into (.+?) \(/.exec(insertSql)?.[1];
  const at = insertSql.indexOf(WHERE);
  if (table === undefined || at < 0 || !insertSql.endsWith(SUFFIX)) return undefined;
  let next = parameterCount;
  const p = () => (flavor === 'postgres' ? `$${++next}` : '?');
  // Parameters follow the insert's own, in this order: the required rows' (requiredRowsParameters),
  // the lock key.
  const required = present.length > 0 ? ` and ${requiredRowsCondition(table, flavor, present, p)}` : '';
  const lock = locked ? `(select true from (select pg_advisory_xact_lock(hashtextextended(cast(${p()} as text), 0))) as "lock") and ` : '';
  return `${insertSql.slice(0, at)} where ${lock}not exists (${insertSql.slice(at + WHERE.length, -SUFFIX.length)}${required}${SUFFIX}`;
}

/** True when no source ref appears twice in `present` (the port asks for distinct refs; a caller may still repeat one). */
export function distinctRefs(present: readonly { sourceRef: string }[]): boolean {
  for (let i = 1; i < present.length; i++) {
    for (let j = 0; j < i; j++) if (present[j]?.sourceRef === present[i]?.sourceRef) return false;
  }
  return true;
}

/** Whether {@link requiredRowsCondition} checks `present` as one EXISTS per ref (else by their count). */
export function existsForm(flavor: SqlFlavor, present: readonly { sourceRef: string }[]): boolean {
  return flavor === 'sqlite' && distinctRefs(present);
}

/**
 * The condition that the rows `present` names exist in `table` (by source ref, and SHA-256 where
 * given), its parameters marked by `p` in the order {@link requiredRowsParameters} gives them.
 *
 * - PostgreSQL, or refs that repeat: the count of rows matching any of them, read `FOR SHARE` on
 *   PostgreSQL, equals their number (so a repeated ref is never satisfied). Parameters: the
 *   namespace, the refs (and SHA-256s), the count.
 * - SQLite with distinct refs: one `EXISTS` per ref, each a probe of the unique (namespace,
 *   source_ref) index. With distinct refs and that index each ref matches at most one row, so all
 *   of them exist exactly when the count equals their number. The count reads them through a
 *   multi-index OR, which collects the rowids in a RowSet and counts: about 15 µs of CPU more per
 *   conditional insert of a Mastra persist in an isolated better-sqlite3 test (decision record
 *   0049). Parameters: per ref, the namespace, the ref (and SHA-256): better-sqlite3 binds an
 *   array only to anonymous `?`, so the namespace is passed again instead of numbered once.
 */
export function requiredRowsCondition(table: string, flavor: SqlFlavor, present: InsertPrecondition['present'], p: () => string): string {
  if (existsForm(flavor, present)) {
    return present.map((r) => `exists (select 1 from ${table} where "namespace" = ${p()} and "source_ref" = ${p()}${r.payloadSha256 === undefined ? '' : ` and "payload_sha256" = ${p()}`})`).join(' and ');
  }
  const namespace = p();
  const refs = present.map((r) => (r.payloadSha256 === undefined ? `("source_ref" = ${p()})` : `("source_ref" = ${p()} and "payload_sha256" = ${p()})`));
  const rows = `select 1 from ${table} where "namespace" = ${namespace} and (${refs.join(' or ')})${flavor === 'postgres' ? ' for share' : ''}`;
  return `(select count(*) from (${rows}) as "present") = ${p()}`;
}

/** The parameters of {@link requiredRowsCondition}, appended to `out`. */
export function requiredRowsParameters(out: unknown[], flavor: SqlFlavor, namespace: string, present: InsertPrecondition['present']): void {
  if (existsForm(flavor, present)) {
    for (const r of present) {
      out.push(namespace, r.sourceRef);
      if (r.payloadSha256 !== undefined) out.push(r.payloadSha256);
    }
    return;
  }
  out.push(namespace);
  for (const r of present) {
    out.push(r.sourceRef);
    if (r.payloadSha256 !== undefined) out.push(r.payloadSha256);
  }
  out.push(present.length);
}

/** The parameters after the insert's own, in the order {@link conditionalInsertSql} numbers them. */
export function conditionalInsertParameters(flavor: SqlFlavor, namespace: string, present: InsertPrecondition['present'], lockKeyText: string | undefined): unknown[] {
  return appendConditionalInsertParameters([], flavor, namespace, present, lockKeyText);
}

/** {@link conditionalInsertParameters} appended to `out` (the insert's own parameters); returns `out`. */
export function appendConditionalInsertParameters(out: unknown[], flavor: SqlFlavor, namespace: string, present: InsertPrecondition['present'], lockKeyText: string | undefined): unknown[] {
  if (present.length > 0) requiredRowsParameters(out, flavor, namespace, present);
  if (lockKeyText !== undefined) out.push(lockKeyText);
  return out;
}

/** The cache key of a precondition's SQL: which refs carry a SHA-256, and whether a lock is taken. */
export function conditionalInsertShape(present: InsertPrecondition['present'], locked: boolean): string {
  let shape = locked ? 'L' : '-';
  for (const r of present) shape += r.payloadSha256 === undefined ? 'r' : 's';
  // Refs that repeat take the count form (see requiredRowsCondition).
  return distinctRefs(present) ? shape : `${shape}=`;
}
