import { isCheckpointError } from '@session-checkpoint/core';
import type { StoredValue } from '../stored-value.js';
import type { RowError } from './types.js';

/**
 * A stored value in its serialised JSON form: the JSON the serializer wrote (`j`, LangChain
 * objects as `{ lc: 1, type: "constructor", ... }`), or `{ $type, $base64 }` for a value it wrote
 * as bytes. Readers without the serializer cannot revive it; the JSON is what it would revive.
 */
export function jsonForm(stored: StoredValue): unknown {
  if (stored.b64 !== undefined) return { $type: stored.t, $base64: stored.b64 };
  return stored.j ?? null;
}

/** An error as a timeline entry carries it. */
export function rowError(error: unknown): RowError {
  if (isCheckpointError(error)) return { code: error.code, message: error.message };
  return { code: 'INTEGRITY', message: error instanceof Error ? error.message : String(error) };
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
