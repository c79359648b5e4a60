/**
 * A session's chain as its head describes it, and the two changes writes make to it: appending a
 * row, and removing rows (retention, prune, delete, pops). Deleting rows from the chain's start
 * moves its `base`; from its end, its `last`; from inside it, leaves a bridge (the deleted row's
 * link and the link before it), so no other row is ever rewritten. Verification walks the chain
 * from `last` back to `base` over rows and bridges, and must meet every row of the session exactly
 * once. (Each row's own seal covers its id, so a row moved to another id already fails alone.)
 */
import { compareNewestFirst } from '../port/ordering.js';
import type { Bridge, SessionHeadState } from './heads.js';

/** What the chain needs of a row: its link, the link before it, its id and created_at. */
export interface ChainRow {
  id: number;
  link: string;
  prev: string | null;
  createdAt: string;
}

/**
 * The head after appending a row. `newest`: whether the row is the session's newest by list order
 * (the caller knows: created_at later than the head's top, or equal with a higher id).
 */
export function appendToHead(head: SessionHeadState | undefined, namespace: string, sessionId: string, row: { link: string; createdAt: string }, newest: boolean): SessionHeadState {
  if (head === undefined) return { namespace, sessionId, count: 1, last: row.link, base: null, top: row.link, topAt: row.createdAt, bridges: [] };
  return {
    ...head,
    count: head.count + 1,
    last: row.link,
    ...(newest ? { top: row.link, topAt: row.createdAt } : {}),
  };
}

/** Whether a row with this created_at becomes the newest when its id is higher than every other. */
export function newerThanTop(head: SessionHeadState | undefined, createdAt: string): boolean {
  return head === undefined || createdAt >= head.topAt;
}

/**
 * The head after removing chain rows (`removed`: their link and the link before them, as their
 * envelopes say). Returns the new state (`undefined` when no row is left) and whether the row
 * `latest` returns was among them (the caller then finds the new top by reading the newest
 * remaining row).
 */
export function removeFromHead(head: SessionHeadState, removed: readonly Pick<ChainRow, 'link' | 'prev'>[]): { head: SessionHeadState | undefined; topRemoved: boolean } {
  const bridges = new Map<string, string | null>(head.bridges.map(([link, prev]) => [link, prev]));
  let count = head.count;
  for (const row of removed) {
    if (bridges.has(row.link)) continue;
    bridges.set(row.link, row.prev);
    count--;
  }
  // The end: follow bridges back from the old last row to the first row still there.
  let last: string | null = head.last;
  while (last !== null && last !== head.base && bridges.has(last)) {
    const next: string | null = bridges.get(last) as string | null;
    bridges.delete(last);
    last = next;
  }
  // The start: a bridge that points back to the base is now the base.
  let base = head.base;
  const byPrev = new Map<string | null, string>();
  for (const [link, prev] of bridges) byPrev.set(prev, link);
  for (let next = byPrev.get(base); next !== undefined; next = byPrev.get(base)) {
    bridges.delete(next);
    base = next;
  }
  const topRemoved = removed.some((row) => row.link === head.top);
  if (count <= 0 || last === null || last === base) return { head: undefined, topRemoved };
  const kept: Bridge[] = [...bridges].map(([link, prev]) => [link, prev] as const);
  return { head: { ...head, count, last, base, bridges: kept }, topRemoved };
}

/**
 * Checks the rows of one session against its head: the walk from `last` to `base` over rows and
 * bridges must meet every row exactly once, in as many steps as `count` says; every bridge must be
 * used; and `top` must be the newest row by list order. Returns the problems found (empty when
 * the chain holds), each with the ids involved.
 */
export function walkChain(head: SessionHeadState, rows: readonly ChainRow[]): { reason: string; ids: number[] }[] {
  const problems: { reason: string; ids: number[] }[] = [];
  const byLink = new Map<string, ChainRow>();
  for (const row of rows) {
    const other = byLink.get(row.link);
    if (other) problems.push({ reason: `rows ${other.id} and ${row.id} carry the same link (a row was copied)`, ids: [other.id, row.id] });
    else byLink.set(row.link, row);
  }
  const bridges = new Map<string, string | null>(head.bridges.map(([link, prev]) => [link, prev]));
  const seen = new Set<string>();
  const usedBridges = new Set<string>();
  let at: string | null = head.last;
  let after: ChainRow | undefined;
  let steps = 0;
  while (at !== head.base) {
    if (at === null) {
      problems.push({ reason: 'the chain reaches its first row before the start its head names (older rows were put back, or the head is from another copy)', ids: [] });
      break;
    }
    const row = byLink.get(at);
    if (bridges.has(at)) {
      if (row !== undefined) problems.push({ reason: `row ${row.id} was deleted from this chain and is back (restored from an older copy)`, ids: [row.id] });
      if (usedBridges.has(at)) {
        problems.push({ reason: 'the chain loops', ids: [] });
        break;
      }
      usedBridges.add(at);
      at = bridges.get(at) as string | null;
    } else if (row !== undefined) {
      if (seen.has(at)) {
        problems.push({ reason: 'the chain loops', ids: [row.id] });
        break;
      }
      seen.add(at);
      steps++;
      after = row;
      at = row.prev;
    } else {
      const where = after === undefined ? 'its newest row' : `the row before row ${after.id}`;
      problems.push({ reason: `a row of the chain is missing (${where}): rows were deleted outside the store`, ids: after === undefined ? [] : [after.id] });
      break;
    }
  }
  const broken = problems.length > 0;
  if (!broken && steps !== head.count) problems.push({ reason: `the head counts ${head.count} rows, the chain has ${steps}`, ids: [] });
  // Past a break the walk cannot tell extra rows from the ones cut off: the break is the finding.
  const extra = broken ? [] : rows.filter((row) => !seen.has(row.link) && byLink.get(row.link) === row && !bridges.has(row.link));
  if (extra.length > 0) {
    const list = extra.map((r) => r.id).join(', ');
    problems.push({ reason: `${extra.length === 1 ? `row ${list} is` : `rows ${list} are`} not in the chain (copied, or restored from another copy)`, ids: extra.map((r) => r.id) });
  }
  if (!broken && usedBridges.size !== bridges.size) problems.push({ reason: 'the head names holes the chain does not have', ids: [] });
  let newest: ChainRow | undefined;
  for (const row of rows) if (newest === undefined || compareNewestFirst(row, newest) < 0) newest = row;
  if (newest !== undefined && (newest.link !== head.top || newest.createdAt !== head.topAt)) {
    problems.push({ reason: `row ${newest.id} is the newest, but the head names another (newer rows were deleted, or rows reordered)`, ids: [newest.id] });
  }
  return problems;
}
