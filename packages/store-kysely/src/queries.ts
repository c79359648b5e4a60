import { MAX_CHECKPOINT_ID, type CheckpointRow, type PruneQuery, type SessionSummaryRow } from '@session-checkpoint/core';
import { sql, type AliasedRawBuilder, type Compilable, type CompiledQuery, type Kysely } from 'kysely';
import { QueryTemplate } from './query-template.js';
import type { CheckpointDatabase } from './schema.js';

/*
 * Every query of the adapter, written once with Kysely's builder for both SQLite and PostgreSQL.
 * The per-call ones (the hot path) are compiled once into templates; the rare ones are built per
 * call. Rows are selected under the camelCase names of `CheckpointRow`, so SQLite rows need no
 * mapping at all.
 */

/** Selected columns of a full row, aliased to the `CheckpointRow` field names. */
const ROW_COLUMNS = [
  'id',
  'namespace',
  'session_id as sessionId',
  'kind',
  'name',
  'payload_json as payloadJson',
  'payload_sha256 as payloadSha256',
  'created_at as createdAt',
  'source_ref as sourceRef',
] as const;

/** Values of an insert: a row without its id. */
export type InsertValues = Omit<CheckpointRow, 'id'>;

/** The inserted columns, in the order of {@link insertSelections}. */
const INSERT_COLUMNS = ['namespace', 'session_id', 'kind', 'name', 'payload_json', 'payload_sha256', 'created_at', 'source_ref'] as const;

/**
 * The values of an insert as a select list, in the order of {@link INSERT_COLUMNS}. Cast, because
 * PostgreSQL cannot infer a parameter's type from a bare select list.
 */
function insertSelections(p: InsertValues) {
  return [
    sql<string>`cast(${p.namespace} as text)`.as('namespace'),
    sql<string>`cast(${p.sessionId} as text)`.as('session_id'),
    sql<string>`cast(${p.kind} as text)`.as('kind'),
    sql<string>`cast(${p.name} as text)`.as('name'),
    sql<string>`cast(${p.payloadJson} as text)`.as('payload_json'),
    sql<string>`cast(${p.payloadSha256} as text)`.as('payload_sha256'),
    sql<string>`cast(${p.createdAt} as text)`.as('created_at'),
    sql<string | null>`cast(${p.sourceRef} as text)`.as('source_ref'),
  ];
}

/** `SELECT <values> WHERE NOT EXISTS (a row holding this source_ref)`: no row when the ref is taken. */
function offered(db: Kysely<CheckpointDatabase>, p: InsertValues, selections: AliasedRawBuilder<unknown, string>[]) {
  return db
    .selectNoFrom(selections)
    .where((eb) =>
      eb.not(
        eb.exists(
          db
            .selectFrom('checkpoints')
            .select(sql.lit(1).as('one'))
            .where('namespace', '=', p.namespace)
            .where('source_ref', '=', p.sourceRef),
        ),
      ),
    );
}

/**
 * The highest id handed out so far, which the next generated id follows: SQLite's AUTOINCREMENT
 * counter or the highest id stored, whichever is higher (as SQLite picks the next one); the
 * PostgreSQL identity sequence's last value. 0 before the first.
 */
function highestId(flavor: 'sqlite' | 'postgres', table: string) {
  return flavor === 'postgres'
    ? sql<number>`coalesce(pg_sequence_last_value(pg_get_serial_sequence(${table}, 'id')::regclass), 0)`
    : sql<number>`max(coalesce((select max("id") from "checkpoints"), 0), coalesce((select "seq" from "sqlite_sequence" where "name" = 'checkpoints'), 0))`;
}

/** A row id as the driver returns it: PostgreSQL `bigint` arrives as a string. */
export interface IdRow {
  id: number | string;
}

/** Bounds of a sourceRef range: `lo <= source_ref < hi`. */
export interface SourceRefRange {
  namespace: string;
  lo: string;
  hi: string;
  /** Only rows of this kind, or `null` for every kind. */
  kind: string | null;
  limit: number;
}

