import { readFile, writeFile } from 'node:fs/promises';
import type { AdapterCapabilities, CheckpointAdapter } from '@session-checkpoint/core';
import type { ConformanceSubject } from '../types.js';
import { JsonFileAdapter, jsonFileSubject } from './json-file-adapter.js';

/**
 * A deliberately broken adapter: the JSON file adapter, except that its `transaction` copies the
 * file's bytes at the start and writes the copy back when the callback throws without holding
 * other callers off meanwhile (so it declares `concurrentTransactions`). It passes every case
 * outside the `isolation` group; but a rollback erases what other callers completed meanwhile
 * (and brings back what they deleted), and other callers see its uncommitted rows.
 */
export class SnapshotFileAdapter extends JsonFileAdapter {
  override get capabilities(): AdapterCapabilities {
    // Its transactions hold nothing, so it cannot offer the file adapter's lock or conditional insert.
    return { ...super.capabilities, concurrentTransactions: true, transactionLocks: false, conditionalInserts: false };
  }

  /** The bug under test: snapshot the file, restore it on failure, let everyone else carry on. */
  override async transaction<T>(fn: (tx: CheckpointAdapter) => Promise<T>): Promise<T> {
    const snapshot = await this.exclusive(() => readFile(this.path));
    try {
      return await fn(this);
    } catch (error) {
      await this.exclusive(() => writeFile(this.path, snapshot));
      throw error;
    }
  }
}

/** A conformance subject over a fresh {@link SnapshotFileAdapter}. */
export const snapshotFileSubject = (): Promise<ConformanceSubject> => jsonFileSubject(SnapshotFileAdapter);
