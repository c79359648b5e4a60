import { CheckpointStore } from '@session-checkpoint/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openSqliteStore } from './index.js';
import { tempDir } from './test-support/temp-dir.js';

// SQLite range reads write their LIMIT into the SQL text for the first few limit values (a bound
// LIMIT reads slower there) and bind it for the rest: both must answer alike.

describe('sourceRef ranges with literal and bound limits (SQLite)', () => {
  let dir: ReturnType<typeof tempDir>;
  let store: CheckpointStore;
  beforeEach(async () => {
    dir = tempDir('sc-range-');
    store = await openSqliteStore(dir.file('r.sqlite'));
    for (let i = 0; i < 40; i++) await store.create({ namespace: 'app', sessionId: 's', payload: { i }, sourceRef: `r/${String(i).padStart(2, '0')}` });
  });
  afterEach(async () => {
    await store.close();
    dir.remove();
  });

  it('returns the same rows for every limit, ascending and descending, past the literal templates', async () => {
    for (let limit = 1; limit <= 45; limit++) {
      for (const descending of [false, true]) {
        const rows = await store.listBySourceRefPrefix({ namespace: 'app', prefix: 'r/', limit, descending, before: 'r/39' });
        const expected = Array.from({ length: 39 }, (_, i) => `r/${String(i).padStart(2, '0')}`);
        if (descending) expected.reverse();
        expect(rows.map((r) => r.sourceRef)).toEqual(expected.slice(0, limit));
      }
    }
  });
});
