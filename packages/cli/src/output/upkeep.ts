import type { ExpireIdleResult, PinnedSession, StorageReport, StoreStats } from '@session-checkpoint/core';

/*
 * The JSON of the upkeep commands (`stats`, `prune --idle-for`, `pin`, `compact`): the core's
 * camelCase results in the CLI's snake_case, keys in a fixed order. No storage logic here.
 */

/** A storage report of the SQLite file or the PostgreSQL relations. */
export function storageJson(report: StorageReport | null): Record<string, unknown> | null {
  if (report === null) return null;
  if (report.kind === 'sqlite') {
    return {
      kind: 'sqlite',
      file_bytes: report.fileBytes,
      page_size: report.pageSize,
      page_count: report.pageCount,
      free_pages: report.freePages,
      reclaimable_bytes: report.reclaimableBytes,
      journal_mode: report.journalMode,
    };
  }
  return {
    kind: 'postgres',
    schema: report.schema,
    relations: report.relations.map((r) => ({
      name: r.name,
      total_bytes: r.totalBytes,
      table_bytes: r.tableBytes,
      index_bytes: r.indexBytes,
      live_tuples: r.liveTuples,
      dead_tuples: r.deadTuples,
      last_vacuum: r.lastVacuum,
      last_autovacuum: r.lastAutovacuum,
    })),
    reclaimable_bytes: report.reclaimableBytes,
  };
}

/** `stats`: per namespace and per session (thread), largest first, then the pins and the storage. */
export function statsJson(stats: StoreStats, pins: readonly PinnedSession[]): Record<string, unknown> {
  return {
    namespace: stats.namespace,
    totals: stats.totals,
    namespaces: stats.namespaces.map((ns) => ({
      namespace: ns.namespace,
      session_count: ns.sessionCount,
      rows: ns.rows,
      bytes: ns.bytes,
      oldest: ns.oldest,
      newest: ns.newest,
      sessions: ns.sessions.map((s) => ({ session_id: s.sessionId, rows: s.rows, bytes: s.bytes, oldest: s.oldest, newest: s.newest, pinned: s.pinned })),
    })),
    pins: pins.map(pinJson),
    storage: storageJson(stats.storage),
  };
}

/** One pin. */
export function pinJson(pin: PinnedSession): Record<string, unknown> {
  return { namespace: pin.namespace, session_id: pin.sessionId, pinned_at: pin.pinnedAt };
}

/** `prune --idle-for`: what was (or would be) deleted, what a pin kept, what a write during the sweep kept. */
export function expiryJson(result: ExpireIdleResult, idleFor: string): Record<string, unknown> {
  return {
    dry_run: result.dryRun,
    idle_for: idleFor,
    cutoff: result.cutoff,
    expired: result.expired.map((e) => ({ namespace: e.namespace, session_id: e.sessionId, rows: e.rows, bytes: e.bytes, newest: e.newest, deleted: e.deleted })),
    pinned: result.pinned.map((p) => ({ namespace: p.namespace, session_id: p.sessionId, newest: p.newest })),
    skipped: result.skipped.map((s) => ({ namespace: s.namespace, session_id: s.sessionId, reason: s.reason })),
    deleted_rows: result.deletedRows,
    bytes: result.bytes,
  };
}
