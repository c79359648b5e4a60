import type { Checkpoint as StoredRow, CheckpointStore } from '@session-checkpoint/core';
import { itemPrefix, seqOfRef } from './source-refs.js';

/** Rows read per range query when a read has no small limit. */
export const PAGE_SIZE = 500;

/** Where a session's item rows live. */
export interface SessionPlace {
  namespace: string;
  sessionId: string;
}

/**
 * The newest `limit` item rows of a session, newest first: one descending range read per
 * {@link PAGE_SIZE} rows, so the cost follows `limit`, not the history's length.
 */
export async function newestItemRows(store: CheckpointStore, place: SessionPlace, limit: number): Promise<StoredRow[]> {
  const prefix = itemPrefix(place.sessionId);
  const out: StoredRow[] = [];
  let before: string | undefined;
  while (out.length < limit) {
    const want = Math.min(PAGE_SIZE, limit - out.length);
    const page = await store.listBySourceRefPrefix({ namespace: place.namespace, prefix, descending: true, limit: want, ...(before === undefined ? {} : { before }) });
    out.push(...page);
    if (page.length < want) break;
    before = page[page.length - 1]?.sourceRef ?? undefined;
  }
  return out;
}

/**
 * Item rows of a session in order, oldest first, page by page; from the seq after `afterRef` and
 * below `beforeRef` when given; `pageSize` rows per read (default {@link PAGE_SIZE}).
 */
export async function* itemRowsAscending(
  store: CheckpointStore,
  place: SessionPlace,
  range: { afterRef?: string; beforeRef?: string; pageSize?: number } = {},
): AsyncGenerator<StoredRow> {
  const pageSize = range.pageSize ?? PAGE_SIZE;
  const prefix = itemPrefix(place.sessionId);
  let after = range.afterRef;
  for (;;) {
    const page = await store.listBySourceRefPrefix({
      namespace: place.namespace,
      prefix,
      limit: pageSize,
      ...(after === undefined ? {} : { after }),
      ...(range.beforeRef === undefined ? {} : { before: range.beforeRef }),
    });
    yield* page;
    if (page.length < pageSize) return;
    after = page[page.length - 1]?.sourceRef ?? undefined;
    if (after === undefined) return;
  }
}

/** The seq of the newest item of a session, or 0 when it has none. */
export async function newestSeq(store: CheckpointStore, place: SessionPlace): Promise<number> {
  const [row] = await newestItemRows(store, place, 1);
  return row ? seqOfRef(row.sourceRef) : 0;
}
