import { MemoryAdapter, type CheckpointAdapter, type CheckpointRow } from '@session-checkpoint/core';

/**
 * A deliberately broken adapter, modelled on a file-backed one whose `transaction` copies the
 * whole file at the start and writes the copy back when the callback throws. Each call on its own
 * is atomic and other callers are not held up by an open transaction (it declares
 * `concurrentTransactions`), so it passes every case that predates the isolation group; but a
 * rollback erases what other callers completed meanwhile (and resurrects what they deleted), and
 * other callers see its uncommitted rows.
 */
export class SnapshotRestoreAdapter extends MemoryAdapter {
  override get capabilities() {
    return { ...super.capabilities, concurrentTransactions: true };
  }

  override async transaction<T>(fn: (tx: CheckpointAdapter) => Promise<T>): Promise<T> {
    const snapshot = await this.#everyRow();
    try {
      return await fn(this);
    } catch (error) {
      await this.#restore(snapshot);
      throw error;
    }
  }

  async #everyRow(): Promise<CheckpointRow[]> {
    return this.scanRows({ afterId: 0, limit: Number.MAX_SAFE_INTEGER });
  }

  /** Puts the store back to `snapshot`, as writing the copied file back would. */
  async #restore(snapshot: readonly CheckpointRow[]): Promise<void> {
    const wanted = new Map(snapshot.map((row) => [row.id, row]));
    for (const row of await this.#everyRow()) if (!wanted.has(row.id)) await this.deleteRow(row.id, row.namespace);
    for (const row of snapshot) if (!(await this.getRowAnyNamespace(row.id))) await this.insert(row);
  }
}
