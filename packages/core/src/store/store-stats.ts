import type { CheckpointAdapter, StorageReport } from '../port/adapter.js';
import { resolveNamespace } from '../validation/fields.js';
import { listPins, pinKey, sessionStatsOf } from './idle-expiry.js';

/** One session (a LangGraph thread, an Agents session, a chat...) in {@link StoreStats}. */
export interface SessionStats {
  sessionId: string;
  /** Rows of the session (checkpoints, pieces, parts, pending writes...). */
  rows: number;
  /** UTF-8 bytes of their payload texts (on a sealed store, of the envelopes as stored). */
  bytes: number;
  /** Oldest and newest write: the lowest and highest stored `created_at`. */
  oldest: string;
  newest: string;
  /** Kept from idle expiry by a pin (see {@link CheckpointStore.pin}). */
  pinned: boolean;
}

/** One namespace in {@link StoreStats}: its sums and its sessions, largest first. */
export interface NamespaceStats {
  namespace: string;
  sessionCount: number;
  rows: number;
  bytes: number;
  oldest: string;
  newest: string;
  /** By bytes descending, then session id. */
  sessions: SessionStats[];
}

/** Result of {@link CheckpointStore.stats}: what takes the space. */
export interface StoreStats {
  /** The namespace asked for, or `null` for the whole store. */
  namespace: string | null;
  totals: { namespaces: number; sessions: number; rows: number; bytes: number };
  /** By bytes descending, then name. */
  namespaces: NamespaceStats[];
  /** The database file (SQLite) or relations (PostgreSQL), when the adapter reports them; else `null`. */
  storage: StorageReport | null;
}

/** Sums rows and bytes per namespace and session from the adapter's session sums. */
export async function storeStats(adapter: CheckpointAdapter, namespaceOption: string | undefined): Promise<StoreStats> {
  const namespace = namespaceOption === undefined ? undefined : resolveNamespace(namespaceOption);
  const rows = await sessionStatsOf(adapter, namespace === undefined ? {} : { namespace });
  const pins = new Set((await listPins(adapter, namespace)).map((p) => pinKey(p.namespace, p.sessionId)));
  const byNamespace = new Map<string, NamespaceStats>();
  for (const s of rows) {
    let ns = byNamespace.get(s.namespace);
    if (!ns) {
      ns = { namespace: s.namespace, sessionCount: 0, rows: 0, bytes: 0, oldest: s.oldest, newest: s.newest, sessions: [] };
      byNamespace.set(s.namespace, ns);
    }
    ns.sessionCount++;
    ns.rows += s.rows;
    ns.bytes += s.bytes;
    if (s.oldest < ns.oldest) ns.oldest = s.oldest;
    if (s.newest > ns.newest) ns.newest = s.newest;
    ns.sessions.push({ sessionId: s.sessionId, rows: s.rows, bytes: s.bytes, oldest: s.oldest, newest: s.newest, pinned: pins.has(pinKey(s.namespace, s.sessionId)) });
  }
  const namespaces = [...byNamespace.values()].sort((a, b) => b.bytes - a.bytes || compareText(a.namespace, b.namespace));
  for (const ns of namespaces) ns.sessions.sort((a, b) => b.bytes - a.bytes || compareText(a.sessionId, b.sessionId));
  const storage = adapter.storageReport ? await adapter.storageReport() : null;
  return {
    namespace: namespace ?? null,
    totals: {
      namespaces: namespaces.length,
      sessions: rows.length,
      rows: namespaces.reduce((n, ns) => n + ns.rows, 0),
      bytes: namespaces.reduce((n, ns) => n + ns.bytes, 0),
    },
    namespaces,
    storage,
  };
}

function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
