/**
 * `@session-checkpoint/openai-agents/rows`: reads a session's rows back into the items
 * `CheckpointSession.getItems()` gives, without loading the Agents SDK (no `@openai/*` import,
 * directly or through any module it loads; `rows-imports.test.ts` checks the import graph). The
 * session and these readers share one row format (`src/format/`).
 *
 * @example
 * ```ts
 * import { sessionState } from '@session-checkpoint/openai-agents/rows';
 * const { items } = await sessionState(store, { sessionId: 'user-42' });
 * ```
 *
 * @packageDocumentation
 */
export { agentSessions } from './sessions.js';
export { sessionTimeline, type SessionTimelineOptions } from './timeline.js';
export { sessionState, type SessionStateOptions } from './state.js';
export { AGENTS_NAMESPACE } from '../format/source-refs.js';
export type { RowError, SessionRowsPlace, SessionState, SessionSummary, SessionTimelineEntry, TimelinePage } from './types.js';
