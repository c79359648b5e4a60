// Generated from compileQueries (src/queries.ts) by src/sqlite/freeze-queries.test.ts: do not edit.
// Regenerate after changing a query: npx vitest run src/sqlite/freeze-queries.test.ts --update (in packages/store-kysely)
import type { CheckpointQueries } from '../queries.js';
import type { FrozenQuery } from '../query-template.js';

/**
 * The SQLite SQL text and parameter slots of every hot query, as Kysely compiles them. The SQLite
 * front door builds its templates from this table, so opening and using a store never loads
 * Kysely; a test compiles the builder code and requires this file to match it byte for byte.
 */
export const SQLITE_QUERY_PARTS: { readonly [K in keyof CheckpointQueries]: FrozenQuery } = {
  insert: {
    sql: 'insert into "checkpoints" ("namespace", "session_id", "kind", "name", "payload_json", "payload_sha256", "created_at", "source_ref") select cast(? as text) as "namespace", cast(? as text) as "session_id", cast(? as text) as "kind", cast(? as text) as "name", cast(? as text) as "payload_json", cast(? as text) as "payload_sha256", cast(? as text) as "created_at", cast(? as text) as "source_ref" where not exists (select 1 as "one" from "checkpoints" where "namespace" = ? and "source_ref" = ?) and max(coalesce((select max("id") from "checkpoints"), 0), coalesce((select "seq" from "sqlite_sequence" where "name" = \'checkpoints\'), 0)) < 9007199254740991 on conflict do nothing returning "id"',
    slots: [{ name: 'namespace' }, { name: 'sessionId' }, { name: 'kind' }, { name: 'name' }, { name: 'payloadJson' }, { name: 'payloadSha256' }, { name: 'createdAt' }, { name: 'sourceRef' }, { name: 'namespace' }, { name: 'sourceRef' }],
  },
  highestId: {
    sql: 'select max(coalesce((select max("id") from "checkpoints"), 0), coalesce((select "seq" from "sqlite_sequence" where "name" = \'checkpoints\'), 0)) as "id"',
    slots: [],
  },
  insertWithId: {
    sql: 'insert into "checkpoints" ("id", "namespace", "session_id", "kind", "name", "payload_json", "payload_sha256", "created_at", "source_ref") select cast(? as bigint) as "id", cast(? as text) as "namespace", cast(? as text) as "session_id", cast(? as text) as "kind", cast(? as text) as "name", cast(? as text) as "payload_json", cast(? as text) as "payload_sha256", cast(? as text) as "created_at", cast(? as text) as "source_ref" where not exists (select 1 as "one" from "checkpoints" where "namespace" = ? and "source_ref" = ?) on conflict do nothing returning "id"',
    slots: [{ name: 'id' }, { name: 'namespace' }, { name: 'sessionId' }, { name: 'kind' }, { name: 'name' }, { name: 'payloadJson' }, { name: 'payloadSha256' }, { name: 'createdAt' }, { name: 'sourceRef' }, { name: 'namespace' }, { name: 'sourceRef' }],
  },
  getRow: {
    sql: 'select "id", "namespace", "session_id" as "sessionId", "kind", "name", "payload_json" as "payloadJson", "payload_sha256" as "payloadSha256", "created_at" as "createdAt", "source_ref" as "sourceRef" from "checkpoints" where "id" = ? and "namespace" = ?',
    slots: [{ name: 'id' }, { name: 'namespace' }],
  },
  getRowAnyNamespace: {
    sql: 'select "id", "namespace", "session_id" as "sessionId", "kind", "name", "payload_json" as "payloadJson", "payload_sha256" as "payloadSha256", "created_at" as "createdAt", "source_ref" as "sourceRef" from "checkpoints" where "id" = ?',
    slots: [{ name: 'id' }],
  },
  findBySourceRef: {
    sql: 'select "id", "namespace", "session_id" as "sessionId", "kind", "name", "payload_json" as "payloadJson", "payload_sha256" as "payloadSha256", "created_at" as "createdAt", "source_ref" as "sourceRef" from "checkpoints" where "namespace" = ? and "source_ref" = ?',
    slots: [{ name: 'namespace' }, { name: 'sourceRef' }],
  },
  sourceRefRangeAsc: {
    sql: 'select "id", "namespace", "session_id" as "sessionId", "kind", "name", "payload_json" as "payloadJson", "payload_sha256" as "payloadSha256", "created_at" as "createdAt", "source_ref" as "sourceRef" from "checkpoints" where "namespace" = ? and source_ref >= ? and source_ref < ? and (cast(? as text) is null or "kind" = ?) order by source_ref asc limit ?',
    slots: [{ name: 'namespace' }, { name: 'lo' }, { name: 'hi' }, { name: 'kind' }, { name: 'kind' }, { name: 'limit' }],
  },
  sourceRefRangeDesc: {
    sql: 'select "id", "namespace", "session_id" as "sessionId", "kind", "name", "payload_json" as "payloadJson", "payload_sha256" as "payloadSha256", "created_at" as "createdAt", "source_ref" as "sourceRef" from "checkpoints" where "namespace" = ? and source_ref >= ? and source_ref < ? and (cast(? as text) is null or "kind" = ?) order by source_ref desc limit ?',
    slots: [{ name: 'namespace' }, { name: 'lo' }, { name: 'hi' }, { name: 'kind' }, { name: 'kind' }, { name: 'limit' }],
  },
  sourceRefRangeAscNative: {
    sql: 'select "id", "namespace", "session_id" as "sessionId", "kind", "name", "payload_json" as "payloadJson", "payload_sha256" as "payloadSha256", "created_at" as "createdAt", "source_ref" as "sourceRef" from "checkpoints" where "namespace" = ? and source_ref >= ? and source_ref < ? and (cast(? as text) is null or "kind" = ?) order by source_ref asc limit ?',
    slots: [{ name: 'namespace' }, { name: 'lo' }, { name: 'hi' }, { name: 'kind' }, { name: 'kind' }, { name: 'limit' }],
  },
  sourceRefRangeDescNative: {
    sql: 'select "id", "namespace", "session_id" as "sessionId", "kind", "name", "payload_json" as "payloadJson", "payload_sha256" as "payloadSha256", "created_at" as "createdAt", "source_ref" as "sourceRef" from "checkpoints" where "namespace" = ? and source_ref >= ? and source_ref < ? and (cast(? as text) is null or "kind" = ?) order by source_ref desc limit ?',
    slots: [{ name: 'namespace' }, { name: 'lo' }, { name: 'hi' }, { name: 'kind' }, { name: 'kind' }, { name: 'limit' }],
  },
  listNamespace: {
    sql: 'select "id", "namespace", "session_id" as "sessionId", "kind", "name", "payload_json" as "payloadJson", "payload_sha256" as "payloadSha256", "created_at" as "createdAt", "source_ref" as "sourceRef" from "checkpoints" where "namespace" = ? order by "created_at" desc, "id" desc limit ? offset ?',
    slots: [{ name: 'namespace' }, { name: 'limit' }, { name: 'offset' }],
  },
  listSession: {
    sql: 'select "id", "namespace", "session_id" as "sessionId", "kind", "name", "payload_json" as "payloadJson", "payload_sha256" as "payloadSha256", "created_at" as "createdAt", "source_ref" as "sourceRef" from "checkpoints" where "namespace" = ? and "session_id" = ? order by "created_at" desc, "id" desc limit ? offset ?',
    slots: [{ name: 'namespace' }, { name: 'sessionId' }, { name: 'limit' }, { name: 'offset' }],
  },
  latest: {
    sql: 'select "id", "namespace", "session_id" as "sessionId", "kind", "name", "payload_json" as "payloadJson", "payload_sha256" as "payloadSha256", "created_at" as "createdAt", "source_ref" as "sourceRef" from "checkpoints" where "namespace" = ? and "session_id" = ? order by "created_at" desc, "id" desc limit 1',
    slots: [{ name: 'namespace' }, { name: 'sessionId' }],
  },
  scanStore: {
    sql: 'select "id", "namespace", "session_id" as "sessionId", "kind", "name", "payload_json" as "payloadJson", "payload_sha256" as "payloadSha256", "created_at" as "createdAt", "source_ref" as "sourceRef" from "checkpoints" where "id" > ? order by "id" limit ?',
    slots: [{ name: 'afterId' }, { name: 'limit' }],
  },
  scanNamespace: {
    sql: 'select "id", "namespace", "session_id" as "sessionId", "kind", "name", "payload_json" as "payloadJson", "payload_sha256" as "payloadSha256", "created_at" as "createdAt", "source_ref" as "sourceRef" from "checkpoints" where "namespace" = ? and "id" > ? order by "id" limit ?',
    slots: [{ name: 'namespace' }, { name: 'afterId' }, { name: 'limit' }],
  },
  sessions: {
    sql: 'select "session_id" as "sessionId", "count", "created_at" as "latestCreatedAt", "id" as "latestId" from (select "session_id", "created_at", "id", cast(count(*) over (partition by session_id) as integer) as "count", row_number() over (partition by session_id order by created_at desc, id desc) as "rank" from "checkpoints" where "namespace" = ?) as "s" where "rank" = ? order by "created_at" desc, "id" desc',
    slots: [{ name: 'namespace' }, { value: 1 }],
  },
  deleteRow: {
    sql: 'delete from "checkpoints" where "id" = ? and "namespace" = ? returning "id"',
    slots: [{ name: 'id' }, { name: 'namespace' }],
  },
  deleteSession: {
    sql: 'delete from "checkpoints" where "namespace" = ? and "session_id" = ? returning "id"',
    slots: [{ name: 'namespace' }, { name: 'sessionId' }],
  },
  retain: {
    sql: 'delete from "checkpoints" where "namespace" = ? and "session_id" = ? and "id" not in (select "id" from "checkpoints" where "namespace" = ? and "session_id" = ? order by "created_at" desc, "id" desc limit ?) returning "id"',
    slots: [{ name: 'namespace' }, { name: 'sessionId' }, { name: 'namespace' }, { name: 'sessionId' }, { name: 'keep' }],
  },
};
