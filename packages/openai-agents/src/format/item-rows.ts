import type { AgentInputItem } from '@openai/agents-core';
import { CheckpointIntegrityError, type Checkpoint as StoredRow, type CheckpointStore } from '@session-checkpoint/core';
import { decodeEntries, rowEntries, type RowContext, type RowEntries } from './item-codec.js';
import { joinParts } from './item-parts.js';
import { itemPrefix, partRef, seqOfRef } from './source-refs.js';

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
 * `partIds` are the ids of the part rows of its one large item, deleted with it.
 */
export interface ItemRow {
  row: StoredRow;
  seq: number;
  items: AgentInputItem[];
  partIds: number[];
}

/** The position after a row's last item. */
export function endOf(row: ItemRow): number {
  return row.seq + row.items.length;
}

/** Every row id an item row occupies: its own and its parts'. */
export function rowIds(rows: readonly ItemRow[]): number[] {
  return rows.flatMap((row) => [row.row.id, ...row.partIds]);
}

/** A row whose payload was parsed and checked, its parts not yet read. */
interface ParsedRow {
  row: StoredRow;
  seq: number;
  entries: RowEntries;
  context: RowContext;
}

/**
 * A row's payload parsed (once: the record's own `payload` would parse it a second time) and
 * checked, with its position.
 *
 * @throws CheckpointIntegrityError when the row or its position is not what this package writes.
 */
function parseRow(place: SessionPlace, row: StoredRow): ParsedRow {
  const context: RowContext = { sessionId: place.sessionId, id: row.id, sourceRef: row.sourceRef };
  let seq: number;
  try {
    seq = seqOfRef(row.sourceRef);
  } catch {
    throw new CheckpointIntegrityError(`session ${JSON.stringify(place.sessionId)}: item row ${row.id} has the source ref ${String(row.sourceRef)}, which names no position; the store was changed outside this package`);
  }
  const entries = rowEntries({ sessionId: place.sessionId, id: row.id, sourceRef: row.sourceRef, kind: row.kind, payloadJson: row.payloadJson });
  // Compared by difference: past 2^53 a sum rounds and the check would pass.
  if (entries.entries.length - 1 > Number.MAX_SAFE_INTEGER - seq) {
    throw new CheckpointIntegrityError(`session ${JSON.stringify(place.sessionId)}: item row ${row.id} ends past position 2^53-1; the store was changed outside this package`);
  }
  return { row, seq, entries, context };
}

/** Parsed rows decoded, in order: their parts fetched in one read and joined against their recorded SHA-256. */
async function finishRows(store: CheckpointStore, place: SessionPlace, parsed: readonly ParsedRow[]): Promise<ItemRow[]> {
  const refs: string[] = [];
  for (const { seq, entries } of parsed) if (entries.parts) entries.parts.forEach((_, k) => refs.push(partRef(place.sessionId, seq, k)));
  const partRows = new Map<string, StoredRow>();
  if (refs.length > 0) for (const part of await store.findBySourceRefs(place.namespace, refs)) partRows.set(part.sourceRef ?? '', part);
  return parsed.map(({ row, seq, entries, context }) => {
    if (entries.parts === undefined) return { row, seq, items: decodeEntries(entries, context), partIds: [] };
    const refOf = (k: number): string => partRef(place.sessionId, seq, k);
    const owner = `session ${JSON.stringify(place.sessionId)}: the item at position ${seq} (row ${row.id})`;
    const joined = joinParts(entries.parts, refOf, partRows, owner);
    const partIds = entries.parts.map((_, k) => (partRows.get(refOf(k)) as StoredRow).id);
    return { row, seq, items: decodeEntries(entries, context, joined), partIds };
  });
}

/**
 * Item rows decoded, in the given order: payloads checked, parts fetched in one read and joined
 * against their recorded SHA-256, binary fields restored.
 *
 * @throws CheckpointIntegrityError when a row, a part or a position is not what this package writes.
 */
export function decodeRows(store: CheckpointStore, place: SessionPlace, rows: readonly StoredRow[]): Promise<ItemRow[]> {
  return finishRows(store, place, rows.map((row) => parseRow(place, row)));
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
    // Only the rows needed are decoded; the count of a row's items is known before its parts are read.
    const needed: ParsedRow[] = [];
    for (const row of page) {
      if (items >= limit) break;
      const parsed = parseRow(place, row);
      needed.push(parsed);
      items += parsed.entries.entries.length;
    }
    for (const decoded of await finishRows(store, place, needed)) out.push(decoded);
    if (items >= limit || page.length < want) break;
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
 * The rows under a source-ref prefix in ref order, one page of `pageSize` rows per read, from the
 * row after `after` when given. Each page is read when the previous one has been handled.
 */
export async function* prefixPages(store: CheckpointStore, namespace: string, prefix: string, pageSize: number, after?: string): AsyncGenerator<StoredRow[]> {
  for (;;) {
    const page = await store.listBySourceRefPrefix({ namespace, prefix, limit: pageSize, ...(after === undefined ? {} : { after }) });
    yield page;
    if (page.length < pageSize) return;
    after = page[page.length - 1]?.sourceRef ?? undefined;
    if (after === undefined) return;
  }
}

/**
 * Item rows of a session in order, oldest first, page by page; from the row after `afterRef`
 * when given; `pageSize` rows per read (default {@link PAGE_SIZE}).
 */
export async function* itemRowsAscending(store: CheckpointStore, place: SessionPlace, range: { afterRef?: string; pageSize?: number } = {}): AsyncGenerator<ItemRow> {
  for await (const page of prefixPages(store, place.namespace, itemPrefix(place.sessionId), range.pageSize ?? PAGE_SIZE, range.afterRef)) {
    for (const row of await decodeRows(store, place, page)) yield row;
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
