import { describe, expect, it } from 'vitest';
import { appendToHead, removeFromHead, walkChain, type ChainRow } from './chain.js';
import type { SessionHeadState } from './heads.js';

/** A chain of n rows: links L1..Ln, ids 1..n, one second apart. */
function chain(n: number): { head: SessionHeadState; rows: ChainRow[] } {
  let head: SessionHeadState | undefined;
  const rows: ChainRow[] = [];
  for (let i = 1; i <= n; i++) {
    const link = `L${i}`.padEnd(16, '_');
    const createdAt = `2026-01-01T00:00:${String(i).padStart(2, '0')}Z`;
    rows.push({ id: i, link, prev: i === 1 ? null : (rows[i - 2] as ChainRow).link, createdAt });
    head = appendToHead(head, 'app', 's', { link, createdAt }, true);
  }
  return { head: head as SessionHeadState, rows };
}

const without = (rows: ChainRow[], ...ids: number[]) => rows.filter((r) => !ids.includes(r.id));
const removed = (rows: ChainRow[], ...ids: number[]) => rows.filter((r) => ids.includes(r.id));

describe('a session chain', () => {
  it('holds as written', () => {
    const { head, rows } = chain(5);
    expect(head).toMatchObject({ count: 5, last: rows[4]?.link, base: null, top: rows[4]?.link, bridges: [] });
    expect(walkChain(head, rows)).toEqual([]);
  });

  it('keeps holding after deletions at its start, its end and inside it, and after all of them together', () => {
    for (const ids of [[1], [1, 2], [5], [4, 5], [3], [2, 4], [1, 3, 5], [2, 3, 4], [1, 2, 3, 4]]) {
      const { head, rows } = chain(5);
      const result = removeFromHead(head, removed(rows, ...ids));
      const left = without(rows, ...ids);
      const next = result.head as SessionHeadState;
      expect(next.count, `deleting ${ids}`).toBe(left.length);
      const top = [...left].sort((a, b) => (a.createdAt < b.createdAt ? 1 : -1))[0] as ChainRow;
      const settled = result.topRemoved ? { ...next, top: top.link, topAt: top.createdAt } : next;
      expect(walkChain(settled, left), `deleting ${ids}`).toEqual([]);
      // Only holes strictly inside the chain stay as bridges.
      expect(next.bridges.length, `deleting ${ids}`).toBe(ids.filter((id) => id > Math.min(...left.map((r) => r.id)) && id < Math.max(...left.map((r) => r.id))).length);
    }
  });

  it('deleting every row leaves no head', () => {
    const { head, rows } = chain(3);
    expect(removeFromHead(head, rows).head).toBeUndefined();
  });

  it('finds rows deleted, put back, copied, swapped or reordered behind its head', () => {
    const { head, rows } = chain(5);
    const reasons = (found: { reason: string }[]) => found.map((p) => p.reason).join(' | ');
    expect(reasons(walkChain(head, without(rows, 5)))).toMatch(/missing \(its newest row\)/);
    expect(reasons(walkChain(head, without(rows, 3)))).toMatch(/missing \(the row before row 4\)/);
    expect(reasons(walkChain(head, [...rows, { ...(rows[1] as ChainRow), id: 9 }]))).toMatch(/rows 2 and 9 carry the same link/);
    // Two rows' places swapped (each row's link pointing where the other's did): the walk breaks.
    const swapped = rows.map((r) => (r.id === 2 ? { ...(rows[2] as ChainRow), id: 2 } : r.id === 3 ? { ...(rows[1] as ChainRow), id: 3 } : r));
    expect(walkChain(head, swapped)).toEqual([]);
    const reordered = rows.map((r) => (r.id === 3 ? { ...r, prev: (rows[0] as ChainRow).link } : r));
    expect(reasons(walkChain(head, reordered))).toMatch(/row 2 is not in the chain/);
    // Row 1 pruned legitimately, then put back from a backup.
    const pruned = removeFromHead(head, removed(rows, 1)).head as SessionHeadState;
    expect(reasons(walkChain(pruned, rows))).toMatch(/row 1 is not in the chain/);
    // Row 3 deleted legitimately from inside, then put back.
    const holed = removeFromHead(head, removed(rows, 3)).head as SessionHeadState;
    expect(walkChain(holed, without(rows, 3))).toEqual([]);
    expect(reasons(walkChain(holed, rows))).toMatch(/row 3 was deleted from this chain and is back/);
    // The newest row's created_at moved back: it is no longer the newest by list order.
    const moved = rows.map((r) => (r.id === 5 ? { ...r, createdAt: '2026-01-01T00:00:00Z' } : r));
    expect(reasons(walkChain(head, moved))).toMatch(/row 4 is the newest, but the head names another/);
  });
});
