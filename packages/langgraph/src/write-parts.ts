import { CheckpointValidationError, type CheckpointStore, type CreateCheckpointInput, type PreparedCheckpoint } from '@session-checkpoint/core';
import type { StoredWrite } from './row-payloads.js';
import { cutValue, splitValue, tryPrepare, type PartTarget, type ValueCut } from './split-value.js';

/**
 * Prepares a pending-writes row, first moving its largest values into part rows while it is
 * over the payload limit (`writes` is changed in place).
 *
 * @throws CheckpointValidationError naming the row, its size and `maxPayloadBytes`.
 */
export function fitRow(
  tx: CheckpointStore,
  input: CreateCheckpointInput,
  writes: StoredWrite[],
  refOf: (k: number) => string,
  target: PartTarget,
): { prepared: PreparedCheckpoint; parts: PreparedCheckpoint[] } {
  const first = tryPrepare(tx, input);
  if (first !== undefined) return { prepared: first, parts: [] };
  // Part numbers unique across merges of one task's row: an earlier call's parts stay in use.
  let k = Math.floor(Math.random() * 2 ** 40) * 1024;
  const parts: PreparedCheckpoint[] = [];
  const order: { i: number; cut: ValueCut }[] = [];
  writes.forEach((w, i) => {
    if (w.value.parts === undefined) order.push({ i, cut: cutValue(w.value) });
  });
  order.sort((a, b) => b.cut.bytes - a.cut.bytes);
  for (const c of order) {
    const w = writes[c.i] as StoredWrite;
    const { value, parts: more } = splitValue(tx, target, w.channel, c.cut, refOf, k);
    k += more.length;
    parts.push(...more);
    writes[c.i] = { ...w, value };
    const prepared = tryPrepare(tx, input);
    if (prepared !== undefined) return { prepared, parts };
  }
  throw new CheckpointValidationError(
    `LangGraph ${target.what} do not fit in one row of the store's maxPayloadBytes (${tx.limits.maxPayloadBytes}) even with every value in part rows; ` +
      'raise the limit, e.g. openSqliteStore(path, { limits: { maxPayloadBytes } })',
  );
}
