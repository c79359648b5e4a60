import type { CheckpointRow } from '../types.js';
import type { PruneQuery } from './adapter.js';

/**
 * The one order of the contract: newest first, by stored created_at text descending, then id
 * descending. Normalised timestamps sort as text in time order, so no date parsing is needed.
 */
export function compareNewestFirst(a: Pick<CheckpointRow, 'createdAt' | 'id'>, b: Pick<CheckpointRow, 'createdAt' | 'id'>): number {
  if (a.createdAt !== b.createdAt) return a.createdAt < b.createdAt ? 1 : -1;
  return b.id - a.id;
}

/**
 * Applies a prune query to rows of one namespace in memory: the reference semantics for adapters
 * that have no better way (and for the in-memory adapter). Returns ids ascending.
 */
export function selectPrunable(rows: readonly CheckpointRow[], query: PruneQuery): number[] {
  if (query.keepLatest === undefined && query.olderThan === undefined) return [];
  const bySession = new Map<string, CheckpointRow[]>();
  for (const row of rows) {
    if (row.namespace !== query.namespace) continue;
    if (query.sessionId !== undefined && row.sessionId !== query.sessionId) continue;
    const list = bySession.get(row.sessionId);
    if (list) list.push(row);
    else bySession.set(row.sessionId, [row]);
  }
  const selected: number[] = [];
  for (const list of bySession.values()) {
    list.sort(compareNewestFirst);
    list.forEach((row, index) => {
      const beyondKeep = query.keepLatest === undefined || index >= query.keepLatest;
      const old = query.olderThan === undefined || row.createdAt < query.olderThan;
      if (beyondKeep && old) selected.push(row.id);
    });
  }
  return selected.sort((a, b) => a - b);
}