/** The compiled per-call queries of one adapter. */
export interface CheckpointQueries {
  insert: QueryTemplate<InsertValues, IdRow>;
  insertWithId: QueryTemplate<InsertValues & { id: number }, IdRow>;
  getRow: QueryTemplate<{ id: number; namespace: string }, CheckpointRow>;
  getRowAnyNamespace: QueryTemplate<{ id: number }, CheckpointRow>;
  findBySourceRef: QueryTemplate<{ namespace: string; sourceRef: string }, CheckpointRow>;
  /** A sourceRef range `[lo, hi)` in code point order, ascending and descending. */
  sourceRefRangeAsc: QueryTemplate<SourceRefRange, CheckpointRow>;
  sourceRefRangeDesc: QueryTemplate<SourceRefRange, CheckpointRow>;
  /**
   * The same in the column's own collation: served by the unique index, and equal to the above
   * when that collation is byte order (SQLite always; PostgreSQL with a C/POSIX/C.UTF-8 database).
   */
  sourceRefRangeAscNative: QueryTemplate<SourceRefRange, CheckpointRow>;
  sourceRefRangeDescNative: QueryTemplate<SourceRefRange, CheckpointRow>;
  listNamespace: QueryTemplate<{ namespace: string; limit: number; offset: number }, CheckpointRow>;
  listSession: QueryTemplate<{ namespace: string; sessionId: string; limit: number; offset: number }, CheckpointRow>;
  /** Newest row of a session. */
  latest: QueryTemplate<{ namespace: string; sessionId: string }, CheckpointRow>;
  scanStore: QueryTemplate<{ afterId: number; limit: number }, CheckpointRow>;
  scanNamespace: QueryTemplate<{ namespace: string; afterId: number; limit: number }, CheckpointRow>;
  /** The highest id handed out so far (0 before the first), for the error of a create refused at the id limit. */
  highestId: QueryTemplate<object, IdRow>;
  sessions: QueryTemplate<{ namespace: string }, SessionSummaryRow>;
  deleteRow: QueryTemplate<{ id: number; namespace: string }, IdRow>;
  deleteSession: QueryTemplate<{ namespace: string; sessionId: string }, IdRow>;
  /** Retention: deletes every row of the session except the newest `keep`. */
  retain: QueryTemplate<{ namespace: string; sessionId: string; keep: number }, IdRow>;
}

/**
 * Compiles the per-call queries for one Kysely instance (its dialect decides quoting and
 * placeholders; a `withSchema` instance qualifies every table).
 */
