import type { CheckpointRow, NewCheckpointRow } from '../types.js';
import type {
  AdapterCapabilities,
  CheckpointAdapter,
  InsertOptions,
  InsertResult,
  ListRowsQuery,
  MetaChange,
  MetaEntry,
  MetaSwap,
  PruneQuery,
  ScanRowsQuery,
  SessionStatsQuery,
  SessionStatsRow,
  SessionSummaryRow,
  SourceRefPositionQuery,
  SourceRefPrefixQuery,
} from './adapter.js';
import { batchClashError, firstBatchClash } from './batch-clash.js';
import { META_NAMESPACE, insertWithMetaRows, listMetaRows, readMetaRows, writeMetaRows } from './meta-rows.js';
import { utf8ByteLength } from '../sha256.js';
import { compareNewestFirst, selectPrunable, selectSourceRefPrefix } from './ordering.js';

/** The base class's answer: no promise beyond the contract. */
const NO_CAPABILITIES: AdapterCapabilities = Object.freeze({ multiProcess: false, persistent: false, concurrentTransactions: false });

/**
 * Base class for adapters: implement the abstract members and inherit working defaults for the
 * rest, built on `scanRows`/`listRows`/`deleteRow`. The defaults are correct but read whole
 * namespaces; override them with native queries where the backend can do better. Members added
 * to the port later get a default here, so adapters that extend this class keep compiling.
 *
 * @example
 * ```ts
 * class MyAdapter extends CheckpointAdapterBase {
 *   override get capabilities(): AdapterCapabilities {
 *     return { ...super.capabilities, persistent: true };
 *   }
 *   // insert, getRow, getRowAnyNamespace, listRows, scanRows, deleteRow, transaction, close
 * }
 * ```
 */
export abstract class CheckpointAdapterBase implements CheckpointAdapter {
  /**
   * What this adapter promises beyond the contract. Default is every flag `false`, the safe
   * answer: the conformance suite then skips the cases that need a flag, and nothing relies on a
   * promise the adapter did not make. Override the getter and spread `super.capabilities`, so a
   * flag added in a later version keeps its default here.
   */
  get capabilities(): AdapterCapabilities {
    return NO_CAPABILITIES;
  }
  abstract insert(row: NewCheckpointRow, options?: InsertOptions): Promise<InsertResult>;
  abstract getRow(id: number, namespace: string): Promise<CheckpointRow | undefined>;
  abstract getRowAnyNamespace(id: number): Promise<CheckpointRow | undefined>;
  abstract listRows(query: ListRowsQuery): Promise<CheckpointRow[]>;
  abstract scanRows(query: ScanRowsQuery): Promise<CheckpointRow[]>;
  abstract deleteRow(id: number, namespace: string): Promise<boolean>;
  abstract transaction<T>(fn: (tx: CheckpointAdapter) => Promise<T>): Promise<T>;
  abstract close(): Promise<void>;

  /**
   * Default: `insert` per row, in one transaction, refusing a row that an earlier row of the batch
   * clashes with before it is inserted. When a row is refused the rows inserted before it are
   * deleted again, so that a batch that fails inside a caller's transaction leaves nothing there
   * either (the ids they took stay used, as a failed `insert`'s would).
   */
  async insertMany(rows: readonly NewCheckpointRow[]): Promise<number[]> {
    if (rows.length === 0) return [];
    const clash = firstBatchClash(rows);
    return this.transaction(async (tx) => {
      const ids: number[] = [];
      try {
        for (let k = 0; k < rows.length; k++) {
          const row = rows[k] as NewCheckpointRow;
          if (k === clash) throw batchClashError(row);
          ids.push((await tx.insert(row)).id);
        }
      } catch (error) {
        try {
          for (let k = ids.length - 1; k >= 0; k--) await tx.deleteRow(ids[k] as number, (rows[k] as NewCheckpointRow).namespace);
        } catch {
          // The failed insert left the transaction unusable (a server error aborts a PostgreSQL
          // transaction): it rolls back as a whole, and the insert's error is the one to report.
        }
        throw error;
      }
      return ids;
    });
  }

  /** Every row of a namespace, by id ascending. Used by the defaults below. */
  protected async allRows(namespace: string): Promise<CheckpointRow[]> {
    const out: CheckpointRow[] = [];
    let afterId = 0;
    for (;;) {
      const page = await this.scanRows({ namespace, afterId, limit: 1000 });
      out.push(...page);
      const last = page[page.length - 1];
      if (page.length < 1000 || !last) return out;
      afterId = last.id;
    }
  }

  /** Default: scans the namespace. */
  async findBySourceRef(namespace: string, sourceRef: string): Promise<CheckpointRow | undefined> {
    return (await this.allRows(namespace)).find((row) => row.sourceRef === sourceRef);
  }

  /**
   * Default: `findBySourceRef` per distinct ref, or one scan of the namespace for several refs
   * when `findBySourceRef` is this class's scan as well.
   */
  async findBySourceRefs(namespace: string, sourceRefs: readonly string[]): Promise<CheckpointRow[]> {
    const wanted = new Set(sourceRefs);
    if (wanted.size > 1 && this.findBySourceRef === CheckpointAdapterBase.prototype.findBySourceRef) {
      return (await this.allRows(namespace)).filter((row) => row.sourceRef !== null && wanted.has(row.sourceRef));
    }
    const out: CheckpointRow[] = [];
    for (const ref of wanted) {
      const row = await this.findBySourceRef(namespace, ref);
      if (row) out.push(row);
    }
    return out;
  }

