/**
 * Key rotation: every row, session head and the store head that is not under the keyring's
 * active key is re-sealed under it, in batches; plaintext rows (a store opened with
 * `allowPlaintext`) are sealed onto the end of their session's chain.
 *
 * Each batch is one transaction of the sealed store (rows replaced in place, keeping their ids,
 * links and places; heads re-sealed as it commits), so a rotation killed at any point leaves
 * every row and head sealed under one key of the ring, and a new run picks up the rows still
 * under an older key. Rows are re-read and re-checked inside their batch's transaction, so a row
 * a writer deleted or another run re-sealed meanwhile is skipped, never overwritten. Nothing is
 * written until the whole store has been read and checked: a rotation never starts on a store
 * with a row that fails.
 */
import { CheckpointError, CheckpointValidationError, type IntegrityFailure } from '../errors.js';
import type { CheckpointAdapter } from '../port/adapter.js';
import { CheckpointAdapterBase } from '../port/adapter-base.js';
import type { PreparedCheckpoint } from '../store/prepare.js';
import { RowFieldChecks } from '../store/row-field-checks.js';
import { integrityError } from '../store/verify-row.js';
import type { CheckpointRow } from '../types.js';
import { validateId } from '../validation/fields.js';
import { SESSION_HEAD_PREFIX } from './heads.js';
import { listMeta } from './meta-access.js';
import type { ChainPlace } from './row-envelope.js';
import type { SealTx, StoreSeal } from './store-seal.js';

/** Options of `CheckpointStore.rekey`. */
export interface RekeyOptions {
  /** Re-seal. Default is `false`: a dry run that counts what would be re-sealed. */
  apply?: boolean;
  /** Rows per transaction. Default is `200`. */
  batchSize?: number;
  /** Called after each batch: rows done and rows to do. Default is none. */
  onProgress?: (progress: { done: number; total: number }) => void;
}

/** Result of `CheckpointStore.rekey`. */
export interface RekeyReport {
  dryRun: boolean;
  /** The key everything is (or would be) sealed under. */
  activeKey: string;
  /** Rows already under the active key. */
  current: number;
  /** Rows re-sealed from an older key (in a dry run: to re-seal), by that key's id. */
  resealed: Record<string, number>;
  /** Plaintext rows sealed (only with `allowPlaintext`). */
  sealedPlaintext: number;
  /** Session heads, and the store head, re-sealed under the active key. */
  heads: number;
}

/** What rotation needs of its store. */
export interface RekeyContext {
  seal: StoreSeal;
  adapter: CheckpointAdapter;
  batches(batchSize: number): AsyncGenerator<CheckpointRow[]>;
  transaction<T>(fn: (sealTx: SealTx, adapter: CheckpointAdapter) => Promise<T>): Promise<T>;
}

/** Replaces a row's payload in place (same id, same columns) with `payloadJson` sealed at `place`. */
async function replace(ctx: RekeyContext, adapter: CheckpointAdapter, row: CheckpointRow, payloadJson: string, place: ChainPlace): Promise<void> {
  const sealed = ctx.seal.sealedRow({ ...row, payloadJson } as unknown as PreparedCheckpoint, row.id, { link: place.link, prev: place.prev });
  const changed = adapter.updatePayload
    ? await adapter.updatePayload(row.id, row.namespace, sealed.payloadJson, sealed.payloadSha256)
    : await CheckpointAdapterBase.prototype.updatePayload.call(adapter as CheckpointAdapterBase, row.id, row.namespace, sealed.payloadJson, sealed.payloadSha256);
  if (!changed) throw new CheckpointError(`row ${row.id} went during the rotation's batch`);
}

/** See the module comment. */
export async function rekeyStore(ctx: RekeyContext, options: RekeyOptions): Promise<RekeyReport> {
  const batchSize = validateId(options.batchSize ?? 200, 'batchSize');
  const { seal } = ctx;
  const active = seal.keys.activeId;
  const report: RekeyReport = { dryRun: options.apply !== true, activeKey: active, current: 0, resealed: {}, sealedPlaintext: 0, heads: 0 };
  // Read and check everything first: nothing is written to a store with a failing row.
  const todo: number[] = [];
  const failures: IntegrityFailure[] = [];
  const fields = new RowFieldChecks();
  for await (const batch of ctx.batches(1000)) {
    for (const row of batch) {
      const result = seal.reader.check(row, fields, false);
      if (typeof result === 'string') failures.push({ id: Number(row.id), reason: result });
      else if (result.opened === undefined) {
        report.sealedPlaintext++;
        todo.push(row.id);
      } else if (result.opened.keyId === active) report.current++;
      else {
        report.resealed[result.opened.keyId] = (report.resealed[result.opened.keyId] ?? 0) + 1;
        todo.push(row.id);
      }
    }
  }
  if (failures.length > 0) throw integrityError(failures);
  const oldHeads = (await listMeta(ctx.adapter, SESSION_HEAD_PREFIX)).filter((entry) => !entry.value.includes(`"key":${JSON.stringify(active)},`));
  report.heads = oldHeads.length;
  if (report.dryRun) return report;

  let done = 0;
  for (let start = 0; start < todo.length; start += batchSize) {
    const chunk = todo.slice(start, start + batchSize);
    await ctx.transaction(async (sealTx, adapter) => {
      for (const id of chunk) {
        const row = await adapter.getRowAnyNamespace(id);
        if (row === undefined) continue;
        const result = seal.reader.check(row, undefined, false);
        if (typeof result === 'string') throw integrityError([{ id, reason: result }]);
        const opened = result.opened;
        if (opened !== undefined && opened.keyId === active) continue;
        if (opened !== undefined) {
          await replace(ctx, adapter, row, opened.payloadJson, opened);
          await sealTx.touchHead(row.namespace, row.sessionId);
        } else {
          await sealTx.sealInPlace(row, (place) => replace(ctx, adapter, row, row.payloadJson, place));
        }
      }
    });
    done += chunk.length;
    options.onProgress?.({ done, total: todo.length });
  }
  // Heads of sessions no re-sealed row touched, then the store head.
  const remaining = (await listMeta(ctx.adapter, SESSION_HEAD_PREFIX)).filter((entry) => !entry.value.includes(`"key":${JSON.stringify(active)},`));
  for (let start = 0; start < remaining.length; start += batchSize) {
    const chunk = remaining.slice(start, start + batchSize);
    await ctx.transaction(async (sealTx) => {
      for (const entry of chunk) {
        const claimed = JSON.parse(entry.value) as { ns?: unknown; session?: unknown };
        if (typeof claimed.ns !== 'string' || typeof claimed.session !== 'string') throw new CheckpointValidationError(`session head ${entry.key} is damaged: run verify`);
        await sealTx.touchHead(claimed.ns, claimed.session);
      }
    });
  }
  await ctx.transaction((sealTx) => sealTx.touchStore());
  return report;
}
