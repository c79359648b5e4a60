import { mkdtempSync, rmSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CheckpointAdapterBase, CheckpointConflictError, CheckpointError } from '@session-checkpoint/core';
import type { AdapterCapabilities, CheckpointAdapter, CheckpointRow, InsertOptions, InsertResult } from '@session-checkpoint/core';
import type { ListRowsQuery, NewCheckpointRow, ScanRowsQuery } from '@session-checkpoint/core';
import { compareNewestFirst, selectPrunable } from '@session-checkpoint/core/internal';
import type { ConformanceSubject } from '../types.js';

/** The file: every row, and the highest id ever used. Bytes are kept as `{ "$bytes": [...] }`. */
interface FileState {
  sequence: number;
  rows: Record<string, unknown>[];
}

const toJson = (row: CheckpointRow) => (row.payloadJson as unknown) instanceof Uint8Array ? { ...row, payloadJson: { $bytes: [...(row.payloadJson as unknown as Uint8Array)] } } : row;
const fromJson = (row: Record<string, unknown>) => {
  const payload = row.payloadJson as { $bytes?: number[] };
  return (payload.$bytes ? { ...row, payloadJson: Uint8Array.from(payload.$bytes) } : row) as unknown as CheckpointRow;
};

/**
 * A deliberately broken adapter: rows in one JSON file, each call a read-modify-write of the whole
 * file, one call at a time. Its `transaction` copies the file's bytes at the start and writes the
 * copy back when the callback throws, and it does not hold other callers off meanwhile (so it
 * declares `concurrentTransactions`). It passes every case that predates the `isolation` group;
 * but a rollback erases what other callers completed meanwhile (and brings back what they
 * deleted), and other callers see its uncommitted rows.
 */
export class SnapshotFileAdapter extends CheckpointAdapterBase {
  #queue: Promise<unknown> = Promise.resolve();
  #closed = false;

  constructor(readonly path: string) {
    super();
  }

  override get capabilities(): AdapterCapabilities {
    return { ...super.capabilities, persistent: true, concurrentTransactions: true };
  }

  async insert(row: NewCheckpointRow, options: InsertOptions = {}): Promise<InsertResult> {
    return this.#update((state, rows) => {
      if (row.id !== undefined && rows.some((r) => r.id === row.id)) throw new CheckpointConflictError(`Checkpoint id ${row.id} already exists`, { ids: [row.id] });
      const clash = row.sourceRef === null ? undefined : rows.find((r) => r.namespace === row.namespace && r.sourceRef === row.sourceRef);
      if (clash) throw new CheckpointConflictError(`source_ref already exists in namespace '${row.namespace}'`, { ids: [clash.id] });
      const id = row.id ?? state.sequence + 1;
      state.sequence = Math.max(state.sequence, id);
      rows.push({ ...row, id });
      const pruned = options.keepLatest === undefined ? [] : selectPrunable(rows, { namespace: row.namespace, sessionId: row.sessionId, keepLatest: options.keepLatest });
      return { result: { id, pruned }, rows: rows.filter((r) => !pruned.includes(r.id)) };
    });
  }

  async getRow(id: number, namespace: string): Promise<CheckpointRow | undefined> {
    return (await this.#read()).find((r) => r.id === id && r.namespace === namespace);
  }

  async getRowAnyNamespace(id: number): Promise<CheckpointRow | undefined> {
    return (await this.#read()).find((r) => r.id === id);
  }

  async listRows(query: ListRowsQuery): Promise<CheckpointRow[]> {
    const rows = (await this.#read()).filter((r) => r.namespace === query.namespace && (query.sessionId === undefined || r.sessionId === query.sessionId));
    return rows.sort(compareNewestFirst).slice(query.offset, query.offset + query.limit);
  }

  async scanRows(query: ScanRowsQuery): Promise<CheckpointRow[]> {
    const rows = (await this.#read()).filter((r) => r.id > query.afterId && (query.namespace === undefined || r.namespace === query.namespace));
    return rows.sort((a, b) => a.id - b.id).slice(0, query.limit);
  }

  async deleteRow(id: number, namespace: string): Promise<boolean> {
    return this.#update((_, rows) => {
      const kept = rows.filter((r) => !(r.id === id && r.namespace === namespace));
      return { result: kept.length < rows.length, rows: kept };
    });
  }

  /** The bug under test: snapshot the file, restore it on failure, let everyone else carry on. */
  async transaction<T>(fn: (tx: CheckpointAdapter) => Promise<T>): Promise<T> {
    const snapshot = await this.#exclusive(() => readFile(this.path));
    try {
      return await fn(this);
    } catch (error) {
      await this.#exclusive(() => writeFile(this.path, snapshot));
      throw error;
    }
  }

  async close(): Promise<void> {
    this.#closed = true;
  }

  /** Test hook: overwrites stored columns of row `id` in the file as given (bytes stay bytes). */
  async tamper(id: number, patch: Partial<Record<keyof CheckpointRow, unknown>>): Promise<void> {
    await this.#update((_, rows) => {
      if (!rows.some((r) => r.id === id)) throw new CheckpointError(`no row ${id} to tamper with`);
      return { result: undefined, rows: rows.map((r) => (r.id === id ? ({ ...r, ...patch } as CheckpointRow) : r)) };
    });
  }

  async #read(): Promise<CheckpointRow[]> {
    return this.#exclusive(async () => (JSON.parse(await readFile(this.path, 'utf8')) as FileState).rows.map(fromJson));
  }

  async #update<T>(change: (state: FileState, rows: CheckpointRow[]) => { result: T; rows: CheckpointRow[] }): Promise<T> {
    return this.#exclusive(async () => {
      const state = JSON.parse(await readFile(this.path, 'utf8')) as FileState;
      const { result, rows } = change(state, state.rows.map(fromJson));
      await writeFile(this.path, JSON.stringify({ sequence: state.sequence, rows: rows.map(toJson) }));
      return result;
    });
  }

  /** One file operation at a time, so each call on its own is atomic. */
  #exclusive<T>(fn: () => Promise<T>): Promise<T> {
    if (this.#closed) return Promise.reject(new CheckpointError('the store is closed'));
    const run = this.#queue.then(fn);
    this.#queue = run.catch(() => undefined);
    return run;
  }
}

/** A conformance subject over a fresh file in a temporary directory, removed by `destroy`. */
export async function snapshotFileSubject(): Promise<ConformanceSubject> {
  const dir = mkdtempSync(join(tmpdir(), 'sc-snapshot-file-'));
  const path = join(dir, 'store.json');
  await writeFile(path, JSON.stringify({ sequence: 0, rows: [] }));
  const adapter = new SnapshotFileAdapter(path);
  return {
    adapter,
    storesBytes: true,
    tamper: (id, patch) => adapter.tamper(id, patch),
    reopen: async () => new SnapshotFileAdapter(path),
    destroy: async () => {
      await adapter.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