export function compileQueries(db: Kysely<CheckpointDatabase>, flavor: 'sqlite' | 'postgres' = 'sqlite', schema = 'public'): CheckpointQueries {
  const refRange = (p: SourceRefRange, direction: 'asc' | 'desc', native = flavor !== 'postgres') => sourceRefRange(db, p, direction, native, p.limit);
  const rows = () => db.selectFrom('checkpoints').select(ROW_COLUMNS);
  const highest = () => highestId(flavor, `"${schema.replaceAll('"', '""')}".checkpoints`);

  return {
    // A row whose source_ref is already taken is never offered to the INSERT (NOT EXISTS), so a
    // refused create consumes no id: SQLite's AUTOINCREMENT counter and PostgreSQL's identity
    // sequence stay where they were, and the next id is the one the Python tool would assign.
    // ON CONFLICT DO NOTHING stays as the backstop for an explicit id already taken and for a
    // concurrent PostgreSQL insert of the same source_ref: it reports the clash as "no row
    // returned" instead of an error, which would abort the caller's PostgreSQL transaction.
    // Nor is a row offered once the ids have reached MAX_CHECKPOINT_ID (2^53 - 1): the next one
    // would not survive the trip through a JavaScript number, so the create is refused and
    // nothing is written (the adapter then reports the limit, see highestId).
    insert: QueryTemplate.compile((p) =>
      db
        .insertInto('checkpoints')
        .columns(INSERT_COLUMNS)
        .expression(offered(db, p, insertSelections(p)).where(highest(), '<', sql.lit(MAX_CHECKPOINT_ID)))
        .onConflict((oc) => oc.doNothing())
        .returning('id'),
    ),
    highestId: QueryTemplate.compile(() => db.selectNoFrom(highest().as('id'))),
    insertWithId: QueryTemplate.compile((p) =>
      db
        .insertInto('checkpoints')
        .columns(['id', ...INSERT_COLUMNS])
        .expression(offered(db, p, [sql<number>`cast(${p.id} as bigint)`.as('id'), ...insertSelections(p)]))
        .onConflict((oc) => oc.doNothing())
        .returning('id'),
    ),
    getRow: QueryTemplate.compile((p) => rows().where('id', '=', p.id).where('namespace', '=', p.namespace)),
    getRowAnyNamespace: QueryTemplate.compile((p) => rows().where('id', '=', p.id)),
    findBySourceRef: QueryTemplate.compile((p) =>
      rows().where('namespace', '=', p.namespace).where('source_ref', '=', p.sourceRef),
    ),
    sourceRefRangeAsc: QueryTemplate.compile((p) => refRange(p, 'asc')),
    sourceRefRangeDesc: QueryTemplate.compile((p) => refRange(p, 'desc')),
    sourceRefRangeAscNative: QueryTemplate.compile((p) => refRange(p, 'asc', true)),
    sourceRefRangeDescNative: QueryTemplate.compile((p) => refRange(p, 'desc', true)),
    listNamespace: QueryTemplate.compile((p) =>
      rows()
        .where('namespace', '=', p.namespace)
        .orderBy('created_at', 'desc')
        .orderBy('id', 'desc')
        .limit(p.limit)
        .offset(p.offset),
    ),
    listSession: QueryTemplate.compile((p) =>
      rows()
        .where('namespace', '=', p.namespace)
        .where('session_id', '=', p.sessionId)
        .orderBy('created_at', 'desc')
        .orderBy('id', 'desc')
        .limit(p.limit)
        .offset(p.offset),
    ),
    // A literal LIMIT 1: with a bound limit SQLite reads about three times slower here (measured).
    latest: QueryTemplate.compile((p) =>
      rows()
        .where('namespace', '=', p.namespace)
        .where('session_id', '=', p.sessionId)
        .orderBy('created_at', 'desc')
        .orderBy('id', 'desc')
        .limit(sql.lit(1)),
    ),
    scanStore: QueryTemplate.compile((p) => rows().where('id', '>', p.afterId).orderBy('id').limit(p.limit)),
    scanNamespace: QueryTemplate.compile((p) =>
      rows().where('namespace', '=', p.namespace).where('id', '>', p.afterId).orderBy('id').limit(p.limit),
    ),
    sessions: QueryTemplate.compile<{ namespace: string }, SessionSummaryRow>((p) =>
      db
        .selectFrom((eb) =>
          eb
            .selectFrom('checkpoints')
            .where('namespace', '=', p.namespace)
            .select([
              'session_id',
              'created_at',
              'id',
              sql<number>`cast(count(*) over (partition by session_id) as integer)`.as('count'),
              sql<number>`row_number() over (partition by session_id order by created_at desc, id desc)`.as('rank'),
            ])
            .as('s'),
        )
        .where('rank', '=', 1)
        .select(['session_id as sessionId', 'count', 'created_at as latestCreatedAt', 'id as latestId'])
        .orderBy('created_at', 'desc')
        .orderBy('id', 'desc'),
    ),
    deleteRow: QueryTemplate.compile((p) =>
      db.deleteFrom('checkpoints').where('id', '=', p.id).where('namespace', '=', p.namespace).returning('id'),
    ),
    deleteSession: QueryTemplate.compile((p) =>
      db.deleteFrom('checkpoints').where('namespace', '=', p.namespace).where('session_id', '=', p.sessionId).returning('id'),
    ),
    retain: QueryTemplate.compile((p) =>
      db
        .deleteFrom('checkpoints')
        .where('namespace', '=', p.namespace)
        .where('session_id', '=', p.sessionId)
        .where('id', 'not in', (eb) =>
          eb
            .selectFrom('checkpoints')
            .select('id')
            .where('namespace', '=', p.namespace)
            .where('session_id', '=', p.sessionId)
            .orderBy('created_at', 'desc')
            .orderBy('id', 'desc')
            .limit(p.keep),
        )
        .returning('id'),
    ),
  };
}

