import type { CheckpointRow } from '@session-checkpoint/core';

/*
 * better-sqlite3 builds each result row as an object from C++, one property at a time: for the
 * nine columns of a checkpoint row that is about a third of a 20-row range read (67 against 46 us
 * of CPU with raw arrays and the object literal below; Node 20, better-sqlite3 12). A row built
 * by one JavaScript literal gets V8's fast object creation and the same keys in the same order,
 * so the adapter and the facade see exactly the rows they saw before.
 */

/** The statement surface used here; better-sqlite3's `Statement` has it. */
export interface RawCapableStatement {
  /** Switches the statement to arrays of column values. */
  raw?(toggle?: boolean): unknown;
  /** The result columns, by their names in the SQL (aliases included). */
  columns?(): ReadonlyArray<{ readonly name: string }>;
  all(parameters: ReadonlyArray<unknown>): unknown[];
}

/** The columns of every checkpoint-row query of the adapter, in its select order. */
const ROW_COLUMNS = ['id', 'namespace', 'sessionId', 'kind', 'name', 'payloadJson', 'payloadSha256', 'createdAt', 'sourceRef'] as const;

type RawRow = [number, string, string, string, string, string, string, string, string | null];

function rowOf(r: RawRow): CheckpointRow {
  return { id: r[0], namespace: r[1], sessionId: r[2], kind: r[3], name: r[4], payloadJson: r[5], payloadSha256: r[6], createdAt: r[7], sourceRef: r[8] };
}

/**
 * A reader for `statement` when it selects exactly the checkpoint row columns: it switches the
 * statement to raw mode (so call this once, on a statement nobody else runs) and maps each array
 * to a row. `undefined` for any other statement, or one without `raw`/`columns`; those run as
 * they are.
 *
 * @example
 * ```ts
 * const read = checkpointRowReader(db.prepare(sql)) ?? ((p) => statement.all(p));
 * ```
 */
export function checkpointRowReader(statement: RawCapableStatement): ((parameters: ReadonlyArray<unknown>) => CheckpointRow[]) | undefined {
  if (typeof statement.raw !== 'function' || typeof statement.columns !== 'function') return undefined;
  const names = statement.columns().map((column) => column.name);
  if (names.length !== ROW_COLUMNS.length || names.some((name, i) => name !== ROW_COLUMNS[i])) return undefined;
  statement.raw(true);
  return (parameters) => {
    const rows = statement.all(parameters) as RawRow[];
    const out = new Array<CheckpointRow>(rows.length);
    for (let i = 0; i < rows.length; i++) out[i] = rowOf(rows[i] as RawRow);
    return out;
  };
}
