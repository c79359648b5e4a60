import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { CheckpointMemoryStorage } from './index.js';
import { backends, RUNTIME_OK } from './test-support/backends.js';

/*
 * A generated differential test of the page with its total (decision 0051): where the adapter
 * reads several ranges at once (SQLite, PostgreSQL), a page with a total parses only its own
 * messages, reads one more to tell whether there are more, and takes its total from the
 * thread's newest change row. Random threads (messages saved in random batches, some saved again), random pages, sizes
 * and orders, with and without the total; every answer compared with the memory adapter's (no
 * such member: the plain path, which reads one more message) and with the model (the thread's
 * messages in time order; more when the page ends before the total). Counting the page's last
 * message as "more" fails it at once (checked).
 */

const caseArb = fc.record({
  batches: fc.array(fc.array(fc.integer({ min: 0, max: 29 }), { minLength: 1, maxLength: 8 }), { minLength: 0, maxLength: 10 }),
  reads: fc.array(fc.record({ perPage: fc.integer({ min: 1, max: 6 }), page: fc.integer({ min: 0, max: 5 }), dir: fc.constantFrom('ASC' as const, 'DESC' as const), total: fc.boolean() }), { minLength: 1, maxLength: 8 }),
});

const all = backends();
const plain = all.find((b) => b.name === 'memory');
const members = all.filter((b) => b.name !== 'memory');
afterAll(async () => {
  for (const b of all) await b.cleanup();
});

describe.each(members)('a page with its total on $name', (backend) => {
  it.skipIf(!RUNTIME_OK || !backend.available)('answers as the plain path and the model, for random threads and pages', async () => {
    let deepPages = 0;
    let lastPages = 0;
    await fc.assert(
      fc.asyncProperty(caseArb, async ({ batches, reads }) => {
        const store = await backend.open(backend.target());
        const reference = await (plain as NonNullable<typeof plain>).open(undefined);
        try {
          const domains = [new CheckpointMemoryStorage(store), new CheckpointMemoryStorage(reference)];
          expect(typeof store.adapter.listBySourceRefRanges).toBe('function');
          expect(reference.adapter.listBySourceRefRanges).toBeUndefined();
          const now = new Date(Date.UTC(2026, 0, 1));
          const ids = new Set<number>();
          for (const d of domains) await d.saveThread({ thread: { id: 't', resourceId: 'r', title: 't', createdAt: now, updatedAt: now } });
          for (const batch of batches) {
            const messages = [...new Set(batch)].map((i) => ({ id: `m${String(i).padStart(2, '0')}`, threadId: 't', resourceId: 'r', role: 'user' as const, type: 'v2', createdAt: new Date(now.getTime() + i * 1000), content: { format: 2 as const, parts: [{ type: 'text' as const, text: `text ${i}` }] } }));
            for (const d of domains) await d.saveMessages({ messages });
            for (const i of batch) ids.add(i);
          }
          const model = [...ids].sort((a, b) => a - b).map((i) => `m${String(i).padStart(2, '0')}`);
          // Beside the random reads, the page that ends the thread (where "more" turns) at a few sizes.
          const last = [1, 2, 3].map((perPage) => ({ perPage, page: Math.max(0, Math.ceil(model.length / perPage) - 1), dir: 'ASC' as const, total: true }));
          for (const { perPage, page, dir, total } of [...reads, ...last]) {
            const args = { threadId: 't', perPage, page, orderBy: { field: 'createdAt' as const, direction: dir }, includeTotal: total };
            const answer = async (d: CheckpointMemoryStorage) => {
              const r = await d.listMessages(args);
              return { ids: r.messages.map((m) => m.id), total: r.total, hasMore: r.hasMore };
            };
            const [ours, theirs] = await Promise.all([answer(domains[0] as CheckpointMemoryStorage), answer(domains[1] as CheckpointMemoryStorage)]);
            expect(ours, JSON.stringify(args)).toEqual(theirs);
            if (total) {
              const ordered = dir === 'ASC' ? model : [...model].reverse();
              const offset = page * perPage;
              expect(ours, JSON.stringify(args)).toEqual({ ids: ordered.slice(offset, offset + perPage), total: model.length, hasMore: offset + perPage < model.length });
              if (offset > 0 && ours.ids.length > 0) deepPages++;
              if (ours.ids.length > 0 && offset + ours.ids.length === model.length) lastPages++;
            }
          }
        } finally {
          await store.close();
          await reference.close();
        }
      }),
      { numRuns: Number(process.env.SC_SOAK === '1' ? (process.env.SC_SOAK_RUNS ?? 200) : 20), seed: Number(process.env.SC_ORACLE_SEED ?? 51) },
    );
    // The cases read pages deep in a thread and pages that end the thread, where "more" turns.
    expect(deepPages).toBeGreaterThan(10);
    expect(lastPages).toBeGreaterThan(5);
  });
});

/*
 * The ranges of a page are not one snapshot where the adapter reads them in turn (SQLite, decision
 * 0051): a message deleted by another writer between the page's read and the change row's must
 * not leave "no more" with a message that was there all along unreturned (found in review; the
 * count from the later change row was below what the page saw). The delete is forced between the
 * two reads by a hook on the adapter's own range read (real stores on one file, two connections).
 * On PostgreSQL the page is one statement, which the hook does not reach (no delete happens).
 */
describe.each(members)('a page with its total when a message is deleted between its reads, on $name', (backend) => {
  it.skipIf(!RUNTIME_OK || !backend.available)('still tells that more messages follow, and never counts fewer than it saw', async () => {
    const target = backend.target();
    const store = await backend.open(target);
    const otherStore = await backend.open(target);
    try {
      const mine = new CheckpointMemoryStorage(store);
      const other = new CheckpointMemoryStorage(otherStore);
      const now = new Date(Date.UTC(2026, 0, 1));
      await mine.saveThread({ thread: { id: 't', resourceId: 'r', title: 't', createdAt: now, updatedAt: now } });
      const messages = [1, 2, 3].map((i) => ({ id: `m0${i}`, threadId: 't', resourceId: 'r', role: 'user' as const, type: 'v2', createdAt: new Date(now.getTime() + i * 1000), content: { format: 2 as const, parts: [{ type: 'text' as const, text: `text ${i}` }] } }));
      await mine.saveMessages({ messages });
      const adapter = store.adapter as unknown as { listBySourceRefPrefix: (q: { prefix: string }) => Promise<unknown[]> };
      const original = adapter.listBySourceRefPrefix.bind(adapter);
      let armed = true;
      adapter.listBySourceRefPrefix = async (q) => {
        const rows = await original(q);
        if (armed && q.prefix.startsWith('m/')) {
          armed = false;
          await other.deleteMessages(['m01']);
        }
        return rows;
      };
      const first = await mine.listMessages({ threadId: 't', perPage: 2, page: 0 });
      const ids = first.messages.map((m) => m.id);
      // Either the delete fell between the reads (m01 and m02 seen) or before the page (m02, m03):
      // what was seen is counted, and m03, not returned, is announced by hasMore.
      if (ids.includes('m03')) expect(first).toMatchObject({ total: 2, hasMore: false });
      else expect({ ids, total: first.total, hasMore: first.hasMore }).toEqual({ ids: ['m01', 'm02'], total: 3, hasMore: true });
      // On SQLite the hook must have fallen between the reads, or the case showed nothing. (A reader
      // paging by offset then finds the next page shifted by the delete, as with any offset paging.)
      if (backend.name === 'sqlite') expect(armed).toBe(false);
    } finally {
      await store.close();
      await otherStore.close();
    }
  });
});
