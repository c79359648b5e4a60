import type { CheckpointRow, CheckpointStore } from '@session-checkpoint/core';
import { rawRange, utf8Length } from '@session-checkpoint/core/toolkit';
import { CHECKPOINT_KIND, LANGGRAPH_NAMESPACE } from '../format/payloads.js';
import { checkpointPrefix, parseSourceRef } from '../format/refs.js';
import { pagedRows } from '../read/entries.js';
import type { LanggraphThreadSummary, RowsPlace } from './types.js';

/** Rows per range read of a listing. */
const PAGE = 1000;

/** A checkpoint namespace back from its ref part (escaped; a hashed part needs the payload). */
function nsOf(part: string, row: CheckpointRow): string {
  if (!part.startsWith('~')) return part.replace(/%2F/g, '/').replace(/%7E/g, '~').replace(/%25/g, '%');
  try {
    const ns = (JSON.parse(row.payloadJson) as { checkpoint_ns?: unknown }).checkpoint_ns;
    return typeof ns === 'string' ? ns : part;
  } catch {
    return part;
  }
}

/**
 * The summary of one thread, or `undefined` when the saver wrote no row for it. Rows are counted
 * as stored (not verified: a listing shows no payload; the timeline and the state verify).
 */
async function summary(store: CheckpointStore, namespace: string, threadId: string): Promise<LanggraphThreadSummary | undefined> {
  const prefix = checkpointPrefix(threadId);
  const ns = new Map<string, string>();
  let count = 0;
  let bytes = 0;
  let first: string | undefined;
  let latest: string | undefined;
  for (const range of [prefix, `lgp/${prefix.slice('lg/'.length)}`]) {
    // Raw rows: a listing counts rows, it shows no payload.
    for await (const row of pagedRows(PAGE, (after) => rawRange(store, { namespace, prefix: range, limit: PAGE, ...(after === undefined ? {} : { after }) }))) {
      bytes += utf8Length(row.payloadJson);
      const at = String(row.createdAt);
      if (first === undefined || at < first) first = at;
      if (latest === undefined || at > latest) latest = at;
      const ref = parseSourceRef(row.sourceRef);
      if (range === prefix && ref?.what === 'checkpoint' && row.kind === CHECKPOINT_KIND) {
        count++;
        if (!ns.has(ref.ns)) ns.set(ref.ns, nsOf(ref.ns, row));
      }
    }
  }
  if (first === undefined || latest === undefined) return undefined;
  return {
    family: 'langgraph',
    namespace,
    thread_id: threadId,
    checkpoint_ns: [...new Set(ns.values())].sort(),
    count,
    bytes,
    first_created_at: first,
    latest_created_at: latest,
  };
}

/**
 * The LangGraph threads of a store namespace (every session with rows the saver wrote), most
 * recently active first, with their checkpoint namespaces, checkpoint count, stored bytes and
 * first and latest row time. Reads the rows of each thread once, without parsing payloads.
 *
 * @param options.namespace Store namespace. Default is `"langgraph"`.
 * @param options.threadId Only this thread. Default is every thread.
 * @example
 * ```ts
 * for (const t of await langgraphThreads(store)) console.log(t.thread_id, t.count, t.bytes);
 * ```
 */
export async function langgraphThreads(store: CheckpointStore, options: RowsPlace & { threadId?: string } = {}): Promise<LanggraphThreadSummary[]> {
  const namespace = options.namespace ?? LANGGRAPH_NAMESPACE;
  const ids = options.threadId !== undefined ? [options.threadId] : (await store.sessions({ namespace })).map((s) => s.sessionId);
  const out: LanggraphThreadSummary[] = [];
  for (const id of ids) {
    const s = await summary(store, namespace, id);
    if (s) out.push(s);
  }
  return out.sort((a, b) => (a.latest_created_at < b.latest_created_at ? 1 : a.latest_created_at > b.latest_created_at ? -1 : 0));
}