/**
 * A sourceRef range `[lo, hi)` ordered by source_ref, in the column's own collation (`native`,
 * served by the unique index) or in code point order (`collate "C"`, PostgreSQL only), with `limit`
 * either a placeholder or a number written into the SQL text as a literal.
 */
function sourceRefRange(
  db: Kysely<CheckpointDatabase>,
  p: Omit<SourceRefRange, 'limit'>,
  direction: 'asc' | 'desc',
  native: boolean,
  limit: number | ReturnType<typeof sql.lit<number>>,
) {
  // SQLite's BINARY collation is code point order already and keeps the unique index usable; on
  // PostgreSQL the database collation may be linguistic, so the range and order say "C".
  const column = native ? sql<string>`source_ref` : sql<string>`source_ref collate "C"`;
  return db
    .selectFrom('checkpoints')
    .select(ROW_COLUMNS)
    .where('namespace', '=', p.namespace)
    .where(column, '>=', p.lo)
    .where(column, '<', p.hi)
    // One statement for both: `kind` is checked on the row before its payload is read (SQLite
    // reads a column only when asked, PostgreSQL detoasts only what it returns).
    .where((eb) => eb.or([eb(eb.cast(eb.val(p.kind), 'text'), 'is', null), eb('kind', '=', p.kind as string)]))
    .orderBy(column, direction)
    .limit(limit);
}

/**
 * The native-collation sourceRef range with its LIMIT written as a literal, as the builder writes
 * it. On SQLite a bound LIMIT makes this range read about three times slower than the same
 * statement with a literal one (24 against 62-74 us for a one-checkpoint range in a better-sqlite3
 * test; the same holds for `latest`). The adapter derives these from the bound-LIMIT templates
 * (`QueryTemplate#withLiteralLimit`, no builder needed); this form is what a test checks that
 * derivation against.
 */
export function sourceRefRangeWithLimit(
  db: Kysely<CheckpointDatabase>,
  direction: 'asc' | 'desc',
  limit: number,
): QueryTemplate<Omit<SourceRefRange, 'limit'>, CheckpointRow> {
  if (!Number.isSafeInteger(limit) || limit < 0) throw new RangeError('limit must be a non-negative safe integer');
  return QueryTemplate.compile((p) => sourceRefRange(db, p, direction, true, sql.lit(limit)));
}

/** Where {@link sourceRefAtTemplate} looks: a range as {@link SourceRefRange} has it, and how many rows to pass over. */
export type SourceRefPosition = Omit<SourceRefRange, 'limit'> & { offset: number };

/**
 * The sourceRef `offset` rows into a range (`LIMIT 1 OFFSET ?`): the index walks past the rows
 * before it without their payloads being read. Compiled once per direction and collation by the
 * adapter, on first use.
 */
export function sourceRefAtTemplate(db: Kysely<CheckpointDatabase>, direction: 'asc' | 'desc', native: boolean): QueryTemplate<SourceRefPosition, { sourceRef: string }> {
  const column = native ? sql<string>`source_ref` : sql<string>`source_ref collate "C"`;
  return QueryTemplate.compile<SourceRefPosition, { sourceRef: string }>((p) =>
    db
      .selectFrom('checkpoints')
      .select(sql<string>`source_ref`.as('sourceRef'))
      .where('namespace', '=', p.namespace)
      .where(column, '>=', p.lo)
      .where(column, '<', p.hi)
      .where((eb) => eb.or([eb(eb.cast(eb.val(p.kind), 'text'), 'is', null), eb('kind', '=', p.kind as string)]))
      .orderBy(column, direction)
      // A literal LIMIT: SQLite plans a bound one slower (see sourceRefRangeWithLimit).
      .limit(sql.lit(1))
      .offset(p.offset),
  );
}

