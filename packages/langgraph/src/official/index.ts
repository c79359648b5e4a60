/**
 * `@session-checkpoint/langgraph/official`: reads the stores of LangGraph's official savers where
 * they are (a SqliteSaver file, a PostgresSaver database and schema), read-only, without loading
 * LangGraph or LangChain (no `@langchain/*` import, directly or through any module it loads;
 * tools/lint's rows-imports test checks the import graph). Values are decoded from the
 * serializer's documented JSON form and returned in the same shapes as `./rows` (threads, timeline
 * pages, states, writes), so the CLI and the viewer show them alike. The official stores keep no
 * hash: every answer is marked `source` and `verified: false` (timeline status `"unverified"`).
 *
 * @example
 * ```ts
 * import { openOfficialStore, officialState } from '@session-checkpoint/langgraph/official';
 * const store = await openOfficialStore('sqlite:checkpoints.db');
 * try { console.log((await officialState(store, { threadId: 'chat-1' })).values); } finally { await store.close(); }
 * ```
 *
 * @packageDocumentation
 */
export { openOfficialStore, officialStoreOver, type OfficialConnection, type OfficialKind, type OfficialRow, type OfficialStore, type OpenOfficialStoreOptions } from './open.js';
export { officialChannelValues, officialCheckpoint, officialState, officialThreads, officialTimeline, officialWrites, sourceOf, type OfficialCheckpoint, type OfficialSelector, type OfficialTimelineOptions, type OfficialWrite } from './reader.js';
export { decodeStored, decodeStoredValue, jsonFormOf, type DecodedValue, type ValuePlace } from './decode.js';
export { UndecodableValueError } from './errors.js';
export { officialStoreStats, OUR_ROW_OVERHEAD, type OfficialStoreStats, type OfficialThreadStats } from './stats.js';
