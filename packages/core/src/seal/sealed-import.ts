/**
 * Importing a sealed bundle (one exported from a store opened with keys: its checkpoints are
 * envelopes, and it carries the heads of its sessions). Before anything is compared with the
 * store, the whole bundle is checked as a sealed store would check itself: every envelope's seal
 * and ciphertext, every head's MAC, and every session's chain against its head. A bundle edited
 * in transit (a row changed, dropped, reordered, added or moved, a head changed or dropped) is
 * refused with `CheckpointIntegrityError`, and nothing is written.
 *
 * Envelopes under a key the store holds are kept as they are; envelopes under another key are
 * re-sealed under the store's active key only when the caller also gives that key (`sourceKeys`),
 * keeping each row's link and place. Rows keep their ids, as every import does. A session is
 * taken over whole: its rows are added only when the store holds none of its sealed rows, or only
 * rows the bundle holds too (a re-import, or an export of a later state); its head becomes the
 * bundle's. Re-importing the same bundle changes nothing and reports every id as unchanged.
 */
import { CheckpointConflictError, CheckpointIntegrityError, CheckpointValidationError, type IntegrityFailure } from '../errors.js';
import type { CheckpointAdapter } from '../port/adapter.js';
import { pythonRepr } from '../python/repr.js';
import type { CheckpointRow } from '../types.js';
import { walkChain, type ChainRow } from './chain.js';
import { openSessionHead, sessionHeadKey, type SessionHeadState } from './heads.js';
import { Keyring, derivedKey } from './keyring.js';
import { openRow, parseEnvelope, type OpenedRow } from './row-envelope.js';
import type { SealTx, StoreSeal } from './store-seal.js';

/** The `format` of a sealed bundle's seal section. */
export const SEALED_BUNDLE_FORMAT = 'session-checkpoint.seal.v1';

/** Options of {@link CheckpointStore.importSealed}. */
export interface SealedImportOptions {
  /** Write the rows. Default is `false`: a dry run. */
  apply?: boolean;
  /** The keys the bundle was sealed with, when this store does not hold them: its rows are re-sealed under the store's active key. */
  sourceKeys?: Keyring;
  /** Only rows of this namespace (the whole bundle is checked all the same). Default is every row. */
  namespace?: string;
}

/** A bundle row, checked and opened. */
interface BundleRow {
  row: CheckpointRow;
  opened: OpenedRow;
  key: string;
}

/** A sealed bundle, checked: its rows by session, and each session's head. */
interface CheckedBundle {
  rows: BundleRow[];
  heads: Map<string, SessionHeadState>;
}

/** Checks every envelope, head and chain of a sealed bundle (see the module comment). */
export function checkSealedBundle(seal: StoreSeal, rows: readonly CheckpointRow[], headTexts: readonly string[], sourceKeys: Keyring | undefined): CheckedBundle {
  const keys = sourceKeys === undefined ? seal.keys : sourceKeys.with(seal.keys);
  const failures: IntegrityFailure[] = [];
  const checked: BundleRow[] = [];
  for (const row of rows) {
    const envelope = parseEnvelope(row.payloadJson);
    if (envelope !== undefined && derivedKey(keys, envelope.keyId) === undefined) {
      throw new CheckpointValidationError(
        `Import bundle is sealed with key '${envelope.keyId}', which this store's keyring does not hold: give the bundle's keys too (sourceKeys) to re-seal it under the store's key`,
      );
    }
    const opened = openRow(keys, row, envelope);
    if (typeof opened === 'string') failures.push({ id: row.id, reason: opened });
    else checked.push({ row, opened, key: sessionHeadKey(row.namespace, row.sessionId) });
  }
  if (failures.length > 0) {
    throw new CheckpointIntegrityError(`Import bundle failed seal verification (edited in transit, or sealed with other keys): ${failures.map((f) => `${f.id}: ${f.reason}`).join('; ')}`, { failures });
  }
  const heads = new Map<string, SessionHeadState>();
  for (const text of headTexts) {
    let claimed: { ns?: unknown; session?: unknown } = {};
    try {
      claimed = JSON.parse(text) as typeof claimed;
    } catch {
      // Reported below as a damaged head.
    }
    const head = typeof claimed.ns === 'string' && typeof claimed.session === 'string' ? openSessionHead(keys, text, claimed.ns, claimed.session) : 'session head is damaged';
    if (typeof head === 'string') throw new CheckpointIntegrityError(`Import bundle failed seal verification (edited in transit): ${head}`);
    heads.set(sessionHeadKey(head.namespace, head.sessionId), head);
  }
  const bySession = new Map<string, ChainRow[]>();
  for (const { row, opened, key } of checked) {
    const list = bySession.get(key) ?? [];
    list.push({ id: row.id, link: opened.link, prev: opened.prev, createdAt: row.createdAt });
    bySession.set(key, list);
  }
  for (const [key, chain] of bySession) {
    const head = heads.get(key);
    const sample = checked.find((c) => c.key === key)?.row as CheckpointRow;
    const where = `session ${pythonRepr(sample.sessionId)} of namespace ${pythonRepr(sample.namespace)}`;
    if (head === undefined) throw new CheckpointIntegrityError(`Import bundle failed seal verification (edited in transit): ${where} has sealed rows but no head`);
    const problems = walkChain(head, chain);
    if (problems.length > 0) {
      throw new CheckpointIntegrityError(`Import bundle failed seal verification (edited in transit): ${where}: ${problems.map((p) => p.reason).join('; ')}`, {
        failures: problems.flatMap((p) => p.ids.map((id) => ({ id, reason: p.reason }))),
      });
    }
  }
  for (const key of heads.keys()) if (!bySession.has(key)) throw new CheckpointIntegrityError('Import bundle failed seal verification (edited in transit): a session head has no rows in the bundle');
  return { rows: checked, heads };
}

