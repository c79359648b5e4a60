import { mkdtempSync, rmSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CheckpointAdapterBase, CheckpointConflictError, CheckpointError, idLimitError, isCheckpointConflictError, MAX_CHECKPOINT_ID } from '@session-checkpoint/core';
import type { AdapterCapabilities, CheckpointAdapter, CheckpointRow, InsertOptions, InsertPrecondition, InsertResult } from '@session-checkpoint/core';
import type { ListRowsQuery, NewCheckpointRow, ScanRowsQuery } from '@session-checkpoint/core';
import { compareNewestFirst, selectPrunable } from '@session-checkpoint/core/toolkit';
import type { ConformanceSubject, TamperPatch } from '../types.js';

/** The file: every row, and the highest id ever used. Bytes are kept as `{ "$bytes": [...] }`. */
export interface FileState {
  sequence: number;
  rows: Record<string, unknown>[];
}

/** What every adapter object over one opened file shares (a transaction's bound adapter included). */
export interface OpenFile {
  queue: Promise<unknown>;
  closed: boolean;
}

const toJson = (row: CheckpointRow) => (row.payloadJson as unknown) instanceof Uint8Array ? { ...row, payloadJson: { $bytes: [...(row.payloadJson as unknown as Uint8Array)] } } : row;
const fromJson = (row: Record<string, unknown>) => {
  const payload = row.payloadJson as { $bytes?: number[] };
  return (payload.$bytes ? { ...row, payloadJson: Uint8Array.from(payload.$bytes) } : row) as unknown as CheckpointRow;
};

/**
 * A correct, persistent adapter for the suite's own tests: rows in one JSON file, each call a
 * read-modify-write of the whole file, one call (or one whole transaction) at a time. A
 * transaction copies the file's bytes at the start and writes the copy back when the callback
 * throws; that is safe only because it holds every other caller off meanwhile. The deliberately
 * broken adapters of the suite's self-test subclass it and break one rule each.
 */
export class JsonFileAdapter extends CheckpointAdapterBase {
  constructor(
    readonly path: string,
    protected readonly open: OpenFile = { queue: Promise.resolve(), closed: false },
    private readonly inTransaction = false,
  ) {
    super();
  }

  override get capabilities(): AdapterCapabilities {
    return { ...super.capabilities, persistent: true, transactionLocks: true, conditionalInserts: true };
  }

  /** Checks and inserts inside one transaction, which holds the whole file (so `lockKey` is held too). */
  async insertIfPresent(row: NewCheckpointRow, precondition: InsertPrecondition): Promise<number | undefined> {
    return this.transaction(async (tx) => {
      for (const { sourceRef, payloadSha256 } of precondition.present) {
        const held = await tx.findBySourceRef(row.namespace, sourceRef);
        if (!held || (payloadSha256 !== undefined && held.payloadSha256 !== payloadSha256)) return undefined;
      }
      try {
        return (await tx.insert(row)).id;
      } catch (error) {
        if (isCheckpointConflictError(error)) return undefined;
        throw error;
      }
    });
  }

  /** A transaction holds the whole file already, so every lock is held by then; refused outside one. */
  async transactionLock(_key: string): Promise<void> {
    if (!this.inTransaction) throw new CheckpointError('transactionLock needs an open transaction');
  }

  async insert(row: NewCheckpointRow, options: InsertOptions = {}): Promise<InsertResult> {
    return this.update((state, rows) => {
      if (row.id !== undefined && rows.some((r) => r.id === row.id)) throw new CheckpointConflictError(`Checkpoint id ${row.id} already exists`, { ids: [row.id] });
      const clash = row.sourceRef === null ? undefined : rows.find((r) => r.namespace === row.namespace && r.sourceRef === row.sourceRef);
      if (clash) throw new CheckpointConflictError(`source_ref already exists in namespace '${row.namespace}'`, { ids: [clash.id] });
      const id = row.id ?? this.nextId(state, rows);
      if (id > MAX_CHECKPOINT_ID) throw idLimitError();
      this.idUsed(state, id);
      rows.push({ ...row, id });
      const pruned = options.keepLatest === undefined ? [] : selectPrunable(rows, { namespace: row.namespace, sessionId: row.sessionId, keepLatest: options.keepLatest });
      return { result: { id, pruned }, rows: rows.filter((r) => !pruned.includes(r.id)) };
    });
  }

  async getRow(id: number, namespace: string): Promise<CheckpointRow | undefined> {
    return (await this.read()).find((r) => r.id === id && r.namespace === namespace);
  }

