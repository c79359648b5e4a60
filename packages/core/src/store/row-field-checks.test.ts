import { describe, expect, it } from 'vitest';
import { sha256Hex } from '../sha256.js';
import type { CheckpointRow } from '../types.js';
import { verifyRows } from './verify-row.js';

const limits = { maxPayloadBytes: 1 << 20, maxDepth: 100 };
const good = (id: number, fields: Partial<Record<keyof CheckpointRow, unknown>> = {}): CheckpointRow =>
  ({
    id,
    namespace: 'app',
    sessionId: 's',
    kind: 'manual',
    name: 'n',
    payloadJson: '{}',
    payloadSha256: sha256Hex('{}'),
    createdAt: '2026-08-08T07:30:00Z',
    sourceRef: `r${id}`,
    ...fields,
  }) as CheckpointRow;

function reasons(rows: CheckpointRow[]): string[] {
  try {
    verifyRows(rows, limits);
  } catch (error) {
    return (error as { failures: { id: number; reason: string }[] }).failures.map((f) => `${f.id}: ${f.reason}`);
  }
  return [];
}

describe('verifyRows field checks within a batch', () => {
  it('refuses a bad field after good rows that shared the other values', () => {
    expect(
      reasons([
        good(1),
        good(2, { namespace: 'a b' }),
        good(3),
        good(4, { kind: '' }),
        good(5, { sessionId: 's\u0001' }),
        good(6, { name: 'x'.repeat(600) }),
        good(7, { sourceRef: 'r\ud800' }),
        good(8, { createdAt: '2026-08-08T07:30:00.000Z' }),
        good(9, { createdAt: '2026-02-30T07:30:00Z' }),
        good(10),
      ]),
    ).toEqual([
      '2: namespace is invalid',
      '4: kind is invalid',
      '5: session_id is invalid',
      '6: name is invalid',
      '7: source_ref is invalid',
      '8: created_at is not a normalised UTC timestamp',
      '9: created_at is not a normalised UTC timestamp',
    ]);
  });

  it('refuses the same bad value on every row that holds it, and a non-string equal in print', () => {
    expect(reasons([good(1, { kind: 'a b' }), good(2, { kind: 'a b' }), good(3, { createdAt: 5 }), good(4, { namespace: new String('app') })])).toEqual([
      '1: kind is invalid',
      '2: kind is invalid',
      '3: created_at is not a normalised UTC timestamp',
      '4: namespace is invalid',
    ]);
  });

  it('accepts a batch of rows that share or vary their fields', () => {
    const rows = [good(1), good(2), good(3, { namespace: 'b', kind: 'k', sessionId: 't', createdAt: '2026-08-08T07:30:01Z' }), good(4)];
    expect(verifyRows(rows, limits).map((c) => c.id)).toEqual([1, 2, 3, 4]);
  });
});
