import { CheckpointNotFoundError, CheckpointValidationError, type CheckpointStore } from '@session-checkpoint/core';
import { MASTRA_NAMESPACE } from './namespace.js';
import { wholeRange } from './range-pages.js';
import { idPart, pad, seqOf } from './refs.js';
import type { MastraRowsPlace } from './threads.js';
import { valuesOf } from './values.js';

/*
 * The rows of Mastra's observational memory (OM). Mastra keeps, per thread (scope "thread") or
 * per resource (scope "resource"), a list of records, one per generation: a reflection starts a
 * new record and the older ones stay as history. Each record is updated in place by Mastra's own
 * adapters; here every update is a new version kept as a row.
 *
 * Rows (one namespace, next to the memory domain's; <key> is the escaped lookup key
 * "thread:<threadId>" or "resource:<resourceId>", as @mastra/libsql and @mastra/pg name it):
 *
 *   o/<key>/<inverted generation>/<n>   record n of the key as it is now (kind mastra.om): a range
 *                                       read of o/<key>/ is the key's records newest generation
 *                                       first, records of one generation in the order they were
 *                                       made (as @mastra/libsql orders them)
 *   oc/<key>/<n>/<version>              version <version> of record n (kind mastra.om-change): the
 *                                       whole record for the version that made it, else the
 *                                       fields the update set (folding them gives any version)
 *   oi/<record id>                      where record <id> lives (kind mastra.om-id): its key and row
 *   p/<ref>/<k>                         part k of a value larger than a row (value-writer.ts)
 *
 * The stored record is the columns @mastra/libsql keeps (JSON: dates as ISO text), and a read
 * gives the record as @mastra/libsql's parseOMRow does, with dates as `Date` (also those of the
 * buffered chunks, where libsql gives their JSON text).
 */

/** Row kinds of observational memory. */
export const OM_KINDS = {
  /** An OM record as it is now (its newest version). */
  record: 'mastra.om',
  /** One version of an OM record: what made it or what an update set. */
  change: 'mastra.om-change',
  /** Where an OM record id lives. */
  id: 'mastra.om-id',
} as const;

/** Ref prefixes of the OM rows (with their part rows), for a clear of the whole namespace. */
export const OM_PREFIXES = ['o/', 'oc/', 'oi/', 'p/o/', 'p/oc/'] as const;

/** Generations are stored inverted below this, so an ascending range read is newest first. */
export const GENERATIONS = 1e15;

/** The lookup key of a thread's or a resource's OM, as Mastra's SQL adapters have it. */
export function omLookupKey(threadId: string | null | undefined, resourceId: string): string {
  return threadId ? `thread:${threadId}` : `resource:${resourceId}`;
}

export const recordPrefix = (lookupKey: string): string => `o/${idPart(lookupKey)}/`;
export const recordRef = (lookupKey: string, generation: number, n: number): string => `${recordPrefix(lookupKey)}${pad(GENERATIONS - 1 - generation)}/${pad(n)}`;
export const changesPrefix = (lookupKey: string): string => `oc/${idPart(lookupKey)}/`;
export const changeRef = (lookupKey: string, n: number, version: number): string => `${changesPrefix(lookupKey)}${pad(n)}/${pad(version)}`;
export const idRef = (recordId: string): string => `oi/${idPart(recordId)}`;

/** A buffered chunk of observations as stored (Mastra's `BufferedObservationChunk` as JSON: dates as ISO text). */
export interface StoredChunk {
  id: string;
  cycleId: string;
  observations: string;
  tokenCount: number;
  messageIds: string[];
  messageTokens: number;
  lastObservedAt?: string;
  createdAt?: string;
  suggestedContinuation?: string;
  currentTask?: string;
  threadTitle?: string;
  extractedValues?: Record<string, unknown>;
  extractionFailures?: { slug: string; error: string }[];
}

/** An OM record as stored: the columns @mastra/libsql keeps, as JSON. */
export interface StoredObservationalMemory {
  id: string;
  lookupKey: string;
  scope: string;
  resourceId: string | null;
  threadId: string | null;
  activeObservations: string;
  originType: string;
  config: Record<string, unknown>;
  generationCount: number;
  lastObservedAt: string | null;
  pendingMessageTokens: number;
  totalTokensObserved: number;
  observationTokenCount: number;
  observedMessageIds: string[] | null;
  bufferedObservationChunks: StoredChunk[] | null;
  bufferedReflection: string | null;
  bufferedReflectionTokens: number | null;
  bufferedReflectionInputTokens: number | null;
  reflectedObservationLineCount: number | null;
  isObserving: unknown;
  isReflecting: unknown;
  isBufferingObservation: unknown;
  isBufferingReflection: unknown;
  lastBufferedAtTokens: unknown;
  lastBufferedAtTime: string | null;
  observedTimezone: string | null;
  metadata: Record<string, unknown> | null;
  createdAt: string;
  updatedAt: string;
}

