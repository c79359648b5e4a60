import type { AgentInputItem } from '@openai/agents-core';
import type { Checkpoint as StoredRow, CheckpointStore } from '@session-checkpoint/core';
import { decodeRow } from './item-codec.js';
import { itemPrefix, seqOfRef } from './source-refs.js';

/** Rows read per range query when a read has no small limit. */
export const PAGE_SIZE = 500;

/** Items a row usually holds (one turn); sizes the first range read of a limited read. */
const ITEMS_PER_ROW_GUESS = 3;

/** Where a session's item rows live. */
export interface SessionPlace {
  namespace: string;
  sessionId: string;
}

/**
 * An item row with its items. `seq` is the position of its first item in the history: positions
 * are dense (a row's items take `seq`, `seq + 1`, ...), so the next row starts at {@link endOf}.
 */
export interface ItemRow {
  row: StoredRow;
  seq: number;
  items: AgentInputItem[];
}

/** The position after a row's last item. */
export function endOf(row: ItemRow): number {
  return row.seq + row.items.length;
}

function itemRow(row: StoredRow): ItemRow {
  return { row, seq: seqOfRef(row.sourceRef), items: decodeRow(row) };
}

/**
 * The newest rows of a session holding at least `limit` items (fewer when the history is shorter),
 * newest first: descending range reads sized for about three items a row, so the cost follows
 * `limit`, not the history's length.
 */
export async function newestItemRows(store: CheckpointStore, place: SessionPlace, limit: number): Promise<ItemRow[]> {
  const prefix = itemPrefix(place.sessionId);
  const out: ItemRow[] = [];
  let items = 0;
  let before: string | undefined;
  while (items < limit) {
    const want = Math.min(PAGE_SIZE, Math.ceil((limit - items) / ITEMS_PER_ROW_GUESS) + (limit - items > ITEMS_PER_ROW_GUESS ? 1 : 0));
    const page = await store.listBySourceRefPrefix({ namespace: place.namespace, prefix, descending: true, limit: want, ...(before === undefined ? {} : { before }) });
    for (const row of page) {
      if (items >= limit) return out;
      const decoded = itemRow(row);
      out.push(decoded);
      items += decoded.items.length;
    }
    if (page.length < want) break;
    before = page[page.length - 1]?.sourceRef ?? undefined;
  }
  return out;
}

/** The newest `limit` items of rows read newest first, oldest first. */
export function newestItems(rows: readonly ItemRow[], limit: number): AgentInputItem[] {
  // One pass, no intermediate arrays: this runs on every getItems(limit).
  let skip = -limit;
  for (const row of rows) skip += row.items.length;
  const items: AgentInputItem[] = [];
  for (let r = rows.length - 1; r >= 0; r--) {
    const rowItems = (rows[r] as ItemRow).items;
    for (let i = 0; i < rowItems.length; i++) {
      if (skip > 0) skip--;
      else items.push(rowItems[i] as AgentInputItem);
    }
  }
  return items;
}

/**
 * Item rows of a session in order, oldest first, page by page; from the row after `afterRef`
 * when given; `pageSize` rows per read (default {@link PAGE_SIZE}).
 */
export async function* itemRowsAscending(store: CheckpointStore, place: SessionPlace, range: { afterRef?: string; pageSize?: number } = {}): AsyncGenerator<ItemRow> {
  const pageSize = range.pageSize ?? PAGE_SIZE;
  const prefix = itemPrefix(place.sessionId);
  let after = range.afterRef;
  for (;;) {
    const page = await store.listBySourceRefPrefix({ namespace: place.namespace, prefix, limit: pageSize, ...(after === undefined ? {} : { after }) });
    for (const row of page) yield itemRow(row);
    if (page.length < pageSize) return;
    after = page[page.length - 1]?.sourceRef ?? undefined;
    if (after === undefined) return;
  }
}

/** Every item row of a session, oldest first. */
export async function allItemRows(store: CheckpointStore, place: SessionPlace): Promise<ItemRow[]> {
  const rows: ItemRow[] = [];
  for await (const row of itemRowsAscending(store, place)) rows.push(row);
  return rows;
}

/** The position the next appended item takes: after the newest row's last item, 1 when there is none. */
export async function nextSeq(store: CheckpointStore, place: SessionPlace): Promise<number> {
  const [row] = await newestItemRows(store, place, 1);
  return row ? endOf(row) : 1;
}
