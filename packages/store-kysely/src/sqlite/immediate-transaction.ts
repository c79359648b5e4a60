/** The statements of a SQLite write transaction. */
export type TransactionStatement = 'BEGIN IMMEDIATE' | 'COMMIT' | 'ROLLBACK';

/**
 * Runs `fn` between `BEGIN IMMEDIATE` and `COMMIT` on one connection, and rolls back when `fn` or
 * the commit throws. `BEGIN IMMEDIATE` takes the write lock (waiting up to `busy_timeout`) up
 * front, instead of failing with `SQLITE_BUSY` when a read would later upgrade. `exec` runs one
 * statement: better-sqlite3's `database.exec`, or a Kysely connection's `sql.raw(...).execute`.
 *
 * @example
 * ```ts
 * await immediateTransaction((statement) => database.exec(statement), () => insertBoth());
 * ```
 */
export async function immediateTransaction<T>(exec: (statement: TransactionStatement) => unknown, fn: () => Promise<T>): Promise<T> {
  await exec('BEGIN IMMEDIATE');
  try {
    const result = await fn();
    await exec('COMMIT');
    return result;
  } catch (error) {
    // A failed COMMIT (busy) leaves the transaction open; some errors have already rolled it
    // back, and then ROLLBACK fails. Either way the error to report is the first one.
    try {
      await exec('ROLLBACK');
    } catch {
      // already rolled back
    }
    throw error;
  }
}