/** What an OM record row's payload holds besides the value. */
export interface RecordFields {
  recordId: string;
  lookupKey: string;
  generationCount: number;
  n: number;
  version: number;
  createdAt: string;
}

/** What an OM id row's payload holds. */
export interface IdFields {
  recordId: string;
  lookupKey: string;
  ref: string;
}

/** One OM record (generation) of a thread or resource, as a reader lists it. */
export interface MastraObservationalMemorySummary {
  family: 'mastra';
  namespace: string;
  /** `thread:<threadId>` or `resource:<resourceId>`. */
  lookup_key: string;
  record_id: string;
  generation: number;
  /** Versions of the record (its first one and one per update). */
  versions: number;
  created_at: string;
  updated_at: string;
  /** The record now (its newest version). */
  record: StoredObservationalMemory;
}

/** One version of an OM record: the record as it was after it. */
export interface MastraObservationalMemoryVersion {
  family: 'mastra';
  namespace: string;
  record_id: string;
  version: number;
  /** The Mastra call that made the version (`initialize`, `updateActiveObservations`, `set isObserving`, ...). */
  op: string;
  record: StoredObservationalMemory;
}

/**
 * The observational memory records of a thread (or, without `threadId`, of a resource), newest
 * generation first, each verified.
 *
 * @example
 * ```ts
 * const [current] = await mastraObservationalMemory(store, { threadId: 'thread-1', resourceId: 'user-1' });
 * ```
 */
export async function mastraObservationalMemory(store: CheckpointStore, options: MastraRowsPlace & { threadId?: string | null; resourceId: string }): Promise<MastraObservationalMemorySummary[]> {
  const namespace = options.namespace ?? MASTRA_NAMESPACE;
  const lookupKey = omLookupKey(options.threadId, options.resourceId);
  const rows = await wholeRange((q) => store.listBySourceRefPrefix(q), { namespace, prefix: recordPrefix(lookupKey), kind: OM_KINDS.record });
  const values = (await valuesOf(store, namespace, rows)) as StoredObservationalMemory[];
  return rows.map((row, i) => {
    const f = row.payload as unknown as RecordFields;
    const record = values[i] as StoredObservationalMemory;
    return { family: 'mastra', namespace, lookup_key: lookupKey, record_id: f.recordId, generation: f.generationCount, versions: f.version, created_at: record.createdAt, updated_at: record.updatedAt, record };
  });
}

/**
 * An OM record as it was after version `version` (the newest when absent): its change rows folded
 * oldest first (the first holds the whole record, each later one the fields an update set), each
 * verified.
 *
 * @throws CheckpointNotFoundError when the record (or that version) is not in the store.
 */
export async function mastraObservationalMemoryVersion(store: CheckpointStore, options: MastraRowsPlace & { recordId: string; version?: number }): Promise<MastraObservationalMemoryVersion> {
  const namespace = options.namespace ?? MASTRA_NAMESPACE;
  if (options.version !== undefined && (!Number.isSafeInteger(options.version) || options.version < 1)) throw new CheckpointValidationError('version must be a positive integer');
  const index = await store.findBySourceRef(namespace, idRef(options.recordId));
  if (index === undefined) throw new CheckpointNotFoundError(`no observational memory record '${options.recordId}' in namespace '${namespace}'`);
  const { lookupKey, ref } = index.payload as unknown as IdFields;
  const n = seqOf(ref);
  const rows = await store.listBySourceRefPrefix({ namespace, prefix: `${changesPrefix(lookupKey)}${pad(n)}/`, limit: options.version ?? 1_000_000, kind: OM_KINDS.change });
  if (rows.length === 0 || (options.version !== undefined && rows.length < options.version)) throw new CheckpointNotFoundError(`observational memory record '${options.recordId}' has no version ${String(options.version ?? 1)}`);
  const values = await valuesOf(store, namespace, rows);
  let record = {} as StoredObservationalMemory;
  for (const value of values) record = { ...record, ...(value as Partial<StoredObservationalMemory>) };
  const last = rows[rows.length - 1]?.payload as unknown as { version: number; op: string };
  return { family: 'mastra', namespace, record_id: options.recordId, version: last.version, op: last.op, record };
}
