/**
 * The metadata members of an adapter, or their defaults through ordinary rows when an adapter
 * implements the port without them (one that does not extend `CheckpointAdapterBase`).
 */
import type { CheckpointAdapter, MetaChange, MetaEntry, MetaSwap } from '../port/adapter.js';
import { insertWithMetaRows, listMetaRows, readMetaRows, writeMetaRows } from '../port/meta-rows.js';
import type { NewCheckpointRow } from '../types.js';

export const readMeta = (adapter: CheckpointAdapter, keys: readonly string[], lock = false): Promise<MetaEntry[]> =>
  adapter.readMeta ? adapter.readMeta(keys, { lock }) : readMetaRows(adapter, keys);

export const listMeta = (adapter: CheckpointAdapter, prefix: string): Promise<MetaEntry[]> =>
  adapter.listMeta ? adapter.listMeta(prefix) : listMetaRows(adapter, prefix);

export const writeMeta = (adapter: CheckpointAdapter, changes: readonly MetaChange[]): Promise<void> =>
  adapter.writeMeta ? adapter.writeMeta(changes) : writeMetaRows(adapter, changes);

export const insertWithMeta = (adapter: CheckpointAdapter, row: (id: number) => NewCheckpointRow, swap: MetaSwap, also: readonly MetaChange[]): Promise<number | undefined> =>
  adapter.insertWithMeta ? adapter.insertWithMeta(row, swap, also) : insertWithMetaRows(adapter, row, swap, also);
