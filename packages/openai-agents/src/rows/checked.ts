import { isCheckpointError, utf8ByteLength, type CheckpointRow, type CheckpointStore, type SourceRefPrefixQuery } from '@session-checkpoint/core';
import { checkRows, type CheckedRow } from '@session-checkpoint/core/internal';
import type { RowError } from './types.js';

/** UTF-8 bytes of a stored payload text (0 for a damaged column that holds no text). */
export function utf8Length(text: unknown): number {
  return typeof text === 'string' ? utf8ByteLength(text) : 0;
}

/** An error as a timeline entry carries it. */
export function rowError(error: unknown): RowError {
  if (isCheckpointError(error)) return { code: error.code, message: error.message };
  return { code: 'INTEGRITY', message: error instanceof Error ? error.message : String(error) };
}

/** Raw rows of a range (unverified: for counting, or to check one by one). */
export async function rawRange(store: CheckpointStore, query: SourceRefPrefixQuery): Promise<CheckpointRow[]> {
  return store.adapter.listBySourceRefPrefix ? store.adapter.listBySourceRefPrefix(query) : store.listBySourceRefPrefix(query);
}

/** A range's rows, each verified on its own (a bad row does not fail the others). */
export async function checkedRange(store: CheckpointStore, query: SourceRefPrefixQuery): Promise<CheckedRow[]> {
  return checkRows(await rawRange(store, query));
}

/** Opaque cursor text of a source ref (URL-safe). */
export function encodeCursor(ref: string): string {
  return Buffer.from(ref, 'utf8').toString('base64url');
}

/** The source ref of a cursor, or `undefined` when the text is not one this module wrote. */
export function decodeCursor(cursor: string): string | undefined {
  if (!/^[A-Za-z0-9_-]+$/.test(cursor)) return undefined;
  const ref = Buffer.from(cursor, 'base64url').toString('utf8');
  return encodeCursor(ref) === cursor ? ref : undefined;
}
