import type { CheckpointRow } from '@session-checkpoint/core';

/** Column of each `CheckpointRow` field. */
export const COLUMN_OF: Record<keyof CheckpointRow, string> = {
  id: 'id',
  namespace: 'namespace',
  sessionId: 'session_id',
  kind: 'kind',
  name: 'name',
  payloadJson: 'payload_json',
  payloadSha256: 'payload_sha256',
  createdAt: 'created_at',
  sourceRef: 'source_ref',
};

/** The SET list and values of a tamper patch; bytes become BLOBs (better-sqlite3 binds Buffers). */
export function tamperAssignments(patch: Partial<Record<keyof CheckpointRow, unknown>>, toBytes: (bytes: Uint8Array) => unknown) {
  const columns: string[] = [];
  const values: unknown[] = [];
  for (const [field, value] of Object.entries(patch)) {
    const column = COLUMN_OF[field as keyof CheckpointRow];
    if (!column) throw new Error(`unknown field ${field}`);
    columns.push(column);
    values.push(value instanceof Uint8Array ? toBytes(value) : value);
  }
  return { columns, values };
}

/** Minimal better-sqlite3 surface used to tamper. */
interface RawSqlite {
  prepare(sql: string): { run(...params: unknown[]): unknown };
}

/** Overwrites columns of row `id` with raw values, bypassing the store. */
export function tamperSqlite(database: RawSqlite, id: number, patch: Partial<Record<keyof CheckpointRow, unknown>>): void {
  const { columns, values } = tamperAssignments(patch, (bytes) => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
  if (columns.length === 0) return;
  const result = database.prepare(`UPDATE checkpoints SET ${columns.map((c) => `${c} = ?`).join(', ')} WHERE id = ?`).run(...values, id) as {
    changes: number;
  };
  if (result.changes !== 1) throw new Error(`no row ${id} to tamper with`);
}
