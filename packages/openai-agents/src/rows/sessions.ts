import type { CheckpointStore } from '@session-checkpoint/core';
import type { SessionRowsPlace, SessionSummary } from './types.js';

/**
 * The OpenAI Agents sessions of a store namespace (sessions with item rows), most recently active
 * first, with their item count and bytes. Reads every row of those sessions once.
 *
 * @param options.namespace Default is `"openai-agents"`.
 * @param options.sessionId Only this session. Default is every session.
 * @example
 * ```ts
 * for (const s of await agentSessions(store)) console.log(s.thread_id, s.count);
 * ```
 */
export async function agentSessions(store: CheckpointStore, options: SessionRowsPlace & { sessionId?: string } = {}): Promise<SessionSummary[]> {
  void store;
  void options;
  throw new Error('not yet');
}
