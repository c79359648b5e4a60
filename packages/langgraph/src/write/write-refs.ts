import { TwoGenerationCache } from '@session-checkpoint/core/toolkit';
import { sameJson } from '../format/json.js';
import { writeItems, type PieceSegment, type StoredWrite } from '../format/payloads.js';

/*
 * A list piece that names pending writes instead of repeating their items (row format 4,
 * docs/decisions/0036). LangGraph stores each node's output twice: as a pending write on the
 * checkpoint the step started from, then as part of the channel value of the next checkpoint. When
 * the items a put appends are, by content, the values of regular writes stored under the checkpoint
 * the piece extends, the piece holds a reference to each such write (task, idx, and the SHA-256 of
 * its row) and the message is stored once. Everything here is a hint checked twice: the items are
 * compared with the writes' JSON now, and the rows named must still hold that SHA-256 when the
 * checkpoint row goes in (write/rows.ts), else the piece holds its items itself.
 */

/** A pending-writes row as this saver last wrote it: its payload SHA-256, its writes, its size. */
export interface TaskRow {
  sha: string;
  writes: readonly StoredWrite[];
  /** UTF-8 bytes of its payload. */
  bytes: number;
}

/**
 * The task rows this saver wrote per checkpoint key (thread, namespace, id), the last few hundred
 * checkpoints: what the next put may refer to. A row rewritten by another process since is caught
 * by the SHA-256 check of the insert, never read from here.
 */
export class TaskRows extends TwoGenerationCache<string, Map<string, TaskRow>> {
  /** Records the row of `taskId` on checkpoint `key`. */
  record(key: string, taskId: string, row: TaskRow): void {
    let rows = this.get(key);
    if (rows === undefined) this.set(key, (rows = new Map()));
    rows.set(taskId, row);
  }
}

/**
 * The appended items as segments naming the regular writes on `channel` in `rows` whose items
 * equal them by content, in order; `undefined` when no write matches (the piece holds its items).
 * A row larger than `maxRowBytes` is never named: a later putWrites keeps a copy of a row it
 * replaces in one part row (write/rows.ts), which must fit.
 */
export function segmentsOf(appended: readonly unknown[], channel: string, rows: ReadonlyMap<string, TaskRow> | undefined, maxRowBytes: number): PieceSegment[] | undefined {
  if (rows === undefined || appended.length === 0) return undefined;
  const candidates: { r: string; i: number; sha: string; items: unknown[] }[] = [];
  for (const [task, row] of rows) {
    if (row.bytes > maxRowBytes) continue;
    for (const w of row.writes) {
      // Inline JSON values of regular writes only: special writes (negative idx) are replaced by later calls.
      if (w.idx < 0 || w.channel !== channel || w.value.t !== 'json' || w.value.j === undefined || w.value.parts !== undefined) continue;
      const items = writeItems(w.value);
      if (items.length > 0) candidates.push({ r: task, i: w.idx, sha: row.sha, items });
    }
  }
  if (candidates.length === 0) return undefined;
  const out: PieceSegment[] = [];
  let held: unknown[] = [];
  let named = 0;
  for (let at = 0; at < appended.length; ) {
    const hit = candidates.findIndex((c) => c.items.length <= appended.length - at && c.items.every((item, k) => sameJson(appended[at + k], item)));
    if (hit < 0) {
      held.push(appended[at++]);
      continue;
    }
    const [c] = candidates.splice(hit, 1) as [(typeof candidates)[number]];
    if (held.length > 0) out.push({ j: held });
    held = [];
    out.push({ r: c.r, i: c.i, sha: c.sha });
    at += c.items.length;
    named++;
  }
  if (named === 0) return undefined;
  if (held.length > 0) out.push({ j: held });
  return out;
}
