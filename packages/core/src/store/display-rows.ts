import { isCheckpointError } from '../errors.js';
import { utf8ByteLength } from '../sha256.js';
import type { CheckpointRow } from '../types.js';
import type { CheckpointStore } from './checkpoint-store.js';
import type { SourceRefPrefixQuery } from '../port/adapter.js';
import type { CheckedRow } from './checked-rows.js';

/*
 * What the family readers (the `rows` subpaths of langgraph and openai-agents) share to show a
 * store's rows page by page with each row's status: raw and checked range reads, the error an
 * entry carries, stored sizes, and opaque page cursors.
 */

/** A failure of one row, as a reader reports it instead of throwing (the entry stays visible). */
export interface RowError {
  /** The error code of session-checkpoint's errors, e.g. `"INTEGRITY"`. */
  code: string;
  message: string;
}

/** An error as a timeline entry carries it; anything not ours counts as an integrity failure. */
export function rowError(error: unknown): RowError {
  if (isCheckpointError(error)) return { code: error.code, message: error.message };
  return { code: 'INTEGRITY', message: error instanceof Error ? error.message : String(error) };
}

/** UTF-8 bytes of a stored payload text (0 for a damaged column that holds no text). */
export function utf8Length(text: unknown): number {
  return typeof text === 'string' ? utf8ByteLength(text) : 0;
}

/**
 * Raw rows of a source-ref range, unverified (for counting, or to check one by one): the
 * adapter's range read when it has one, else the store's.
 */
export async function rawRange(store: CheckpointStore, query: SourceRefPrefixQuery): Promise<CheckpointRow[]> {
  return store.adapter.listBySourceRefPrefix ? store.adapter.listBySourceRefPrefix(query) : store.listBySourceRefPrefix(query);
}

/** A range's rows, each verified on its own (a bad row does not fail the others). */
export async function checkedRange(store: CheckpointStore, query: SourceRefPrefixQuery): Promise<CheckedRow[]> {
  return store.checkRows(await rawRange(store, query));
}

/**
 * Opaque, URL-safe cursor text of a source ref (base64url of its UTF-8).
 *
 * @example
 * ```ts
 * decodeCursor(encodeCursor('lg:v2:t/c')); // 'lg:v2:t/c'
 * ```
 */
export function encodeCursor(ref: string): string {
  let binary = '';
  for (const byte of new TextEncoder().encode(ref)) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/u, '');
}

/** The source ref of a cursor, or `undefined` when the text is not one {@link encodeCursor} wrote. */
export function decodeCursor(cursor: string): string | undefined {
  if (!/^[A-Za-z0-9_-]+$/u.test(cursor) || cursor.length % 4 === 1) return undefined;
  const binary = atob(cursor.replace(/-/g, '+').replace(/_/g, '/'));
  const ref = new TextDecoder().decode(Uint8Array.from(binary, (c) => c.charCodeAt(0)));
  return encodeCursor(ref) === cursor ? ref : undefined;
}

/**
 * The rows of the given source refs, each verified on its own, by source ref (an absent ref is
 * absent from the map): the adapter's batched read when it has one, else the store's.
 */
export async function checkedByRef(store: CheckpointStore, namespace: string, refs: readonly string[]): Promise<Map<string, CheckedRow>> {
  const raw = store.adapter.findBySourceRefs ? await store.adapter.findBySourceRefs(namespace, [...refs]) : await store.findBySourceRefs(namespace, [...refs]);
  return new Map(store.checkRows(raw).map((c) => [String((c.ok ? c.row : c.raw).sourceRef), c] as const));
}