  /** Default: {@link selectSourceRefPrefix} over a scan of the namespace. */
  async listBySourceRefPrefix(query: SourceRefPrefixQuery): Promise<CheckpointRow[]> {
    return selectSourceRefPrefix(await this.allRows(query.namespace), query);
  }

  /** Default: the last row of a range read of `offset + 1` rows. */
  async sourceRefAt(query: SourceRefPositionQuery): Promise<string | undefined> {
    const { offset, ...range } = query;
    const rows = await this.listBySourceRefPrefix({ ...range, limit: offset + 1 });
    return rows.length > offset ? (rows[offset]?.sourceRef ?? undefined) : undefined;
  }

  /** Default: the first row of a one-row page. */
  async latestRow(namespace: string, sessionId: string): Promise<CheckpointRow | undefined> {
    const [row] = await this.listRows({ namespace, sessionId, limit: 1, offset: 0 });
    return row;
  }

  /** Default: groups a scan of the namespace. */
  async sessions(namespace: string): Promise<SessionSummaryRow[]> {
    const latest = new Map<string, { row: CheckpointRow; count: number }>();
    for (const row of await this.allRows(namespace)) {
      const seen = latest.get(row.sessionId);
      if (!seen) latest.set(row.sessionId, { row, count: 1 });
      else {
        seen.count++;
        if (compareNewestFirst(row, seen.row) < 0) seen.row = row;
      }
    }
    return [...latest.values()]
      .sort((a, b) => compareNewestFirst(a.row, b.row))
      .map(({ row, count }) => ({ sessionId: row.sessionId, count, latestCreatedAt: row.createdAt, latestId: row.id }));
  }

  /**
   * Default: sums a scan of the namespace, or of the whole store (the reserved metadata namespace
   * left out). Byte lengths are UTF-8.
   */
  async sessionStats(query: SessionStatsQuery): Promise<SessionStatsRow[]> {
    const stats = new Map<string, SessionStatsRow>();
    const add = (row: CheckpointRow): void => {
      if (row.namespace === META_NAMESPACE || (query.sessionId !== undefined && row.sessionId !== query.sessionId)) return;
      const key = JSON.stringify([row.namespace, row.sessionId]);
      const bytes = typeof row.payloadJson === 'string' ? utf8ByteLength(row.payloadJson) : 0;
      const seen = stats.get(key);
      if (!seen) {
        stats.set(key, { namespace: row.namespace, sessionId: row.sessionId, rows: 1, bytes, oldest: row.createdAt, newest: row.createdAt, maxId: row.id });
        return;
      }
      seen.rows++;
      seen.bytes += bytes;
      if (row.createdAt < seen.oldest) seen.oldest = row.createdAt;
      if (row.createdAt > seen.newest) seen.newest = row.createdAt;
      if (row.id > seen.maxId) seen.maxId = row.id;
    };
    if (query.namespace !== undefined) {
      for (const row of await this.allRows(query.namespace)) add(row);
    } else {
      let afterId = Number.NEGATIVE_INFINITY;
      for (;;) {
        const page = await this.scanRows({ afterId, limit: 1000 });
        for (const row of page) add(row);
        const last = page[page.length - 1];
        if (page.length < 1000 || !last) break;
        afterId = last.id;
      }
    }
    return [...stats.values()];
  }

  /** Default: `deleteRow` per id, in one transaction. */
  async deleteRows(ids: readonly number[], namespace: string): Promise<number[]> {
    return this.transaction(async (tx) => {
      const deleted: number[] = [];
      for (const id of ids) if (await tx.deleteRow(id, namespace)) deleted.push(id);
      return deleted.sort((a, b) => a - b);
    });
  }

  /** Default: scans the namespace, then `deleteRows`. */
  async deleteSession(namespace: string, sessionId: string): Promise<number[]> {
    const ids = (await this.allRows(namespace)).filter((row) => row.sessionId === sessionId).map((row) => row.id);
    return ids.length === 0 ? [] : this.deleteRows(ids, namespace);
  }

  /** Default: {@link selectPrunable} over a scan of the namespace. */
  async findPrunable(query: PruneQuery): Promise<number[]> {
    return selectPrunable(await this.allRows(query.namespace), query);
  }

  /** Default: metadata kept as rows of the reserved namespace (see meta-rows.ts); `lock` is ignored. */
  async readMeta(keys: readonly string[], _options?: { lock?: boolean }): Promise<MetaEntry[]> {
    return readMetaRows(this, keys);
  }

  /** Default: metadata rows of the reserved namespace whose key starts with `prefix`. */
  async listMeta(prefix: string): Promise<MetaEntry[]> {
    return listMetaRows(this, prefix);
  }

  /** Default: each change a delete and an insert of a metadata row, in one transaction. */
  async writeMeta(changes: readonly MetaChange[]): Promise<void> {
    return writeMetaRows(this, changes);
  }

  /** Default: a transaction that reads the entry, and inserts and writes only when it holds `swap.expected`. */
  async insertWithMeta(row: (id: number) => NewCheckpointRow, swap: MetaSwap, also: readonly MetaChange[]): Promise<number | undefined> {
    return insertWithMetaRows(this, row, swap, also);
  }

  /** Default: the row deleted and inserted again with its id and the new payload, in one transaction. */
  async updatePayload(id: number, namespace: string, payloadJson: string, payloadSha256: string): Promise<boolean> {
    return this.transaction(async (tx) => {
      const row = await tx.getRow(id, namespace);
      if (row === undefined) return false;
      await tx.deleteRow(id, namespace);
      await tx.insert({ ...row, payloadJson, payloadSha256, id });
      return true;
    });
  }
}