/** Ids to insert and ids already present, in bundle order. */
export interface SealedImportPlan {
  inserted: number[];
  unchanged: number[];
}

/**
 * Plans the import of checked bundle rows against the store as `adapter` sees it: a row whose id
 * exists must be the same checkpoint (same columns and plaintext, same place in its chain);
 * otherwise its source ref must be free; and a session that gets rows must hold no sealed row the
 * bundle does not.
 */
export async function planSealedImport(seal: StoreSeal, adapter: CheckpointAdapter, bundle: CheckedBundle, namespace: string | undefined): Promise<SealedImportPlan> {
  const plan: SealedImportPlan = { inserted: [], unchanged: [] };
  const touched = new Set<string>();
  for (const { row, opened, key } of bundle.rows) {
    if (namespace !== undefined && row.namespace !== namespace) continue;
    const existing = await adapter.getRowAnyNamespace(row.id);
    if (existing !== undefined) {
      const mine = seal.reader.check(existing, undefined, false);
      if (typeof mine === 'string') throw new CheckpointIntegrityError(`Checkpoint ${existing.id} failed integrity verification: ${mine}`, { failures: [{ id: existing.id, reason: mine }] });
      const same =
        mine.opened?.link === opened.link &&
        (['namespace', 'sessionId', 'kind', 'name', 'createdAt', 'sourceRef'] as const).every((f) => existing[f] === row[f]) &&
        mine.record.payloadJson === opened.payloadJson;
      if (!same) throw new CheckpointConflictError(`Checkpoint id ${row.id} conflicts with existing state`, { ids: [row.id] });
      plan.unchanged.push(row.id);
      continue;
    }
    if (row.sourceRef !== null) {
      const holder = await adapter.findBySourceRef(row.namespace, row.sourceRef);
      if (holder !== undefined) {
        throw new CheckpointConflictError(`source_ref ${pythonRepr(row.sourceRef)} conflicts in namespace ${pythonRepr(row.namespace)}`, { ids: [row.id, holder.id] });
      }
    }
    plan.inserted.push(row.id);
    touched.add(key);
  }
  for (const key of touched) {
    const sample = bundle.rows.find((r) => r.key === key)?.row as CheckpointRow;
    const ours = new Set(bundle.rows.filter((r) => r.key === key).map((r) => `${r.row.id} ${r.opened.link}`));
    for (let offset = 0; ; offset += 500) {
      const page = await adapter.listRows({ namespace: sample.namespace, sessionId: sample.sessionId, limit: 500, offset });
      for (const row of page) {
        const link = parseEnvelope(row.payloadJson)?.link;
        if (link !== undefined && !ours.has(`${row.id} ${link}`)) {
          throw new CheckpointConflictError(
            `session ${pythonRepr(sample.sessionId)} of namespace ${pythonRepr(sample.namespace)} holds sealed rows the bundle does not (row ${row.id}): import into a store without that session, or delete it first`,
            { ids: [row.id] },
          );
        }
      }
      if (page.length < 500) break;
    }
  }
  return plan;
}

/** Inserts the planned rows (re-sealed under the store's active key when it does not hold theirs) and adopts their sessions' heads. */
export async function applySealedImport(seal: StoreSeal, sealTx: SealTx, adapter: CheckpointAdapter, bundle: CheckedBundle, plan: SealedImportPlan): Promise<void> {
  const inserted = new Set(plan.inserted);
  const sessions = new Set<string>();
  for (const { row, opened, key } of bundle.rows) {
    if (!inserted.has(row.id)) continue;
    const envelope = parseEnvelope(row.payloadJson);
    const held = envelope !== undefined && seal.keys.has(envelope.keyId);
    const stored = held ? row : seal.sealedRow({ ...row, payloadJson: opened.payloadJson, payloadBytes: 0 }, row.id, { link: opened.link, prev: opened.prev });
    await adapter.insert(stored);
    sessions.add(key);
  }
  for (const key of sessions) {
    const head = bundle.heads.get(key) as SessionHeadState;
    await sealTx.setHead(head.namespace, head.sessionId, head);
  }
}
