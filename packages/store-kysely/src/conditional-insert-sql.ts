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
 * - the count of required rows (by source ref, and SHA-256 where given) equals their number. On
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
  // Parameters follow the insert's own, in this order: namespace, refs (and SHA-256s), count (when
  // rows are required), lock key.
  let required = '';
  if (present.length > 0) {
    const namespace = p();
    const refs = present.map((r) => (r.payloadSha256 === undefined ? `("source_ref" = ${p()})` : `("source_ref" = ${p()} and "payload_sha256" = ${p()})`));
    const rows = `select 1 from ${table} where "namespace" = ${namespace} and (${refs.join(' or ')})${flavor === 'postgres' ? ' for share' : ''}`;
    required = ` and (select count(*) from (${rows}) as "present") = ${p()}`;
  }
  const lock = locked ? `(select true from (select pg_advisory_xact_lock(hashtextextended(cast(${p()} as text), 0))) as "lock") and ` : '';
  return `${insertSql.slice(0, at)} where ${lock}not exists (${insertSql.slice(at + WHERE.length, -SUFFIX.length)}${required}${SUFFIX}`;
}

/** The parameters after the insert's own, in the order {@link conditionalInsertSql} numbers them. */
export function conditionalInsertParameters(namespace: string, present: InsertPrecondition['present'], lockKeyText: string | undefined): unknown[] {
  const out: unknown[] = [];
  if (present.length > 0) {
    out.push(namespace);
    for (const r of present) {
      out.push(r.sourceRef);
      if (r.payloadSha256 !== undefined) out.push(r.payloadSha256);
    }
    out.push(present.length);
  }
  if (lockKeyText !== undefined) out.push(lockKeyText);
  return out;
}

/** The cache key of a precondition's SQL: which refs carry a SHA-256, and whether a lock is taken. */
export function conditionalInsertShape(present: InsertPrecondition['present'], locked: boolean): string {
  let shape = locked ? 'L' : '-';
  for (const r of present) shape += r.payloadSha256 === undefined ? 'r' : 's';
  return shape;
}
