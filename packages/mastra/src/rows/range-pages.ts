import type { SourceRefPrefixQuery } from '@session-checkpoint/core';

/** Rows asked for per range read when a caller goes through a whole prefix range. */
export const RANGE_PAGE = 1000;

/** A prefix range to go through: the query without its page bounds. */
export type WholeRange = Omit<SourceRefPrefixQuery, 'limit' | 'after' | 'before'>;

/**
 * The rows of a prefix range, a page at a time: `read` is asked for `page` rows, then for the rows
 * past the last ref it gave (after it, or before it when descending), until a page comes back
 * short, so a range of any length is read whole (and one with more rows than any one read can
 * hold). `read` is the store's verified range read or the raw one (`rawRange`). `limit` stops
 * after that many rows. `page` is the page size (internal: the callers' own constants).
 */
export async function* rangePages<R extends { sourceRef: string | null }>(read: (query: SourceRefPrefixQuery) => Promise<R[]>, range: WholeRange, options: { limit?: number; page?: number } = {}): AsyncGenerator<R[]> {
  const size = options.page ?? RANGE_PAGE;
  let left = options.limit ?? Number.MAX_SAFE_INTEGER;
  for (let from: string | undefined; left > 0; ) {
    const limit = Math.min(size, left);
    const bound = from === undefined ? {} : range.descending === true ? { before: from } : { after: from };
    const page = await read({ ...range, limit, ...bound });
    if (page.length > 0) yield page;
    left -= page.length;
    const last = page[page.length - 1]?.sourceRef;
    if (page.length < limit || last === null || last === undefined) return;
    from = last;
  }
}

/** Every row of a prefix range ({@link rangePages}), in one array. */
export async function wholeRange<R extends { sourceRef: string | null }>(read: (query: SourceRefPrefixQuery) => Promise<R[]>, range: WholeRange, options: { limit?: number; page?: number } = {}): Promise<R[]> {
  const out: R[] = [];
  for await (const page of rangePages(read, range, options)) out.push(...page);
  return out;
}