  async getRowAnyNamespace(id: number): Promise<CheckpointRow | undefined> {
    return (await this.read()).find((r) => r.id === id);
  }

  async listRows(query: ListRowsQuery): Promise<CheckpointRow[]> {
    const rows = (await this.read()).filter((r) => r.namespace === query.namespace && (query.sessionId === undefined || r.sessionId === query.sessionId));
    return rows.sort(compareNewestFirst).slice(query.offset, query.offset + query.limit);
  }

  async scanRows(query: ScanRowsQuery): Promise<CheckpointRow[]> {
    const rows = (await this.read()).filter((r) => r.id > query.afterId && (query.namespace === undefined || r.namespace === query.namespace));
    return rows.sort((a, b) => a.id - b.id).slice(0, query.limit);
  }

  async deleteRow(id: number, namespace: string): Promise<boolean> {
    return this.update((_, rows) => {
      const kept = rows.filter((r) => !(r.id === id && r.namespace === namespace));
      return { result: kept.length < rows.length, rows: kept };
    });
  }

  /** Holds the file for the whole transaction; the bound adapter's calls run inside that hold. */
  async transaction<T>(fn: (tx: CheckpointAdapter) => Promise<T>): Promise<T> {
    if (this.inTransaction) return fn(this);
    return this.exclusive(async () => {
      const snapshot = await readFile(this.path);
      try {
        return await fn(this.bound());
      } catch (error) {
        await writeFile(this.path, snapshot);
        throw error;
      }
    });
  }

  async close(): Promise<void> {
    this.open.closed = true;
  }

  /** Test hook: overwrites stored columns of row `id` in the file as given (bytes stay bytes). */
  async tamper(id: number, patch: TamperPatch): Promise<void> {
    await this.update((_, rows) => {
      if (!rows.some((r) => r.id === id)) throw new CheckpointError(`no row ${id} to tamper with`);
      return { result: undefined, rows: rows.map((r) => (r.id === id ? ({ ...r, ...patch } as CheckpointRow) : r)) };
    });
  }

  /** The id a create gets: one above the highest ever used, kept in the file. */
  protected nextId(state: FileState, _rows: readonly CheckpointRow[]): number {
    return state.sequence + 1;
  }

  /** Records that `id` was used, so no later create gets it again. */
  protected idUsed(state: FileState, id: number): void {
    state.sequence = Math.max(state.sequence, id);
  }

  /** An adapter over the same open file whose calls run inside the transaction's hold. */
  protected bound(): CheckpointAdapter {
    const Self = this.constructor as new (path: string, open: OpenFile, inTransaction: boolean) => CheckpointAdapter;
    return new Self(this.path, this.open, true);
  }

  protected async read(): Promise<CheckpointRow[]> {
    return this.exclusive(async () => (JSON.parse(await readFile(this.path, 'utf8')) as FileState).rows.map(fromJson));
  }

  protected async update<T>(change: (state: FileState, rows: CheckpointRow[]) => { result: T; rows: CheckpointRow[] }): Promise<T> {
    return this.exclusive(async () => {
      const state = JSON.parse(await readFile(this.path, 'utf8')) as FileState;
      const { result, rows } = change(state, state.rows.map(fromJson));
      await writeFile(this.path, JSON.stringify({ sequence: state.sequence, rows: rows.map(toJson) }));
      return result;
    });
  }

  /** One file operation at a time, so each call on its own is atomic; a transaction already holds the file. */
  protected exclusive<T>(fn: () => Promise<T>): Promise<T> {
    if (this.open.closed) return Promise.reject(new CheckpointError('the store is closed'));
    if (this.inTransaction) return fn();
    const run = this.open.queue.then(fn);
    this.open.queue = run.catch(() => undefined);
    return run;
  }
}

/** A conformance subject over a fresh file in a temporary directory, removed by `destroy`. */
export async function jsonFileSubject(Adapter: new (path: string) => JsonFileAdapter = JsonFileAdapter): Promise<ConformanceSubject> {
  const dir = mkdtempSync(join(tmpdir(), 'sc-json-file-'));
  const path = join(dir, 'store.json');
  await writeFile(path, JSON.stringify({ sequence: 0, rows: [] }));
  const adapter = new Adapter(path);
  return {
    adapter,
    storesBytes: true,
    tamper: (id, patch) => adapter.tamper(id, patch),
    reopen: async () => new Adapter(path),
    destroy: async () => {
      await adapter.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
