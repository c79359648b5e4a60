import { canonicalize, sha256Hex, type Checkpoint as StoredRow } from '@session-checkpoint/core';
import { isWriteSegment, keptRowPart, partPayload, writeItems, writePayload, type CheckpointPayload, type ListPiece, type WritePayload } from '../format/payloads.js';
import { writePartRef, writeRef } from '../format/refs.js';

/*
 * Reading a list piece that names pending writes (row format 4, docs/decisions/0036): each named
 * write is read from its pending-writes row, verified like every row, and that row must be the one
 * the piece names by SHA-256. A row a later putWrites replaced is read from the copy the merge kept
 * (write/rows.ts), whose content must hash to the named SHA-256. Anything else fails closed.
 */

/**
 * The refs of the pending-writes rows the pieces of `p` name. With `loaded` (the rows read so far,
 * by ref), the refs of the kept copies of those among them whose SHA-256 is not the one named.
 */
export function namedWriteRefs(p: CheckpointPayload, loaded?: ReadonlyMap<string, StoredRow>): string[] {
  const refs: string[] = [];
  for (const piece of Object.values(p.lists ?? {})) {
    for (const segment of piece.w ?? []) {
      if (!isWriteSegment(segment)) continue;
      const ref = writeRef(p.thread_id, p.checkpoint_ns, piece.from, segment.r);
      if (loaded === undefined) refs.push(ref);
      else if (loaded.get(ref)?.payloadSha256 !== segment.sha) refs.push(writePartRef(p.thread_id, p.checkpoint_ns, piece.from, segment.r, keptRowPart(segment.sha)));
    }
  }
  return refs;
}

/**
 * The appended items of `piece` (a piece of checkpoint `p` on `channel` with segments), the named
 * writes read from the rows `rowOf` finds. `fail` makes the error for a reason.
 */
export function resolveSegments(p: CheckpointPayload, piece: ListPiece, rowOf: (ref: string) => StoredRow | undefined, fail: (reason: string) => Error, channel: string): unknown[] {
  const items: unknown[] = [];
  // The payload each named (task, SHA-256) stands for, found once: several writes of one task
  // name the same row, and a kept copy is hashed again only once.
  const payloads = new Map<string, WritePayload>();
  for (const segment of piece.w ?? []) {
    if (!isWriteSegment(segment)) {
      for (const item of segment.j) items.push(item);
      continue;
    }
    const what = `the pending writes of task ${segment.r} on checkpoint ${piece.from}`;
    const key = `${segment.r}\u0000${segment.sha}`;
    let payload = payloads.get(key);
    if (payload === undefined) {
      const row = rowOf(writeRef(p.thread_id, p.checkpoint_ns, piece.from, segment.r));
      if (row === undefined) throw fail(`${what} are missing`);
      if (row.payloadSha256 === segment.sha) payload = writePayload(row);
      else {
        // Replaced by a later putWrites: the copy kept then must hold exactly the row named.
        const kept = rowOf(writePartRef(p.thread_id, p.checkpoint_ns, piece.from, segment.r, keptRowPart(segment.sha)));
        const old = kept === undefined ? undefined : partPayload(kept).items;
        if (old?.length !== 1 || sha256Hex(canonicalize(old[0])) !== segment.sha) throw fail(`${what} are not the ones it names (SHA-256 differs)`);
        // The old payload read as the row it was: same kind, ref and session as the row now.
        payload = writePayload({ ...row, payload: old[0] as StoredRow['payload'] });
      }
      payloads.set(key, payload);
    }
    const write = payload.writes.find((w) => w.idx === segment.i);
    if (write === undefined || write.channel !== channel || write.value.t !== 'json' || write.value.j === undefined || write.value.parts !== undefined) {
      throw fail(`${what} have no write ${segment.i} of its items`);
    }
    for (const item of writeItems(write.value)) items.push(item);
  }
  return items;
}
