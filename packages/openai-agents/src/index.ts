/**
 * @session-checkpoint/openai-agents: durable, verified sessions for the OpenAI Agents JS SDK over a
 * session-checkpoint store (SQLite, PostgreSQL, memory or any adapter).
 *
 * @example
 * ```ts
 * import { CheckpointSession } from '@session-checkpoint/openai-agents';
 * const session = new CheckpointSession(await openSqliteStore('agents.db'), { sessionId: 'user-42' });
 * await run(agent, 'Hello', { session });
 * ```
 *
 * @packageDocumentation
 */
export { CheckpointSession, DEFAULT_NAMESPACE, type CheckpointSessionOptions } from './checkpoint-session.js';
export { expireIdleSessions, scheduleSessionExpiry, type SessionExpiryOptions } from './idle-expiry.js';
export { ITEM_KIND, type ItemPayload } from './format/item-codec.js';
export { PART_KIND, type PartPayload } from './format/item-parts.js';
export { OPERATION_KIND, type OperationPayload } from './history-transaction.js';
