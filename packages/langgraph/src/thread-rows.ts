import type { Checkpoint as StoredRow, CheckpointStore, SourceRefPrefixQuery } from '@session-checkpoint/core';

/** Rows read per range query. */
export const PAGE_SIZE = 500;

/**
 * Every verified row of a prefix range, ascending by source ref, read page by page.
 *
 * @example
 * ```ts
 * for await (const row of rowsByPrefix(store, { namespace: 'langgraph', prefix: 'w/t-1/' })) ...
 * ```
 */
export async function* rowsByPrefix(
  store: CheckpointStore,
  query: Omit<SourceRefPrefixQuery, 'limit' | 'descending'>,
): AsyncGenerator<StoredRow> {
  let after = query.after;
  for (;;) {
    const page = await store.listBySourceRefPrefix({ ...query, ...(after === undefined ? {} : { after }), limit: PAGE_SIZE });
    yield* page;
    if (page.length < PAGE_SIZE) return;
    after = page[page.length - 1]?.sourceRef ?? undefined;
    if (after === undefined) return;
  }
}

/** {@link rowsByPrefix} collected into an array. */
export async function allRowsByPrefix(store: CheckpointStore, query: Omit<SourceRefPrefixQuery, 'limit' | 'descending'>): Promise<StoredRow[]> {
  const out: StoredRow[] = [];
  for await (const row of rowsByPrefix(store, query)) out.push(row);
  return out;
}
