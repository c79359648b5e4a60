import { CheckpointStore, MemoryAdapter, type Checkpoint as StoredRow } from '@session-checkpoint/core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SessionCheckpointSaver } from '../saver.js';
import { cfg, checkpointWith, meta } from '../test-support/checkpoints.js';
import { CHECKPOINT_KIND, checkpointPayload, keepChecks, PART_KIND, partPayload, WRITE_KIND, writePayload } from './payloads.js';

/*
 * The checks of a kept payload are remembered per (kind, source ref, session) (payloads.ts). Real
 * rows of two threads (checkpoints, pending writes, part rows) are shown to the checks under
 * generated kinds, refs and sessions (rows copied under another ref or session, or relabelled),
 * in generated order: once with the payload a memo keeps (one object per row, marked by
 * keepChecks, so earlier passes are remembered), once parsed afresh from the text (the plain
 * path). Every answer, the payload or the error's message, must be the same.
 */

const checks = { checkpoint: checkpointPayload, write: writePayload, part: partPayload } as const;

function answer(check: (row: StoredRow) => unknown, row: StoredRow): unknown {
  try {
    return { ok: JSON.stringify(check(row)) };
  } catch (e) {
    return { error: (e as Error).message };
  }
}

async function storedRows(): Promise<StoredRow[]> {
  const store = new CheckpointStore(new MemoryAdapter(), { limits: { maxPayloadBytes: 16384 } });
  // Small thresholds: values go to part rows too.
  const saver = new SessionCheckpointSaver(store, { inlineCarriedBytes: 0 });
  for (const thread of ['ta', 'tb']) {
    let parent: string | undefined;
    for (let i = 0; i < 3; i++) {
      const cp = checkpointWith({ messages: Array.from({ length: i + 1 }, (_, k) => ({ k, text: 'x'.repeat(50) })), big: 'y'.repeat(i === 2 ? 40_000 : 10) }, i + 1);
      await saver.put(cfg(thread, parent), cp, meta(i), { messages: i + 1, big: i + 1 });
      await saver.putWrites(cfg(thread, cp.id), [['messages', [{ k: i }]]], `task-${i}`);
      parent = cp.id;
    }
  }
  const rows: StoredRow[] = [];
  for (const prefix of ['lg/', 'lgp/']) rows.push(...(await store.listBySourceRefPrefix({ namespace: saver.namespace, prefix, limit: 1000 })));
  return rows;
}

describe('remembered payload checks', () => {
  it('generated relabellings of real rows: the same answers as checks of a payload parsed afresh', async () => {
    const rows = await storedRows();
    const kinds = [...new Set(rows.map((r) => r.kind))];
    expect(kinds).toEqual(expect.arrayContaining([CHECKPOINT_KIND, WRITE_KIND, PART_KIND]));
    const refs = rows.map((r) => r.sourceRef);
    const sessions = [...new Set(rows.map((r) => r.sessionId))];
    let rejected = 0;
    let remembered = 0;
    await fc.assert(
      fc.property(
        fc.array(
          fc.record({
            row: fc.nat(rows.length - 1),
            kind: fc.option(fc.nat(kinds.length - 1), { nil: undefined, freq: 3 }),
            ref: fc.option(fc.nat(refs.length - 1), { nil: undefined, freq: 2 }),
            session: fc.option(fc.nat(sessions.length - 1), { nil: undefined, freq: 3 }),
            check: fc.constantFrom('checkpoint', 'write', 'part') as fc.Arbitrary<keyof typeof checks>,
          }),
          { minLength: 1, maxLength: 60 },
        ),
        (ops) => {
          // One kept payload per row for the whole sequence, as the memo serves it.
          const kept = rows.map((r) => {
            const payload = JSON.parse(r.payloadJson) as StoredRow['payload'];
            keepChecks(payload);
            return payload;
          });
          for (const op of ops) {
            const r = rows[op.row] as StoredRow;
            const fields = {
              id: r.id,
              namespace: r.namespace,
              sessionId: op.session === undefined ? r.sessionId : (sessions[op.session] as string),
              kind: op.kind === undefined ? r.kind : (kinds[op.kind] as string),
              name: r.name,
              payloadJson: r.payloadJson,
              payloadSha256: r.payloadSha256,
              createdAt: r.createdAt,
              sourceRef: op.ref === undefined ? r.sourceRef : (refs[op.ref] as string | null),
            };
            const plain = answer(checks[op.check], { ...fields, payload: JSON.parse(r.payloadJson) } as StoredRow);
            const ours = answer(checks[op.check], { ...fields, payload: kept[op.row] } as StoredRow);
            expect(ours).toEqual(plain);
            if ('error' in (plain as object)) rejected++;
            else remembered++;
          }
        },
      ),
      { numRuns: 300, seed: 60 },
    );
    expect(rejected).toBeGreaterThan(0);
    expect(remembered).toBeGreaterThan(0);
  });
});
