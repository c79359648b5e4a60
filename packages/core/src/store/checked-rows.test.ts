import { describe, expect, it } from 'vitest';
import { CheckpointStore, MemoryAdapter } from '../index.js';
import { checkRows } from './checked-rows.js';

describe('checkRows', () => {
  it('verifies each row on its own: good rows come back as records, a bad one as its raw row and an integrity error', async () => {
    const store = new CheckpointStore(new MemoryAdapter());
    for (let step = 1; step <= 3; step++) await store.create({ sessionId: 's', payload: { step } });
    const raw = await store.adapter.listRows({ namespace: 'default', sessionId: 's', limit: 10, offset: 0 });
    const tampered = raw.map((row, i) => (i === 1 ? { ...row, payloadJson: row.payloadJson.replace('"step":2', '"step":9') } : row));
    const checked = checkRows(tampered);
    expect(checked.map((c) => c.ok)).toEqual([true, false, true]);
    const [good, bad] = checked;
    if (!good?.ok || bad?.ok !== false) throw new Error('unexpected');
    expect(good.row.payload).toEqual({ step: 3 });
    expect(bad.raw.id).toBe(raw[1]?.id);
    expect(bad.error.code).toBe('INTEGRITY');
    expect(bad.error.message).toContain(String(raw[1]?.id));
  });
});
