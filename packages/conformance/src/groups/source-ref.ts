import { isCheckpointConflictError, type CheckpointRow } from '@session-checkpoint/core';
import { ensureEqual, rejectsWith } from '../assert.js';
import type { ConformanceCase } from '../types.js';

/** `(namespace, source_ref)` is unique; null never collides. */
export const sourceRef: ConformanceCase[] = [
  {
    name: 'source_ref is unique per namespace; null never collides',
    async run({ store, make }) {
      await make({ sourceRef: 'legacy:1' });
      const error = await rejectsWith(make({ sourceRef: 'legacy:1' }), isCheckpointConflictError, 'a taken source_ref must fail with CheckpointConflictError');
      ensureEqual(error.message, "source_ref already exists in namespace 'app'", 'the conflict must carry the reference message');
      await make({ namespace: 'other', sourceRef: 'legacy:1' });
      await make({ sourceRef: null });
      await make({ sourceRef: null });
      ensureEqual((await store.list({ namespace: 'app' })).length, 3, 'null source_refs must never collide');
      ensureEqual((await store.findBySourceRef('other', 'legacy:1'))?.namespace, 'other', 'the same source_ref must be free in another namespace');
    },
  },
  {
    name: 'listBySourceRefPrefix reads a prefix range of one namespace in code point order',
    async run({ store, make }) {
      for (const ref of ['t/b', 't/a', 't/a/2', 't/a/1', 't/ab', 'u/a', 't/\u00e9', 't/\u{1F600}', 't/\uFFFD']) await make({ sourceRef: ref });
      await make({ namespace: 'other', sourceRef: 't/a' });
      await make({ sourceRef: null });
      const refs = async (q: { prefix: string; after?: string; before?: string; descending?: boolean; limit?: number }) =>
        (await store.listBySourceRefPrefix({ namespace: 'app', limit: 100, ...q })).map((r) => r.sourceRef);
      ensureEqual(await refs({ prefix: 't/' }), ['t/a', 't/a/1', 't/a/2', 't/ab', 't/b', 't/\u00e9', 't/\uFFFD', 't/\u{1F600}'], 'a prefix range must hold every ref of the namespace with that prefix, in code point order');
      ensureEqual(await refs({ prefix: 't/a' }), ['t/a', 't/a/1', 't/a/2', 't/ab'], 'a prefix range must include the prefix itself and every longer ref');
      ensureEqual(await refs({ prefix: 't/', descending: true, limit: 3 }), ['t/\u{1F600}', 't/\uFFFD', 't/\u00e9'], 'a descending range must start at the highest code point and honour limit');
      ensureEqual(await refs({ prefix: 't/', after: 't/a/1', before: 't/b' }), ['t/a/2', 't/ab'], 'after and before must be exclusive bounds');
      ensureEqual(await refs({ prefix: 't/', before: 't/a/2', descending: true }), ['t/a/1', 't/a'], 'before must bound a descending range');
      ensureEqual(await refs({ prefix: 'v/' }), [], 'a prefix nothing has must give an empty range');
      // U+10FFFF is the highest code point: refs continuing a prefix with it are still in its range.
      for (const ref of ['w/a', 'w/\u{10FFFF}', 'w/\u{10FFFF}\u{10FFFF}/1', '\u{10FFFF}', '\u{10FFFF}/x']) await make({ sourceRef: ref });
      ensureEqual(await refs({ prefix: 'w/' }), ['w/a', 'w/\u{10FFFF}', 'w/\u{10FFFF}\u{10FFFF}/1'], 'a prefix range must hold refs that continue the prefix with U+10FFFF');
      ensureEqual(await refs({ prefix: 'w/\u{10FFFF}', descending: true }), ['w/\u{10FFFF}\u{10FFFF}/1', 'w/\u{10FFFF}'], 'a prefix ending in U+10FFFF must hold its longer refs');
      ensureEqual(await refs({ prefix: '\u{10FFFF}' }), ['\u{10FFFF}', '\u{10FFFF}/x'], 'a prefix made of U+10FFFF alone must hold its refs');
      // kind: only rows of that kind, and limit counts only those (served by the adapter, or filtered by the store).
      for (const [i, kind] of ['k.a', 'k.b', 'k.b', 'k.a', 'k.b', 'k.a'].entries()) await make({ kind, sourceRef: `k/${i}` });
      const ofKind = async (q: { kind: string; descending?: boolean; limit: number; after?: string }) =>
        (await store.listBySourceRefPrefix({ namespace: 'app', prefix: 'k/', ...q })).map((r) => `${r.kind}@${r.sourceRef}`);
      ensureEqual(await ofKind({ kind: 'k.a', limit: 100 }), ['k.a@k/0', 'k.a@k/3', 'k.a@k/5'], 'a range with kind must hold only rows of that kind');
      ensureEqual(await ofKind({ kind: 'k.b', limit: 2 }), ['k.b@k/1', 'k.b@k/2'], 'limit must count only rows of the kind');
      ensureEqual(await ofKind({ kind: 'k.a', limit: 2, descending: true }), ['k.a@k/5', 'k.a@k/3'], 'a descending range with kind must skip other kinds');
      ensureEqual(await ofKind({ kind: 'k.b', limit: 1, after: 'k/2' }), ['k.b@k/4'], 'after must combine with kind');
      ensureEqual(await ofKind({ kind: 'k.none', limit: 5 }), [], 'a kind no row has must give an empty range');
    },
  },
  {
    name: 'sourceRefAt gives the ref a given number of rows into a prefix range',
    requires: 'sourceRefAt',
    async run({ adapter, make }) {
      const refs = Array.from({ length: 12 }, (_, i) => `p/${String(i).padStart(2, '0')}`);
      for (const [i, ref] of refs.entries()) await make({ sourceRef: ref, kind: i % 3 === 0 ? 'k.a' : 'k.b' });
      await make({ sourceRef: 'p' });
      await make({ sourceRef: 'q/00' });
      await make({ namespace: 'other', sourceRef: 'p/000' });
      const at = (q: { offset: number; prefix?: string; descending?: boolean; after?: string; before?: string; kind?: string }) => (adapter.sourceRefAt as NonNullable<typeof adapter.sourceRefAt>)({ namespace: 'app', prefix: 'p/', ...q });
      ensureEqual(await at({ offset: 0 }), 'p/00', 'offset 0 must give the first ref of the range');
      ensureEqual(await at({ offset: 7 }), 'p/07', 'an offset must count the rows of the range before it');
      ensureEqual(await at({ offset: 11 }), 'p/11', 'the last row of the range must be reachable');
      ensureEqual(await at({ offset: 12 }), undefined, 'an offset past the range must give undefined');
      ensureEqual(await at({ offset: 2, descending: true }), 'p/09', 'a descending range must count from its highest ref');
      ensureEqual(await at({ offset: 1, after: 'p/04' }), 'p/06', 'after must bound the range the offset counts in');
      ensureEqual(await at({ offset: 0, before: 'p/03', descending: true }), 'p/02', 'before must bound a descending range');
      ensureEqual(await at({ offset: 2, kind: 'k.a' }), 'p/06', 'with kind, only rows of that kind must be counted');
      ensureEqual(await at({ offset: 0, prefix: 'z/' }), undefined, 'a prefix nothing has must give undefined');
    },
  },
  {
    name: 'listBySourceRefRanges reads several prefix ranges, each from an offset, one list per range',
    requires: 'listBySourceRefRanges',
    async run({ adapter, make }) {
      const refs = Array.from({ length: 12 }, (_, i) => `p/${String(i).padStart(2, '0')}`);
      for (const [i, ref] of refs.entries()) await make({ sourceRef: ref, kind: i % 3 === 0 ? 'k.a' : 'k.b' });
      for (const ref of ['c/1', 'c/2', 'c/3', 'p']) await make({ sourceRef: ref });
      await make({ namespace: 'other', sourceRef: 'p/000' });
      type Range = { prefix: string; limit: number; offset?: number; descending?: boolean; after?: string; before?: string; kind?: string };
      const read = async (ranges: Range[]) =>
        (await (adapter.listBySourceRefRanges as NonNullable<typeof adapter.listBySourceRefRanges>).call(adapter, ranges.map((r) => ({ namespace: 'app', ...r })))).map((rows) => rows.map((row) => row.sourceRef));
      ensureEqual(await read([{ prefix: 'p/', limit: 3, offset: 4 }, { prefix: 'c/', limit: 1, descending: true }]), [['p/04', 'p/05', 'p/06'], ['c/3']], 'each range must start its offset in, one list per range in the order asked');
      ensureEqual(await read([{ prefix: 'p/', limit: 2 }]), [['p/00', 'p/01']], 'no offset must start at the first row');
      ensureEqual(await read([{ prefix: 'p/', limit: 5, offset: 10 }, { prefix: 'p/', limit: 2, offset: 12 }]), [['p/10', 'p/11'], []], 'a range must end where its rows end, and be empty past them');
      ensureEqual(await read([{ prefix: 'p/', limit: 2, offset: 2, descending: true }]), [['p/09', 'p/08']], 'a descending range must count from its highest ref');
      ensureEqual(await read([{ prefix: 'p/', limit: 2, offset: 1, after: 'p/04' }, { prefix: 'p/', limit: 5, offset: 1, before: 'p/03', descending: true }]), [['p/06', 'p/07'], ['p/01', 'p/00']], 'after and before must bound the range the offset counts in');
      ensureEqual(await read([{ prefix: 'z/', limit: 3, offset: 1 }, { prefix: 'c/', limit: 9 }]), [[], ['c/1', 'c/2', 'c/3']], 'a prefix nothing has must give an empty list beside the others');
      if (adapter.capabilities.sourceRefKind) {
        ensureEqual(await read([{ prefix: 'p/', limit: 2, offset: 1, kind: 'k.a' }]), [['p/03', 'p/06']], 'with kind, only rows of that kind must be counted and returned');
      }
      const [[row]] = (await (adapter.listBySourceRefRanges as NonNullable<typeof adapter.listBySourceRefRanges>).call(adapter, [{ namespace: 'app', prefix: 'p/', limit: 1, offset: 5 }])) as [[CheckpointRow]];
      ensureEqual(row, await adapter.findBySourceRef('app', 'p/05'), 'a row must come back whole, as findBySourceRef reads it');
    },
  },
  {
    name: 'findBySourceRefs finds the rows of several source refs of one namespace at once',
    async run({ store, make }) {
      const many = Array.from({ length: 70 }, (_, i) => `m/${String(i).padStart(2, '0')}`);
      for (const ref of ['a', 'b', 'c/1', ...many]) await make({ sourceRef: ref });
      await make({ namespace: 'other', sourceRef: 'e' });
      await make({ namespace: 'other', sourceRef: 'a' });
      const found = async (list: string[]) => {
        const rows = await store.findBySourceRefs('app', list);
        ensureEqual(rows.filter((r) => r.namespace !== 'app').length, 0, 'findBySourceRefs must only return rows of its namespace');
        return rows.map((r) => r.sourceRef ?? '').sort();
      };
      ensureEqual(await found(['c/1', 'a', 'missing', 'a']), ['a', 'c/1'], 'each ref held must give its row once; refs nothing holds are left out');
      ensureEqual(await found(['e']), [], 'a ref held in another namespace only must not be found');
      ensureEqual(await found([]), [], 'no refs must give no rows');
      ensureEqual(await found(['b', ...many]), ['b', ...many], 'many refs (more than one statement may hold) must all be found');
    },
  },
];
