import { ensureEqual } from '../assert.js';
import { ids } from '../context.js';
import type { ConformanceCase } from '../types.js';

/** Many callers at once, outside transactions. */
export const concurrency: ConformanceCase[] = [
  {
    name: 'concurrent creates all succeed with distinct ids',
    async run({ store }) {
      const made = await Promise.all(Array.from({ length: 50 }, (_, i) => store.create({ namespace: 'app', sessionId: `s-${i % 5}`, payload: { i } })));
      ensureEqual(new Set(ids(made)).size, 50, 'concurrent creates must get distinct ids');
      ensureEqual((await store.list({ namespace: 'app', limit: 100 })).length, 50, 'every concurrent create must be stored');
    },
  },
];
