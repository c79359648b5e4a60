import { compareCodePoints } from '../canonical/key-order.js';
import type { CheckpointRow } from '../types.js';
import { MAX_NAME_LENGTH } from '../validation/fields.js';
import type { PruneQuery, SourceRefPrefixQuery } from './adapter.js';

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

/** Code point order (UTF-8 byte order), the order of canonical keys and of source_ref ranges. */
export { compareCodePoints };

/**
 * Applies a sourceRef prefix query to rows of one namespace in memory: the reference semantics of
 * `listBySourceRefPrefix` for adapters without an index range.
 */
export function selectSourceRefPrefix(rows: readonly CheckpointRow[], query: SourceRefPrefixQuery): CheckpointRow[] {
  const { prefix, after, before, kind } = query;
  const hits = rows.filter(
    (row) =>
      row.namespace === query.namespace &&
      (kind === undefined || row.kind === kind) &&
      typeof row.sourceRef === 'string' &&
      row.sourceRef.startsWith(prefix) &&
      (after === undefined || compareCodePoints(row.sourceRef, after) > 0) &&
      (before === undefined || compareCodePoints(row.sourceRef, before) < 0),
  );
  const sign = query.descending === true ? -1 : 1;
  hits.sort((a, b) => sign * compareCodePoints(a.sourceRef ?? '', b.sourceRef ?? ''));
  return hits.slice(0, query.limit);
}

/**
 * The lowest string above every string that starts with `prefix`: the prefix with its last code
 * point raised by one (a trailing U+10FFFF cannot be raised, so it is dropped first and the one
 * before is raised). A prefix of U+10FFFF alone has no such string; then the bound is the prefix
 * continued by U+10FFFF up past the longest ref, which every valid ref that continues it sorts below.
 */
export function prefixUpperBound(prefix: string): string {
  // Every range read computes this: when the last code unit is no surrogate it is the whole last
  // code point (below U+10FFFF), and only it changes, without splitting the prefix into points.
  const unit = prefix.charCodeAt(prefix.length - 1);
  if (unit < 0xd800 || unit > 0xdfff) return prefix.slice(0, -1) + String.fromCodePoint(unit === 0xd7ff ? 0xe000 : unit + 1);
  const points = Array.from(prefix);
  while (points.length > 0) {
    const last = points.pop()?.codePointAt(0) ?? 0;
    if (last === 0x10ffff) continue;
    // The surrogate block holds no characters: D7FF is followed by E000.
    const next = last === 0xd7ff ? 0xe000 : last + 1;
    return points.join('') + String.fromCodePoint(next);
  }
  return prefix + '\u{10FFFF}'.repeat(Math.max(1, MAX_NAME_LENGTH + 1 - Array.from(prefix).length));
}

/**
 * The half-open range `[lo, hi)` of sourceRefs that a prefix query covers, for adapters that read
 * it from an index. Source refs hold no control characters, so `after + "\u0001"` is the lowest
 * ref above `after`; {@link prefixUpperBound} bounds every ref that continues the prefix (even one
 * that continues it with U+10FFFF, the highest code point).
 */
export function sourceRefBounds(query: Pick<SourceRefPrefixQuery, 'prefix' | 'after' | 'before'>): { lo: string; hi: string } {
  let lo = query.prefix;
  let hi = prefixUpperBound(query.prefix);
  if (query.after !== undefined && compareCodePoints(`${query.after}\u0001`, lo) > 0) lo = `${query.after}\u0001`;
  if (query.before !== undefined && compareCodePoints(query.before, hi) < 0) hi = query.before;
  return { lo, hi };
}
