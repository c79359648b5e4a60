/**
 * Metadata entries kept as ordinary rows, for adapters that have no store of their own for them
 * (the defaults of {@link CheckpointAdapterBase}): one row per entry in the reserved namespace
 * {@link META_NAMESPACE}, the key as its source ref, the text inside its payload. That namespace
 * is not a valid namespace token, so no call of the store can name it: its rows never show in a
 * list, an export or a session, and whole-store scans leave them out. Only through the port's
 * existing members, so it works on any adapter; a change is a delete and an insert (new ids).
 */
import { canonicalize } from '../canonical/canonicalize-value.js';
import { sha256Hex } from '../sha256.js';
import type { NewCheckpointRow } from '../types.js';
import type { CheckpointAdapter, MetaChange, MetaEntry, MetaSwap } from './adapter.js';

/** The reserved namespace of metadata rows (not a valid namespace token: it starts with `#`). */
export const META_NAMESPACE = '#session-checkpoint-meta';

/** The lock a sealed write holds while it checks and changes heads (see `transactionLock`). */
export const SEAL_LOCK = 'session-checkpoint/seal';

const PAGE = 500;

function metaRow(key: string, value: string): NewCheckpointRow {
  const payloadJson = canonicalize({ value });
  return {
    namespace: META_NAMESPACE,
    sessionId: 'meta',
    kind: 'meta',
    name: 'meta',
    payloadJson,
    payloadSha256: sha256Hex(payloadJson),
    createdAt: '1970-01-01T00:00:00Z',
    sourceRef: key,
  };
}

/** The text of a metadata row (a damaged row reads as its raw payload, which no head parses). */
function valueOf(payloadJson: unknown): string {
  try {
    const value = (JSON.parse(String(payloadJson)) as { value?: unknown }).value;
    return typeof value === 'string' ? value : String(payloadJson);
  } catch {
    return String(payloadJson);
  }
}

/** {@link CheckpointAdapter.readMeta} through rows. */
export async function readMetaRows(adapter: CheckpointAdapter, keys: readonly string[]): Promise<MetaEntry[]> {
  const out: MetaEntry[] = [];
  for (const key of new Set(keys)) {
    const row = await adapter.findBySourceRef(META_NAMESPACE, key);
    if (row) out.push({ key, value: valueOf(row.payloadJson) });
  }
  return out;
}

/** {@link CheckpointAdapter.listMeta} through rows. */
export async function listMetaRows(adapter: CheckpointAdapter, prefix: string): Promise<MetaEntry[]> {
  const out: MetaEntry[] = [];
  if (adapter.listBySourceRefPrefix) {
    let after: string | undefined;
    for (;;) {
      const page = await adapter.listBySourceRefPrefix({ namespace: META_NAMESPACE, prefix, limit: PAGE, ...(after === undefined ? {} : { after }) });
      for (const row of page) if (typeof row.sourceRef === 'string') out.push({ key: row.sourceRef, value: valueOf(row.payloadJson) });
      const last = page[page.length - 1]?.sourceRef;
      if (page.length < PAGE || typeof last !== 'string') return out;
      after = last;
    }
  }
  let afterId = Number.NEGATIVE_INFINITY;
  for (;;) {
    const page = await adapter.scanRows({ namespace: META_NAMESPACE, afterId, limit: PAGE });
    for (const row of page) if (typeof row.sourceRef === 'string' && row.sourceRef.startsWith(prefix)) out.push({ key: row.sourceRef, value: valueOf(row.payloadJson) });
    const last = page[page.length - 1];
    if (page.length < PAGE || !last) return out;
    afterId = last.id;
  }
}

/** {@link CheckpointAdapter.writeMeta} through rows: each change a delete and an insert, in one transaction. */
export async function writeMetaRows(adapter: CheckpointAdapter, changes: readonly MetaChange[]): Promise<void> {
  if (changes.length === 0) return;
  await adapter.transaction(async (tx) => {
    for (const { key, value, ifAbsent } of changes) {
      const existing = await tx.findBySourceRef(META_NAMESPACE, key);
      if (existing && ifAbsent === true) continue;
      if (existing) await tx.deleteRow(existing.id, META_NAMESPACE);
      if (value !== null) await tx.insert(metaRow(key, value));
    }
  });
}

/**
 * The id the next insert would be given, learned by inserting a placeholder row of the reserved
 * namespace and deleting it, in the caller's transaction: works on any adapter (ids are never
 * reused, and an explicit id may be a deleted one).
 */
export async function reserveIdByPlaceholder(tx: CheckpointAdapter): Promise<number> {
  const { id } = await tx.insert(metaRow(`#placeholder-${Math.random().toString(36).slice(2)}`, ''));
  await tx.deleteRow(id, META_NAMESPACE);
  return id;
}

/** {@link CheckpointAdapter.insertWithMeta} through rows: a transaction that checks, inserts and writes. */
export async function insertWithMetaRows(adapter: CheckpointAdapter, row: (id: number) => NewCheckpointRow, swap: MetaSwap, also: readonly MetaChange[]): Promise<number | undefined> {
  return adapter.transaction(async (tx) => {
    if (tx.capabilities.transactionLocks === true) await tx.transactionLock?.(SEAL_LOCK);
    const [current] = await (tx.readMeta ? tx.readMeta([swap.key], { lock: true }) : readMetaRows(tx, [swap.key]));
    if ((current?.value ?? null) !== swap.expected) return undefined;
    const id = tx.reserveId ? await tx.reserveId() : await reserveIdByPlaceholder(tx);
    await tx.insert({ ...row(id), id });
    const changes = [{ key: swap.key, value: swap.value }, ...also];
    await (tx.writeMeta ? tx.writeMeta(changes) : writeMetaRows(tx, changes));
    return id;
  });
}