/** The shape of one range of {@link sourceRefRangesTemplate}: its order. */
export interface SourceRefRangeShape {
  direction: 'asc' | 'desc';
}

/** A row of {@link sourceRefRangesTemplate}: the row and which range (its index) it belongs to. */
export type RangedRow = CheckpointRow & { range: number };

/**
 * Several sourceRef ranges in one statement: per range `k` (parameters `namespace{k}`, `lo{k}`,
 * `hi{k}`, `kind{k}`, `limit{k}`, `offset{k}`) the range as {@link sourceRefRange} reads it with a
 * bound LIMIT and OFFSET, tagged with `k`, joined by UNION ALL. UNION ALL promises no order, so
 * the adapter groups the rows by their tag and orders each group itself. Compiled once per shape
 * (the ranges' orders) and collation by the adapter, on first use. The LIMIT is bound, not
 * literal, so that callers' limits never multiply the SQL texts (SQLite's statement cache keeps
 * the first 64 it sees for good).
 */
export function sourceRefRangesTemplate(db: Kysely<CheckpointDatabase>, shapes: readonly SourceRefRangeShape[], native: boolean): QueryTemplate<Record<string, string | number | null>, RangedRow> {
  return QueryTemplate.compile<Record<string, string | number | null>, RangedRow>((p) => {
    const arm = (k: number) => {
      const range = { namespace: p[`namespace${k}`], lo: p[`lo${k}`], hi: p[`hi${k}`], kind: p[`kind${k}`] } as Omit<SourceRefRange, 'limit'>;
      const shape = shapes[k] as SourceRefRangeShape;
      const inner = sourceRefRange(db, range, shape.direction, native, p[`limit${k}`] as number)
        .select(sql.lit(k).as('range'))
        .offset(p[`offset${k}`] as number);
      return db.selectFrom(inner.as(`r${k}`)).selectAll();
    };
    let query = arm(0);
    for (let k = 1; k < shapes.length; k++) query = query.unionAll(arm(k));
    return query as unknown as Compilable<RangedRow>;
  });
}

/** Ids selected by a prune query, ascending. Built per call: prune is rare and has many shapes. */
export function prunableQuery(db: Kysely<CheckpointDatabase>, query: PruneQuery): CompiledQuery<IdRow> {
  let ranked = db
    .selectFrom('checkpoints')
    .where('namespace', '=', query.namespace)
    .select(['id', 'created_at', sql<number>`row_number() over (partition by session_id order by created_at desc, id desc)`.as('rank')]);
  if (query.sessionId !== undefined) ranked = ranked.where('session_id', '=', query.sessionId);
  let selected = db.selectFrom(ranked.as('r')).select('id');
  if (query.keepLatest !== undefined) selected = selected.where('rank', '>', query.keepLatest);
  if (query.olderThan !== undefined) selected = selected.where('created_at', '<', query.olderThan);
  return selected.orderBy('id').compile();
}

/**
 * The rows holding these source refs in a namespace (one `IN` list, served by the unique index).
 * Built per call; callers pad `refs` to a few fixed lengths so that SQLite's statement cache
 * sees a few SQL texts only.
 */
export function bySourceRefsQuery(db: Kysely<CheckpointDatabase>, namespace: string, refs: readonly string[]): CompiledQuery<CheckpointRow> {
  return db.selectFrom('checkpoints').select(ROW_COLUMNS).where('namespace', '=', namespace).where('source_ref', 'in', refs).compile();
}

/** Deletes these ids within a namespace, returning the ids that went. Built per call (variable length). */
export function deleteIdsQuery(db: Kysely<CheckpointDatabase>, ids: readonly number[], namespace: string): CompiledQuery<IdRow> {
  return db.deleteFrom('checkpoints').where('namespace', '=', namespace).where('id', 'in', ids).returning('id').compile();
}
