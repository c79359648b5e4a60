import type { CheckpointStore } from '@session-checkpoint/core';
import { rowEntries } from '../format/item-codec.js';
import { AGENTS_NAMESPACE, itemPrefix, seqOfRef, sessionPrefix } from '../format/source-refs.js';
import { rawRange, utf8Length } from '@session-checkpoint/core/toolkit';
import type { SessionRowsPlace, SessionSummary } from './types.js';

/** Rows per range read of a listing. */
const PAGE = 1000;

/**
 * The summary of one session, or `undefined` when it has no item rows. Rows are counted as
 * stored; only the newest item row is parsed (positions are dense, so the item count is the
 * newest row's end less the oldest row's position).
 */
async function summary(store: CheckpointStore, namespace: string, sessionId: string): Promise<SessionSummary | undefined> {
  const prefix = sessionPrefix(sessionId);
  const items = itemPrefix(sessionId);
  let bytes = 0;
  let first: string | undefined;
  let latest: string | undefined;
  let oldestSeq: number | undefined;
  let newest: { seq: number; row: Parameters<typeof rowEntries>[0] } | undefined;
  let after: string | undefined;
  for (;;) {
    const page = await rawRange(store, { namespace, prefix, limit: PAGE, ...(after === undefined ? {} : { after }) });
    for (const row of page) {
      bytes += utf8Length(row.payloadJson);
      const at = String(row.createdAt);
      if (first === undefined || at < first) first = at;
      if (latest === undefined || at > latest) latest = at;
      if (typeof row.sourceRef === 'string' && row.sourceRef.startsWith(items)) {
        const seq = seqOfRef(row.sourceRef);
        oldestSeq ??= seq;
        newest = { seq, row: { sessionId, id: Number(row.id), sourceRef: row.sourceRef, kind: String(row.kind), payloadJson: String(row.payloadJson) } };
      }
    }
    if (page.length < PAGE) break;
    after = page[page.length - 1]?.sourceRef ?? undefined;
    if (after === undefined) break;
  }
  if (newest === undefined || oldestSeq === undefined || first === undefined || latest === undefined) return undefined;
  let count: number;
  try {
    count = newest.seq + rowEntries(newest.row).entries.length - oldestSeq;
  } catch {
    count = newest.seq + 1 - oldestSeq; // a damaged newest row: its items are unknown here (the timeline names it)
  }
  return { family: 'openai-agents', namespace, thread_id: sessionId, checkpoint_ns: [''], count, bytes, first_created_at: first, latest_created_at: latest };
}

/**
 * The OpenAI Agents sessions of a store namespace (sessions with item rows), most recently active
 * first, with their item count, stored bytes and first and latest row time. Reads each session's
 * rows once, parsing only its newest item row.
 *
 * @param options.namespace Default is `"openai-agents"`.
 * @param options.sessionId Only this session. Default is every session.
 * @example
 * ```ts
 * for (const s of await agentSessions(store)) console.log(s.thread_id, s.count);
 * ```
 */
export async function agentSessions(store: CheckpointStore, options: SessionRowsPlace & { sessionId?: string } = {}): Promise<SessionSummary[]> {
  const namespace = options.namespace ?? AGENTS_NAMESPACE;
  const ids = options.sessionId !== undefined ? [options.sessionId] : (await store.sessions({ namespace })).map((s) => s.sessionId);
  const out: SessionSummary[] = [];
  for (const id of ids) {
    const s = await summary(store, namespace, id);
    if (s) out.push(s);
  }
  return out.sort((a, b) => (a.latest_created_at < b.latest_created_at ? 1 : a.latest_created_at > b.latest_created_at ? -1 : 0));
}
