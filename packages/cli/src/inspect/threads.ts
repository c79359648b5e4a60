import { CheckpointNotFoundError, CheckpointValidationError, type CheckpointStore } from '@session-checkpoint/core';
import { langgraphThreads, langgraphTimeline } from '@session-checkpoint/langgraph/rows';
import { agentSessions, sessionTimeline } from '@session-checkpoint/openai-agents/rows';
import { DEFAULT_NAMESPACES } from './families.js';
import { FRAMEWORK_FAMILIES, FRAMEWORK_KIND_PREFIXES, frameworkHolds, frameworkThreads, isFrameworkFamily } from './framework-families.js';
import { plainSummary } from './plain-rows.js';
import { FAMILIES, type Family, type ThreadSelector, type ThreadSummary } from './types.js';

/**
 * The threads and sessions of a store, most recently active first. With `namespace`, the threads
 * of every family in that store namespace; without, those of each family's default namespace
 * (`langgraph`, `openai-agents`, `ai-sdk-chats`, `mastra`, and `default` for plain checkpoints).
 * A session of plain checkpoints is one whose rows no family claims.
 *
 * @example
 * ```ts
 * await listThreads(store, { namespace: 'chat' }); // [{ family: 'langgraph', thread_id: 't-1', count: 42, ... }]
 * ```
 */
export async function listThreads(store: CheckpointStore, options: { namespace?: string } = {}): Promise<ThreadSummary[]> {
  const ns = (family: Family) => options.namespace ?? DEFAULT_NAMESPACES[family];
  const out: ThreadSummary[] = [...(await langgraphThreads(store, { namespace: ns('langgraph') })), ...(await agentSessions(store, { namespace: ns('openai-agents') }))];
  for (const family of FRAMEWORK_FAMILIES) out.push(...(await frameworkThreads(store, family, ns(family))));
  const claimed = new Set(out.filter((t) => t.namespace === ns('checkpoints')).map((t) => t.thread_id));
  for (const s of await store.sessions({ namespace: ns('checkpoints') })) {
    if (claimed.has(s.sessionId)) continue;
    if (frameworkRow(await firstRow(store, ns('checkpoints'), s.sessionId))) continue;
    const summary = await plainSummary(store, ns('checkpoints'), s.sessionId);
    if (summary) out.push(summary);
  }
  // Stable: families keep their order among threads active at the same second.
  return out.sort((a, b) => (a.latest_created_at < b.latest_created_at ? 1 : a.latest_created_at > b.latest_created_at ? -1 : 0));
}

/** A session's first row (unverified: only its kind is looked at), or `undefined` for no row. */
async function firstRow(store: CheckpointStore, namespace: string, sessionId: string): Promise<{ kind: unknown } | undefined> {
  return (await store.adapter.listRows({ namespace, sessionId, limit: 1, offset: 0 }))[0];
}

/** True when a session's first row is a framework package's (a Mastra resource, an AI SDK part): not a plain session. */
function frameworkRow(first: { kind: unknown } | undefined): boolean {
  return first !== undefined && FRAMEWORK_KIND_PREFIXES.some((p) => String(first.kind).startsWith(p));
}

/** True when `family` holds the thread in `namespace` (one small range read). */
async function holds(store: CheckpointStore, family: Family, namespace: string, threadId: string, checkpointNs?: string): Promise<boolean> {
  if (isFrameworkFamily(family)) return frameworkHolds(store, family, namespace, threadId, checkpointNs);
  if (family === 'langgraph') return (await langgraphTimeline(store, { namespace, threadId, checkpointNs: checkpointNs ?? '', limit: 1 })).entries.length > 0;
  if (family === 'openai-agents') return (await sessionTimeline(store, { namespace, sessionId: threadId, limit: 1 })).entries.length > 0;
  if ((await langgraphTimeline(store, { namespace, threadId, limit: 1 })).entries.length > 0) return false;
  if ((await sessionTimeline(store, { namespace, sessionId: threadId, limit: 1 })).entries.length > 0) return false;
  // One read of the first row: there is one, and it is not a framework package's.
  const first = await firstRow(store, namespace, threadId);
  return first !== undefined && !frameworkRow(first);
}

/**
 * The family and store namespace of a thread: `selector.family` when given, else the one family
 * whose rows hold the thread.
 *
 * @throws CheckpointNotFoundError when no family holds it; CheckpointValidationError (naming the
 *   families) when several do and `family` is not given.
 * @example
 * ```ts
 * await resolveFamily(store, { threadId: 'chat-1' }); // { family: 'langgraph', namespace: 'langgraph' }
 * ```
 */
export async function resolveFamily(store: CheckpointStore, selector: ThreadSelector): Promise<{ family: Family; namespace: string }> {
  if (selector.family !== undefined && !FAMILIES.includes(selector.family)) throw new CheckpointValidationError(`family must be one of ${FAMILIES.join(', ')}`);
  const candidates = selector.family !== undefined ? [selector.family] : FAMILIES;
  const found: { family: Family; namespace: string }[] = [];
  for (const family of candidates) {
    const namespace = selector.namespace ?? DEFAULT_NAMESPACES[family];
    if (await holds(store, family, namespace, selector.threadId, selector.checkpointNs)) found.push({ family, namespace });
  }
  const [one] = found;
  if (found.length === 1 && one) return one;
  const where = selector.namespace === undefined ? 'the default namespaces' : `namespace '${selector.namespace}'`;
  if (found.length === 0) throw new CheckpointNotFoundError(`no ${selector.family ?? 'thread or session'} '${selector.threadId}' in ${where}`);
  throw new CheckpointValidationError(`'${selector.threadId}' names threads of several families (${found.map((f) => `${f.family} in namespace '${f.namespace}'`).join(', ')}); choose one with --family`);
}
