import {
  CheckpointAdapterBase,
  CheckpointConflictError,
  CheckpointError,
  idLimitError,
  MAX_CHECKPOINT_ID,
  type AdapterCapabilities,
  type CheckpointAdapter,
  type CheckpointRow,
  type InsertOptions,
  type InsertPrecondition,
  type InsertResult,
  type ListRowsQuery,
  type MetaChange,
  type MetaEntry,
  type MetaSwap,
  type NewCheckpointRow,
  type PruneQuery,
  type ScanRowsQuery,
  type SessionStatsQuery,
  type SessionStatsRow,
  type SessionSummaryRow,
  type StorageReport,
  type SourceRefPositionQuery,
  type SourceRefRangeQuery,
  type SourceRefPrefixQuery,
} from '@session-checkpoint/core';
import { batchClashError, compareCodePoints, firstBatchClash, isIdLimitError, runInTransaction, sourceRefBounds } from '@session-checkpoint/core/toolkit';
import type { CompiledQuery, Kysely } from 'kysely';
import { KyselyConnection, type AdapterConnection, type QueryRunner } from './adapter-connection.js';
import { appendConditionalInsertParameters, conditionalInsertShape, conditionalInsertSql } from './conditional-insert-sql.js';
import { deleteIdsSql, INSERT_MANY_CHUNK, insertManyIfPresentParameters, insertManyIfPresentSql, insertManyParameters, insertManySql, insertTable } from './insert-many-sql.js';
import { rawQuery } from './raw-query.js';
import { changeMetaQuery, claimMetaQuery, listMetaQuery, readMetaQuery, swapInsertParameters, swapInsertSql } from './meta-entries.js';
import type { PostgresStatements } from './postgres/postgres-statements.js';
import type { CheckpointQueries, IdRow, InsertValues, RangedRow, SourceRefPosition, SourceRefRange } from './queries.js';
import type { QueryTemplate } from './query-template.js';
import type { CheckpointDatabase } from './schema.js';
import { detectFlavor, type SqlFlavor } from './sql-flavor.js';

/*
 * This module must not load Kysely (only its types): the package's main entry exports the class,
 * and the SQLite front door builds it from frozen templates so that opening a store never evaluates
 * Kysely. Whatever needs Kysely's builder (compiling templates for a caller's instance, the
 * PostgreSQL statements, the per-call queries) is loaded with `import()` when first needed.
 */

/** Options of {@link KyselyAdapter}. */
export interface KyselyAdapterOptions {
  /** SQL dialect. Default is detected from the Kysely instance's dialect. */
  flavor?: SqlFlavor;
  /**
   * PostgreSQL schema holding the tables; every query is qualified with it. Default is
   * `"public"`. Ignored on SQLite.
   */
  schema?: string;
  /**
   * What the adapter promises; flags left out keep their defaults. Default is
   * `{ multiProcess: true, persistent: true }`, and `concurrentTransactions` on PostgreSQL only
   * (SQLite callers wait for an open transaction).
   */
  capabilities?: Partial<AdapterCapabilities>;
  /**
   * Destroy the Kysely instance on `close()`. Default is `false`: whoever created it owns it.
   * Ignored when `connection` is given.
   */
  ownsDatabase?: boolean;
  /** Advanced: the path to the database. Default is Kysely's executor ({@link KyselyConnection}). */
  connection?: AdapterConnection;
}

/** State shared by an adapter and the adapters bound to its transactions. */
interface Shared {
  readonly connection: AdapterConnection;
  readonly flavor: SqlFlavor;
  /** The hot queries; set before any statement runs (see `ready`), so read them only in a runner callback. */
  queries: CheckpointQueries;
  /**
   * Pending while the templates for a caller's Kysely instance are compiled (their module is
   * loaded on demand); `undefined` once they are there, and for the front doors' adapters.
   */
  ready: Promise<void> | undefined;
  /** A Kysely instance that compiles the per-call queries (prune, delete by ids). */
  readonly compiler: () => Promise<Kysely<CheckpointDatabase>>;
  /** The PostgreSQL-only statements; set with `queries` on PostgreSQL. */
  postgres: PostgresStatements | undefined;
  /** Whether text sorts in byte order here (always on SQLite; asked once on PostgreSQL). */
  byteOrder: boolean | undefined;
  /** PostgreSQL schema of the tables (`public` on SQLite, unused there). */
  readonly schema: string;
  /** SQLite only: sourceRef range templates with a literal LIMIT, by direction and limit (see {@link LITERAL_LIMITS}). */
  readonly literalRanges: Map<string, QueryTemplate<Omit<SourceRefRange, 'limit'>, CheckpointRow>> | undefined;
  /** {@link KyselyAdapter.sourceRefAt}'s statements, by direction and collation, compiled on first use. */
  readonly positions: Map<string, QueryTemplate<SourceRefPosition, { sourceRef: string }>>;
  /** {@link KyselyAdapter.listBySourceRefRanges}'s statements, by collation and the ranges' orders and limits, compiled on first use (at most {@link MAX_RANGE_SHAPES} kept). */
  readonly rangeLists: Map<string, QueryTemplate<Record<string, string | number | null>, RangedRow>>;
  /** {@link KyselyAdapter.findBySourceRefs}'s statements by padded length (parameters: namespace, then the refs). */
  readonly refLists: Map<number, CompiledQuery<CheckpointRow>>;
  /** SQL of insertIfPresent per shape of precondition (see {@link conditionalInsertShape}); `null`: not expressible. */
  readonly conditionalInsertTexts: Map<string, string | null>;
  /** The SQL of insertManyIfPresent by row count and shape: a map of its own, so batches of many sizes never crowd out insertIfPresent's few shapes. */
  readonly conditionalInsertManyTexts: Map<string, string>;
  /** {@link KyselyAdapter.insertMany}'s SQL by row count; `null` under the key 0 when the insert SQL is not of its shape. */
  readonly insertManyTexts: Map<number, string | null>;
  closed: boolean;
  /**
   * Ids handed out by `reserveId` (or prefetched, below) and not inserted yet: their explicit
   * insert needs no table lock to keep the id sequence above them, which already is.
   */
  readonly reserved: Set<number>;
  /**
   * PostgreSQL: an id drawn from the sequence by the last successful `insertWithMeta`, while it
   * held the swapped entry locked, for the next one (saves a round trip per sealed create), with
   * the entry's value that statement wrote (`after`). The id is used only by a swap that expects
   * that very value: then no other write went between, and no id above it is in use. Another
   * write (a transaction of this or another process) may have drawn higher ids meanwhile, and a
   * row with a lower id than an older row of the same second would not be its session's newest.
   */
  prefetched: { id: number; after: string } | undefined;
}

/** Shapes of insertIfPresent kept compiled; more (a caller with many required rows) are built per call. */
const CONDITIONAL_SHAPES = 32;

/**
 * What the SQLite front door hands the `KyselyAdapter` constructor instead of a Kysely instance
 * (its private form, never exported from the package): SQLite templates built already (from
 * frozen text) and a way to get a Kysely instance for the per-call queries when one is first
 * needed, so that an adapter that never prunes never loads Kysely.
 */
export class PreparedAdapterParts {
  constructor(
    readonly queries: CheckpointQueries,
    readonly connection: AdapterConnection,
    readonly capabilities: Partial<AdapterCapabilities>,
    /** Compiles the per-call queries (prune, delete by ids); called at most once. */
    readonly compiler: () => Promise<Kysely<CheckpointDatabase>>,
  ) {}
}

/** What an adapter bound to an open transaction is made of (the constructor's private form). */
class BoundParts {
  constructor(
    readonly shared: Shared,
    readonly runner: QueryRunner,
    readonly capabilities: AdapterCapabilities,
  ) {}
}

/**
 * Distinct LIMIT values per direction that get a SQLite range template with a literal LIMIT (one
 * prepared statement each); further values use the bound-LIMIT template.
 */
const LITERAL_LIMITS = 12;

/** Source refs looked up per statement by `findBySourceRefs` (a power of two). */
const REFS_CHUNK = 64;

/** Rows deleted per statement: keeps every statement far below SQLite's parameter limit. */
const DELETE_CHUNK = 500;

/**
 * The storage adapter over any Kysely instance on SQLite or PostgreSQL, with the v1 schema in
 * place (see {@link migrateToLatest}). It stores and returns rows untouched: no canonicalising,
 * hashing or verifying, which the `CheckpointStore` facade does. Hot queries are compiled once.
 *
 * Prefer the front doors {@link openSqliteStore} and {@link openPostgresStore}, which also
 * validate and create the schema; use this class to share a Kysely instance you already have.
 *
 * @example
 * ```ts
 * const db = new Kysely<CheckpointDatabase>({ dialect: new PostgresDialect({ pool }) });
 * await migrateToLatest(db);
 * const store = new CheckpointStore(new KyselyAdapter(db));
 * ```
 */
export class KyselyAdapter extends CheckpointAdapterBase {
  readonly #capabilities: AdapterCapabilities;
  readonly #shared: Shared;
  /** Runs this adapter's statements: the root runner, or a transaction's. */
  readonly #runner: QueryRunner;
  /** True for the adapter handed to a transaction callback. */
  readonly #bound: boolean;

  /**
   * @param db A Kysely instance over a database that holds the v1 schema (run
   *   {@link migrateToLatest} first). Not destroyed on close unless `ownsDatabase` is set.
   */
  constructor(db: Kysely<CheckpointDatabase>, options?: KyselyAdapterOptions);
  constructor(db: Kysely<CheckpointDatabase> | BoundParts | PreparedAdapterParts, options: KyselyAdapterOptions = {}) {
    super();
    if (db instanceof BoundParts) {
      this.#capabilities = db.capabilities;
      this.#shared = db.shared;
      this.#runner = db.runner;
      this.#bound = true;
      return;
    }
    if (db instanceof PreparedAdapterParts) {
      this.#capabilities = KyselyAdapter.#capabilitiesOf(super.capabilities, 'sqlite', db.capabilities);
      this.#shared = {
        connection: db.connection,
        flavor: 'sqlite',
        queries: db.queries,
        ready: undefined,
        compiler: once(db.compiler),
        postgres: undefined,
        byteOrder: true,
        schema: 'public',
        literalRanges: new Map(),
        positions: new Map(),
        rangeLists: new Map(),
        refLists: new Map(),
        conditionalInsertTexts: new Map(),
        conditionalInsertManyTexts: new Map(),
        insertManyTexts: new Map(),
        closed: false,
        reserved: new Set(),
        prefetched: undefined,
      };
      this.#runner = db.connection.runner;
      this.#bound = false;
      return;
    }
    const flavor = options.flavor ?? detectFlavor(db);
    const schema = options.schema ?? 'public';
    const scoped = flavor === 'postgres' ? db.withSchema(schema) : db;
    const connection =
      options.connection ?? new KyselyConnection(db, flavor, { ownsDatabase: options.ownsDatabase ?? false });
    this.#capabilities = KyselyAdapter.#capabilitiesOf(super.capabilities, flavor, options.capabilities);
    const shared: Shared = {
      connection,
      flavor,
      queries: undefined as unknown as CheckpointQueries,
      ready: undefined,
      compiler: async () => scoped,
      postgres: undefined,
      byteOrder: flavor === 'postgres' ? undefined : true,
      schema,
      literalRanges: flavor === 'postgres' ? undefined : new Map(),
      positions: new Map(),
        rangeLists: new Map(),
      refLists: new Map(),
      conditionalInsertTexts: new Map(),
      conditionalInsertManyTexts: new Map(),
      insertManyTexts: new Map(),
      closed: false,
      reserved: new Set(),
      prefetched: undefined,
    };
    // The templates are compiled with the caller's instance (its dialect and plugins decide the
    // SQL), by a module loaded on demand; every operation waits for them (#single, #write,
    // transaction), so the queries are read inside the callbacks those run, never before.
    const ready = Promise.all([import('./queries.js'), flavor === 'postgres' ? import('./postgres/postgres-statements.js') : undefined]).then(
      ([{ compileQueries }, postgres]) => {
        shared.queries = compileQueries(scoped, flavor, schema);
        shared.postgres = postgres?.postgresStatements(db, schema);
        shared.ready = undefined;
      },
    );
    // Kept pending for the operations, which report a failure; never an unhandled rejection.
    ready.catch(() => undefined);
    shared.ready = ready;
    this.#shared = shared;
    this.#runner = connection.runner;
    this.#bound = false;
  }

  static #capabilitiesOf(defaults: AdapterCapabilities, flavor: SqlFlavor, given: Partial<AdapterCapabilities> | undefined): AdapterCapabilities {
    return { ...defaults, multiProcess: true, persistent: true, concurrentTransactions: flavor === 'postgres', sourceRefKind: true, transactionLocks: true, conditionalInserts: true, metaEntries: true, ...given };
  }

  /** An adapter over the same state whose statements run on an open transaction's runner. */
  static #boundTo(shared: Shared, runner: QueryRunner, capabilities: AdapterCapabilities): KyselyAdapter {
    return new KyselyAdapter(new BoundParts(shared, runner, capabilities) as never);
  }

  /** What this adapter promises beyond the contract (see {@link KyselyAdapterOptions.capabilities}). */
  override get capabilities(): AdapterCapabilities {
    return this.#capabilities;
  }

  /**
   * Inserts one row (`INSERT ... ON CONFLICT DO NOTHING RETURNING id`): one statement, or one
   * transaction with the retention delete when `keepLatest` is given.
   */
  async insert(row: NewCheckpointRow, options: InsertOptions = {}): Promise<InsertResult> {
    const keep = options.keepLatest;
    // PostgreSQL: an explicit id takes a table lock and moves the id sequence, which needs a
    // transaction (not one drawn from the sequence by reserveId).
    const needsTransaction = keep !== undefined || (row.id !== undefined && this.#shared.flavor === 'postgres' && !this.#shared.reserved.has(row.id));
    return needsTransaction
      ? this.#write((runner) => this.#insertIn(runner, row, keep))
      : this.#single((runner) => this.#insertIn(runner, row, undefined));
  }

  /**
   * Inserts several rows all or nothing, with one multi-row `INSERT ... SELECT ... RETURNING` per
   * 100 rows (see insert-many-sql.ts): at root level one autocommit statement on SQLite, a write
   * transaction otherwise. A batch that a row of it cannot join is not written at all; the error
   * is then the one the single inserts would have thrown first (the id limit, a ref held by an
   * earlier row of the batch, a ref held by a stored row, in that order for each row). Rows with
   * an explicit id go in one by one (the base class's way). A batch refused in its second
   * statement or later has its first statements' rows deleted again: inside a caller's
   * transaction that goes on, the ids they took stay used (as with the base class's default).
   */
  override async insertMany(rows: readonly NewCheckpointRow[]): Promise<number[]> {
    if (rows.length === 0) return [];
    if (this.#shared.ready) await this.#shared.ready;
    const table = this.#insertManyTable();
    if (table === undefined || rows.some((row) => row.id !== undefined)) return super.insertMany(rows);
    const run = async (runner: QueryRunner): Promise<number[]> => {
      if (firstBatchClash(rows) >= 0) throw await this.#batchError(runner, rows, undefined);
      const ids: number[] = [];
      for (let start = 0; start < rows.length; start += INSERT_MANY_CHUNK) {
        const chunk = rows.slice(start, start + INSERT_MANY_CHUNK);
        const returned = await runner.rows<{ id: number | string; sourceRef: string | null; payloadSha256: string }>(
          rawQuery(this.#insertManyText(table, chunk.length), insertManyParameters(chunk)),
        );
        const inserted = numericIds(returned).sort((a, b) => Number(a.id) - Number(b.id));
        ids.push(...inserted.map((row) => Number(row.id)));
        const matches = inserted.length === chunk.length && inserted.every((row, k) => row.sourceRef === chunk[k]?.sourceRef && row.payloadSha256 === chunk[k]?.payloadSha256);
        if (matches) continue;
        // Refused (nothing went in), or in part (a concurrent PostgreSQL writer took a ref): what
        // went in goes again, so that the caller's transaction holds nothing of the batch.
        for (let at = 0; at < ids.length; at += DELETE_CHUNK) {
          const some = ids.slice(at, at + DELETE_CHUNK);
          await runner.rows(rawQuery(deleteIdsSql(table, this.#shared.flavor, some.length), some));
        }
        if (inserted.length === chunk.length) throw new CheckpointError('insertMany: the ids returned do not follow the rows in order');
        throw await this.#batchError(runner, rows, ids.length > 0 ? (ids[0] as number) - 1 : undefined);
      }
      return ids;
    };
    return this.#shared.flavor === 'sqlite' && rows.length <= INSERT_MANY_CHUNK ? this.#single(run) : this.#write(run);
  }

  /** The row with this id in this namespace, untouched, or `undefined`. */
  async getRow(id: number, namespace: string): Promise<CheckpointRow | undefined> {
    return this.#single(async (runner) => first(await runner.rows(this.#shared.queries.getRow.withValues({ id, namespace }))));
  }

  /** The row with this id in any namespace, untouched, or `undefined`. */
  async getRowAnyNamespace(id: number): Promise<CheckpointRow | undefined> {
    return this.#single(async (runner) => first(await runner.rows(this.#shared.queries.getRowAnyNamespace.withValues({ id }))));
  }

  /** The row holding `sourceRef` in `namespace` (served by the unique index), or `undefined`. */
  override async findBySourceRef(namespace: string, sourceRef: string): Promise<CheckpointRow | undefined> {
    return this.#single(async (runner) =>
      first(await runner.rows(this.#shared.queries.findBySourceRef.withValues({ namespace, sourceRef }))),
    );
  }

  /**
   * The rows holding these source refs: one `IN` query per 64 refs (one template query for a
   * single ref). Lists are padded to 2, 4, ..., 64 refs by repeating the last one, which changes
   * no answer and keeps the SQL texts (and SQLite's prepared statements) to a handful.
   */
  override async findBySourceRefs(namespace: string, sourceRefs: readonly string[]): Promise<CheckpointRow[]> {
    const refs = [...new Set(sourceRefs)];
    if (refs.length === 0) return [];
    if (refs.length === 1) {
      const row = await this.findBySourceRef(namespace, refs[0] as string);
      return row ? [row] : [];
    }
    // Built per call with Kysely (variable length), loaded on first use like prune and delete by ids.
    const [{ bySourceRefsQuery }, compiler] = await Promise.all([perCallQueries(), this.#shared.compiler()]);
    return this.#single(async (runner) => {
      const out: CheckpointRow[] = [];
      for (let start = 0; start < refs.length; start += REFS_CHUNK) {
        const chunk = refs.slice(start, start + REFS_CHUNK);
        let size = 2;
        while (size < chunk.length) size *= 2;
        while (chunk.length < size) chunk.push(chunk[chunk.length - 1] as string);
        // Compiled once per padded length (the text does not change with the values): a save that
        // looks up two refs no longer pays Kysely's compile on every call.
        const cached = this.#shared.refLists.get(size);
        if (cached !== undefined) {
          out.push(...numericIds(await runner.rows<CheckpointRow>({ ...cached, parameters: [namespace, ...chunk] })));
          continue;
        }
        const compiled = bySourceRefsQuery(compiler, namespace, chunk);
        // Kept only when its parameters are the namespace, then the refs, as the reuse binds them.
        if (compiled.parameters.length === size + 1 && compiled.parameters.every((value, k) => value === (k === 0 ? namespace : chunk[k - 1]))) this.#shared.refLists.set(size, compiled);
        out.push(...numericIds(await runner.rows(compiled)));
      }
      return out;
    });
  }

  /** Rows whose sourceRef starts with a prefix: one range of the `(namespace, source_ref)` index. */
  override async listBySourceRefPrefix(query: SourceRefPrefixQuery): Promise<CheckpointRow[]> {
    const { lo, hi } = sourceRefBounds(query);
    return this.#single(async (runner) => {
      const q = this.#shared.queries;
      // Byte-order collation: the plain comparison is the same order and the unique index serves it.
      this.#shared.byteOrder ??= await byteOrderCollation(runner, this.#shared.postgres);
      const template = this.#shared.byteOrder
        ? query.descending === true ? q.sourceRefRangeDescNative : q.sourceRefRangeAscNative
        : query.descending === true ? q.sourceRefRangeDesc : q.sourceRefRangeAsc;
      const literal = this.#literalRange(template, query.descending === true ? 'desc' : 'asc', query.limit);
      const kind = query.kind ?? null;
      if (literal) return numericIds(await runner.rows(literal.withValues({ namespace: query.namespace, lo, hi, kind })));
      return numericIds(await runner.rows(template.withValues({ namespace: query.namespace, lo, hi, kind, limit: query.limit })));
    });
  }

  /**
   * The sourceRef `offset` rows into a range: `LIMIT 1 OFFSET n` over the `(namespace, source_ref)`
   * index, so the rows passed over are not read (a page deep in a long range). Its statements are
   * compiled with Kysely once per adapter and order, on first use.
   */
  override async sourceRefAt(query: SourceRefPositionQuery): Promise<string | undefined> {
    if (!Number.isSafeInteger(query.offset) || query.offset < 0) throw new RangeError('offset must be a non-negative safe integer');
    const { lo, hi } = sourceRefBounds(query);
    const direction = query.descending === true ? 'desc' : 'asc';
    return this.#single(async (runner) => {
      this.#shared.byteOrder ??= await byteOrderCollation(runner, this.#shared.postgres);
      const native = this.#shared.byteOrder;
      const key = `${direction} ${native}`;
      let template = this.#shared.positions.get(key);
      if (template === undefined) {
        const [{ sourceRefAtTemplate }, compiler] = await Promise.all([perCallQueries(), this.#shared.compiler()]);
        template = sourceRefAtTemplate(compiler, direction, native);
        this.#shared.positions.set(key, template);
      }
      const [row] = await runner.rows(template.withValues({ namespace: query.namespace, lo, hi, kind: query.kind ?? null, offset: query.offset }));
      return row?.sourceRef;
    });
  }

  /**
   * Several sourceRef ranges, each from `offset` rows in. PostgreSQL: one statement (a UNION ALL of
   * one `LIMIT n OFFSET ?` range read per query over the `(namespace, source_ref)` index), a page
   * deep in a long range and another range beside it in one round trip; its statements are
   * compiled with Kysely once per collation and shape (each range's order), on first use.
   * SQLite: range by range with the precompiled statements of {@link sourceRefAt} and
   * {@link listBySourceRefPrefix} (see {@link #rangesInTurn}).
   */
  async listBySourceRefRanges(queries: readonly SourceRefRangeQuery[]): Promise<CheckpointRow[][]> {
    for (const q of queries) if (q.offset !== undefined && (!Number.isSafeInteger(q.offset) || q.offset < 0)) throw new RangeError('offset must be a non-negative safe integer');
    if (queries.length === 0) return [];
    for (const q of queries) if (!Number.isSafeInteger(q.limit) || q.limit < 0) throw new RangeError('limit must be a non-negative safe integer');
    if (this.#shared.flavor === 'sqlite') return this.#rangesInTurn(queries);
    // A statement of very many ranges is read in parts (SQLite's compound SELECT, which this once
    // served too, takes 500 terms).
    if (queries.length > MAX_RANGES_PER_STATEMENT) {
      const out: CheckpointRow[][] = [];
      for (let at = 0; at < queries.length; at += MAX_RANGES_PER_STATEMENT) out.push(...(await this.listBySourceRefRanges(queries.slice(at, at + MAX_RANGES_PER_STATEMENT))));
      return out;
    }
    const values: Record<string, string | number | null> = {};
    queries.forEach((q, k) => {
      const { lo, hi } = sourceRefBounds(q);
      values[`namespace${k}`] = q.namespace;
      values[`lo${k}`] = lo;
      values[`hi${k}`] = hi;
      values[`kind${k}`] = q.kind ?? null;
      values[`limit${k}`] = q.limit;
      values[`offset${k}`] = q.offset ?? 0;
    });
    const shapes = queries.map((q) => ({ direction: q.descending === true ? ('desc' as const) : ('asc' as const) }));
    return this.#single(async (runner) => {
      this.#shared.byteOrder ??= await byteOrderCollation(runner, this.#shared.postgres);
      const native = this.#shared.byteOrder;
      const key = `${native} ${shapes.map((r) => r.direction).join(',')}`;
      let template = this.#shared.rangeLists.get(key);
      if (template === undefined) {
        const [{ sourceRefRangesTemplate }, compiler] = await Promise.all([perCallQueries(), this.#shared.compiler()]);
        template = sourceRefRangesTemplate(compiler, shapes, native);
        if (this.#shared.rangeLists.size < MAX_RANGE_SHAPES) this.#shared.rangeLists.set(key, template);
      }
      const out: CheckpointRow[][] = queries.map(() => []);
      // Each row rebuilt without its tag as a literal of the row's columns: an object rest
      // (`{ range, ...row }`) cost about 0.6 µs a row, a quarter of this process's CPU after the
      // statement of a 41-row page (decision 0051).
      for (const r of numericIds(await runner.rows(template.withValues(values)))) {
        out[Number(r.range)]?.push({ id: r.id, namespace: r.namespace, sessionId: r.sessionId, kind: r.kind, name: r.name, payloadJson: r.payloadJson, payloadSha256: r.payloadSha256, createdAt: r.createdAt, sourceRef: r.sourceRef });
      }
      // UNION ALL promises no order between or within its parts: each range is put in its order here.
      out.forEach((rows, k) => {
        const sign = shapes[k]?.direction === 'desc' ? -1 : 1;
        rows.sort((a, b) => sign * compareCodePoints(a.sourceRef ?? '', b.sourceRef ?? ''));
      });
      return out;
    });
  }

  /**
   * SQLite's {@link listBySourceRefRanges}: each range read on its own, its start found by
   * {@link sourceRefAt} (`LIMIT 1 OFFSET n`, a ref only) and the rows after it by
   * {@link listBySourceRefPrefix} (its LIMIT a literal), as the store reads ranges for an adapter
   * without the member. In-process SQLite has no round trip to save, and these frozen statements
   * cost less than one `UNION ALL` (bound LIMIT and OFFSET, each arm a subquery, its rows copied to
   * drop their tag and sorted again): the Mastra page's read of 41 rows and a change row took
   * about 80 µs of CPU this way against about 200 as one statement (decision 0051). Like a list
   * split in parts, the ranges are then not one snapshot against writers in other processes.
   */
  async #rangesInTurn(queries: readonly SourceRefRangeQuery[]): Promise<CheckpointRow[][]> {
    const out: CheckpointRow[][] = [];
    for (const { offset = 0, ...range } of queries) {
      if (offset === 0) {
        out.push(await this.listBySourceRefPrefix(range));
        continue;
      }
      const last = await this.sourceRefAt({ ...range, offset: offset - 1 });
      out.push(last === undefined ? [] : await this.listBySourceRefPrefix({ ...range, ...(range.descending === true ? { before: last } : { after: last }) }));
    }
    return out;
  }

  /** A page, newest first (`created_at DESC, id DESC`), optionally of one session. */
  async listRows(query: ListRowsQuery): Promise<CheckpointRow[]> {
    const { namespace, sessionId, limit, offset } = query;
    return this.#single(async (runner) =>
      numericIds(
        await runner.rows(
          sessionId === undefined
            ? this.#shared.queries.listNamespace.withValues({ namespace, limit, offset })
            : this.#shared.queries.listSession.withValues({ namespace, sessionId, limit, offset }),
        ),
      ),
    );
  }

  /** The newest row of a session, or `undefined`. */
  override async latestRow(namespace: string, sessionId: string): Promise<CheckpointRow | undefined> {
    return this.#single(async (runner) =>
      first(await runner.rows(this.#shared.queries.latest.withValues({ namespace, sessionId }))),
    );
  }

  /** Raw rows by id ascending after `afterId`, for verify and export. */
  async scanRows(query: ScanRowsQuery): Promise<CheckpointRow[]> {
    const { namespace, limit } = query;
    const afterId = this.#shared.flavor === 'postgres' ? bigintAfter(query.afterId) : query.afterId;
    if (afterId === undefined) return [];
    return this.#single(async (runner) =>
      numericIds(
        await runner.rows(
          namespace === undefined
            ? this.#shared.queries.scanStore.withValues({ afterId, limit })
            : this.#shared.queries.scanNamespace.withValues({ namespace, afterId, limit }),
        ),
      ),
    );
  }

  /** Each session of a namespace with its count and newest row, newest first: one windowed query. */
  override async sessions(namespace: string): Promise<SessionSummaryRow[]> {
    return this.#single(async (runner) => {
      const rows = await runner.rows(this.#shared.queries.sessions.withValues({ namespace }));
      for (const row of rows) {
        row.latestId = Number(row.latestId);
        row.count = Number(row.count);
      }
      return rows;
    });
  }

  /** Deletes the row with this id in this namespace; `true` when a row went. */
  async deleteRow(id: number, namespace: string): Promise<boolean> {
    return this.#single(async (runner) => (await runner.rows(this.#shared.queries.deleteRow.withValues({ id, namespace }))).length > 0);
  }

  /** Deletes these ids within the namespace (atomically, in chunks of 500); returns the ids that went, ascending. */
  override async deleteRows(ids: readonly number[], namespace: string): Promise<number[]> {
    if (ids.length === 0) return [];
    const [{ deleteIdsQuery }, compiler] = await Promise.all([perCallQueries(), this.#shared.compiler()]);
    const run = async (runner: QueryRunner): Promise<number[]> => {
      const deleted: number[] = [];
      for (let start = 0; start < ids.length; start += DELETE_CHUNK) {
        const chunk = ids.slice(start, start + DELETE_CHUNK);
        deleted.push(...idsOf(await runner.rows(deleteIdsQuery(compiler, chunk, namespace))));
      }
      return deleted.sort((a, b) => a - b);
    };
    return ids.length <= DELETE_CHUNK ? this.#single(run) : this.#write(run);
  }

  /** Deletes a whole session in one statement; returns the ids that went, ascending. */
  override async deleteSession(namespace: string, sessionId: string): Promise<number[]> {
    return this.#single(async (runner) =>
      idsOf(await runner.rows(this.#shared.queries.deleteSession.withValues({ namespace, sessionId }))).sort((a, b) => a - b),
    );
  }

  /** Ids a prune query selects, ascending, ranked by one windowed query. */
  override async findPrunable(query: PruneQuery): Promise<number[]> {
    if (query.keepLatest === undefined && query.olderThan === undefined) return [];
    const [{ prunableQuery }, compiler] = await Promise.all([perCallQueries(), this.#shared.compiler()]);
    return this.#single(async (runner) => idsOf(await runner.rows(prunableQuery(compiler, query))));
  }

  /**
   * Inserts `row` only when the rows `precondition.present` names exist: one `INSERT ... SELECT`
   * whose WHERE also counts the required rows (PostgreSQL: read `FOR SHARE`, after the advisory
   * lock of `precondition.lockKey`, taken first in the same statement; see conditional-insert-sql.ts).
   * Autocommit at root level, so a single round trip on PostgreSQL and no `BEGIN IMMEDIATE` on
   * SQLite. Resolves to the new id, or `undefined` when nothing was inserted (also when a Kysely
   * plugin of the caller's instance reshaped the insert SQL beyond what the check can extend).
   */
  async insertIfPresent(row: NewCheckpointRow, precondition: InsertPrecondition): Promise<number | undefined> {
    if (row.id !== undefined) throw new CheckpointError('insertIfPresent takes no explicit id');
    return this.#single(async (runner) => {
      const { queries, postgres, flavor } = this.#shared;
      const { present } = precondition;
      const lockKey = postgres && precondition.lockKey !== undefined ? postgres.lockKeyText(precondition.lockKey) : undefined;
      const shape = conditionalInsertShape(present, lockKey !== undefined);
      const cache = this.#shared.conditionalInsertTexts;
      // The insert's parameters bound from the row's own fields (the template picks its columns by
      // name), and the condition's appended to that one array: no copy of the row, no compiled
      // query of the plain insert, no spread of two arrays into a third (decision record 0056).
      const parameters = queries.insert.bind(row);
      let text = cache.get(shape);
      if (text === undefined) {
        text = conditionalInsertSql(queries.insert.sql, flavor, present, lockKey !== undefined, parameters.length) ?? null;
        if (cache.size < CONDITIONAL_SHAPES) cache.set(shape, text);
      }
      if (text === null) return undefined;
      appendConditionalInsertParameters(parameters, flavor, row.namespace, present, lockKey);
      const inserted = first(await runner.rows(rawQuery<IdRow>(text, parameters)));
      return inserted === undefined ? undefined : Number(inserted.id);
    });
  }

  /**
   * Inserts `rows` only when the rows `precondition.present` names exist and no ref of the batch
   * is taken: one multi-row `INSERT ... SELECT ... WHERE` (insert-many-sql.ts), autocommit at root
   * level (no `BEGIN`/`COMMIT`). Resolves to the ids in row order, or `undefined` when nothing was
   * inserted; also for a batch of more than one statement's rows (100), rows sharing a ref, or an
   * insert SQL a Kysely plugin reshaped. PostgreSQL at root level: a concurrent writer's insert of
   * a ref of the batch fails the statement with a unique violation on the `(namespace,
   * source_ref)` constraint, which is a refusal (nothing went in); every other error is thrown.
   */
  async insertManyIfPresent(rows: readonly NewCheckpointRow[], precondition: InsertPrecondition): Promise<number[] | undefined> {
    if (rows.some((row) => row.id !== undefined)) throw new CheckpointError('insertManyIfPresent takes no explicit ids');
    if (rows.length === 0) return [];
    if (this.#shared.ready) await this.#shared.ready;
    const table = this.#insertManyTable();
    if (table === undefined || rows.length > INSERT_MANY_CHUNK) return undefined;
    const { postgres, flavor } = this.#shared;
    const { present } = precondition;
    const lockKey = postgres && precondition.lockKey !== undefined ? postgres.lockKeyText(precondition.lockKey) : undefined;
    // Without ON CONFLICT a clash (two rows of the batch sharing a ref, a concurrent writer's
    // ref) fails the statement whole, which is a refusal. Not on PostgreSQL inside a caller's
    // transaction, whose every statement error ends the transaction: there rows are skipped.
    const onConflict = flavor === 'postgres' && this.#bound;
    const key = `${rows.length}${onConflict ? 'c' : 'u'}${conditionalInsertShape(present, lockKey !== undefined)}`;
    const cache = this.#shared.conditionalInsertManyTexts;
    let text = cache.get(key);
    if (text === undefined) {
      text = insertManyIfPresentSql(table, flavor, rows.length, present, lockKey !== undefined, onConflict);
      if (cache.size < CONDITIONAL_SHAPES * 2) cache.set(key, text);
    }
    const sql = text;
    return this.#single(async (runner) => {
      let returned: { id: number | string; sourceRef: string | null; payloadSha256: string }[];
      try {
        returned = await runner.rows(rawQuery(sql, insertManyIfPresentParameters(flavor, rows, present, lockKey)));
      } catch (error) {
        if (!onConflict && isSourceRefClash(error, flavor)) return undefined;
        throw error;
      }
      if (returned.length === 0) return undefined;
      const inserted = numericIds(returned).sort((a, b) => Number(a.id) - Number(b.id));
      const ids = inserted.map((row) => Number(row.id));
      if (inserted.length === rows.length && inserted.every((row, k) => row.sourceRef === rows[k]?.sourceRef && row.payloadSha256 === rows[k]?.payloadSha256)) return ids;
      // In part (inside a caller's PostgreSQL transaction: two rows of the batch share a ref, or
      // a concurrent writer took one): what went in goes again, so that the transaction holds
      // nothing of the batch.
      await runner.rows(rawQuery(deleteIdsSql(table, flavor, ids.length), ids));
      if (inserted.length === rows.length) throw new CheckpointError('insertManyIfPresent: the ids returned do not follow the rows in order');
      return undefined;
    });
  }

  /**
   * Metadata entries of these keys (rows of `checkpoint_meta`); with `lock` on PostgreSQL inside a
   * transaction, read `FOR UPDATE`.
   */
  override async readMeta(keys: readonly string[], options: { lock?: boolean } = {}): Promise<MetaEntry[]> {
    const unique = [...new Set(keys)];
    if (unique.length === 0) return [];
    const { flavor, schema } = this.#shared;
    return this.#single((runner) => runner.rows(readMetaQuery(flavor, schema, unique, options.lock === true && this.#bound)));
  }

  /** Metadata entries whose key starts with `prefix`. */
  override async listMeta(prefix: string): Promise<MetaEntry[]> {
    const { flavor, schema } = this.#shared;
    return this.#single((runner) => runner.rows(listMetaQuery(flavor, schema, prefix)));
  }

  /** Sets, keeps (`ifAbsent`) or removes metadata entries, in one transaction. */
  override async writeMeta(changes: readonly MetaChange[]): Promise<void> {
    if (changes.length === 0) return;
    const { flavor, schema } = this.#shared;
    const run = async (runner: QueryRunner) => {
      for (const change of changes) await runner.rows(changeMetaQuery(flavor, schema, change));
    };
    await (changes.length === 1 ? this.#single(run) : this.#write(run));
  }

  /**
   * Inserts a row and writes metadata entries only when `swap.key` holds `swap.expected`, the row's
   * id picked first (see the port). PostgreSQL, outside a transaction: one statement (see
   * meta-entries.ts), with an id drawn from the sequence by the previous one while it held the
   * entry locked (or drawn now, one round trip more). Otherwise one transaction: SQLite's
   * `BEGIN IMMEDIATE` runs writers one at a time, so its read, insert and writes see one state.
   * Resolves to the id, or `undefined` when the entry held something else.
   */
  override async insertWithMeta(row: (id: number) => NewCheckpointRow, swap: MetaSwap, also: readonly MetaChange[]): Promise<number | undefined> {
    if (also.some((c) => c.value === null || c.ifAbsent === true)) throw new CheckpointError('insertWithMeta writes entries; it does not remove or keep them');
    const shared = this.#shared;
    const { flavor, schema } = shared;
    if (flavor === 'postgres' && swap.expected !== null && !this.#bound) {
      const id = await this.#single(async (runner) => {
        const postgres = shared.postgres as PostgresStatements;
        const prefetched = shared.prefetched?.after === swap.expected ? shared.prefetched.id : undefined;
        const next = prefetched ?? Number(first(await runner.rows(postgres.nextId()))?.id);
        shared.prefetched = undefined;
        if (next > MAX_CHECKPOINT_ID) throw idLimitError();
        const made = { ...row(next), id: next };
        const base = shared.queries.insertWithId.withValues({ ...insertValues(made), id: next });
        const text = swapInsertSql(base.sql, schema, base.parameters.length, also.length);
        if (text === undefined) return null;
        const [inserted] = await runner.rows(rawQuery<{ id: number | string; next: number | string }>(text, [...base.parameters, ...swapInsertParameters(swap, also), postgres.sequenceOf()]));
        if (inserted !== undefined) {
          shared.prefetched = { id: Number(inserted.next), after: swap.value };
          return Number(inserted.id);
        }
        // Nothing written: a taken source ref is an error; a moved entry is not.
        const conflict = await this.#conflict(runner, made);
        if (conflict.ids.length > 0) throw conflict;
        return undefined;
      });
      if (id !== null) return id;
    }
    return this.#write(async (runner) => {
      if (swap.expected === null) {
        // The entry must be absent: creating it first holds it against a concurrent first writer.
        if ((await runner.rows(claimMetaQuery(flavor, schema, swap))).length === 0) return undefined;
      } else {
        const [current] = await runner.rows(readMetaQuery(flavor, schema, [swap.key], true));
        if (current?.value !== swap.expected) return undefined;
      }
      const id = await this.#nextId(runner);
      const made = { ...row(id), id };
      const inserted = first(await runner.rows(shared.queries.insertWithId.withValues({ ...insertValues(made), id })));
      if (!inserted) throw await this.#conflict(runner, made);
      const changes = swap.expected === null ? also : [{ key: swap.key, value: swap.value }, ...also];
      for (const change of changes) await runner.rows(changeMetaQuery(flavor, schema, change));
      return id;
    });
  }

  /** Replaces a row's payload text and hash in place (one UPDATE; a key rotation's write). */
  override async updatePayload(id: number, namespace: string, payloadJson: string, payloadSha256: string): Promise<boolean> {
    const { flavor, schema } = this.#shared;
    const table = flavor === 'postgres' ? `"${schema.replaceAll('"', '""')}"."checkpoints"` : '"checkpoints"';
    const p = flavor === 'postgres' ? ['$1', '$2', '$3', '$4'] : ['?', '?', '?', '?'];
    const query = rawQuery<IdRow>(`update ${table} set "payload_json" = ${p[0]}, "payload_sha256" = ${p[1]} where "id" = ${p[2]} and "namespace" = ${p[3]} returning "id"`, [payloadJson, payloadSha256, id, namespace]);
    return this.#single(async (runner) => (await runner.rows(query)).length > 0);
  }

  /**
   * In a transaction: the id the next insert without one would get, to insert a row with it
   * explicitly (a sealed row's seal covers its id). SQLite: the highest id handed out plus one
   * (writers run one at a time); PostgreSQL: the next value of the identity sequence.
   *
   * @throws CheckpointError outside a transaction.
   */
  async reserveId(): Promise<number> {
    if (!this.#bound) throw new CheckpointError('reserveId needs an open transaction: call it on the adapter handed to transaction()');
    return this.#single((runner) => this.#nextId(runner));
  }

  /** The next id (see {@link reserveId}), remembered so that its insert takes no id lock. */
  async #nextId(runner: QueryRunner): Promise<number> {
    const { postgres, queries } = this.#shared;
    const id = postgres
      ? Number(first(await runner.rows(postgres.nextId()))?.id)
      : Number(first(await runner.rows(queries.highestId.withValues({})))?.id ?? 0) + 1;
    if (id > MAX_CHECKPOINT_ID) throw idLimitError();
    if (postgres) this.#shared.reserved.add(id);
    return id;
  }

  /**
   * Holds the lock named `key` until the open transaction ends. PostgreSQL: a transaction-scoped
   * advisory lock (`pg_advisory_xact_lock` on a 64-bit hash of the schema and key; two keys that
   * share a hash only wait on each other). SQLite: nothing to take, since `BEGIN IMMEDIATE` already
   * runs write transactions one at a time.
   *
   * @throws CheckpointError outside a transaction (on the root adapter), where the lock would be
   *   released as soon as it was taken.
   */
  async transactionLock(key: string): Promise<void> {
    if (!this.#bound) throw new CheckpointError('transactionLock needs an open transaction: call it on the adapter handed to transaction()');
    await this.#single(async (runner) => {
      if (this.#shared.postgres) await runner.rows(this.#shared.postgres.lockKey(key));
    });
  }

  /**
   * Rows, payload bytes (UTF-8: SQLite `length(cast(... as blob))`, PostgreSQL `octet_length`),
   * oldest and newest `created_at` and highest id per (namespace, session): one grouped query,
   * by the session index when a session is named.
   */
  override async sessionStats(query: SessionStatsQuery): Promise<SessionStatsRow[]> {
    const { flavor } = this.#shared;
    const postgres = flavor === 'postgres';
    const parameters: unknown[] = [];
    const where: string[] = [];
    const param = (value: unknown): string => {
      parameters.push(value);
      return postgres ? `$${parameters.length}` : '?';
    };
    if (query.namespace !== undefined) where.push(`"namespace" = ${param(query.namespace)}`);
    if (query.sessionId !== undefined) where.push(`"session_id" = ${param(query.sessionId)}`);
    const bytes = postgres ? 'octet_length("payload_json")' : 'length(cast("payload_json" as blob))';
    const text =
      `select "namespace", "session_id" as "sessionId", count(*) as "rows", coalesce(sum(${bytes}), 0) as "bytes", ` +
      `min("created_at") as "oldest", max("created_at") as "newest", max("id") as "maxId" from ${this.#table('checkpoints')}` +
      (where.length > 0 ? ` where ${where.join(' and ')}` : '') +
      ' group by "namespace", "session_id"';
    const rows = await this.#single((runner) => runner.rows(rawQuery<SessionStatsRow>(text, parameters)));
    for (const row of rows) {
      row.rows = Number(row.rows);
      row.bytes = Number(row.bytes);
      row.maxId = Number(row.maxId);
    }
    return rows;
  }

  /**
   * Shuts out other writers until the open transaction ends. PostgreSQL:
   * `LOCK TABLE checkpoints, checkpoint_meta IN SHARE ROW EXCLUSIVE MODE`, which waits for the
   * write transactions in flight, holds new inserts, updates and deletes until the commit, and lets
   * reads through. SQLite: nothing to take, `BEGIN IMMEDIATE` already did.
   *
   * @throws CheckpointError outside a transaction.
   */
  async lockWrites(): Promise<void> {
    if (!this.#bound) throw new CheckpointError('lockWrites needs an open transaction: call it on the adapter handed to transaction()');
    if (this.#shared.flavor !== 'postgres') return;
    await this.#single((runner) => runner.rows(rawQuery(`lock table ${this.#table('checkpoints')}, ${this.#table('checkpoint_meta')} in share row exclusive mode`)));
  }

  /**
   * SQLite: the file's pages (`page_count`, `page_size`, `freelist_count`, `journal_mode`).
   * PostgreSQL: each table's size with its indexes and TOAST, and its live and dead tuples from
   * `pg_stat_user_tables` (the statistics collector's counts, which lag a little behind).
   */
  async storageReport(): Promise<StorageReport> {
    const { flavor, schema } = this.#shared;
    if (flavor === 'postgres') {
      const text =
        'select c.relname as "name", pg_total_relation_size(c.oid) as "totalBytes", pg_relation_size(c.oid) as "tableBytes", ' +
        'pg_indexes_size(c.oid) as "indexBytes", coalesce(s.n_live_tup, 0) as "liveTuples", coalesce(s.n_dead_tup, 0) as "deadTuples", ' +
        's.last_vacuum::text as "lastVacuum", s.last_autovacuum::text as "lastAutovacuum" ' +
        'from pg_class c join pg_namespace n on n.oid = c.relnamespace left join pg_stat_user_tables s on s.relid = c.oid ' +
        "where n.nspname = $1 and c.relkind = 'r' and c.relname in ('checkpoints', 'checkpoint_meta') order by c.relname";
      type Relation = Extract<StorageReport, { kind: 'postgres' }>['relations'][number];
      const rows = await this.#single((runner) => runner.rows(rawQuery<Relation>(text, [schema])));
      let reclaimableBytes = 0;
      const relations = rows.map((r) => {
        const relation: Relation = {
          name: r.name,
          totalBytes: Number(r.totalBytes),
          tableBytes: Number(r.tableBytes),
          indexBytes: Number(r.indexBytes),
          liveTuples: Number(r.liveTuples),
          deadTuples: Number(r.deadTuples),
          lastVacuum: r.lastVacuum ?? null,
          lastAutovacuum: r.lastAutovacuum ?? null,
        };
        const tuples = relation.liveTuples + relation.deadTuples;
        // The heap and its TOAST (where large payloads live) shrink with the share of dead rows.
        if (tuples > 0) reclaimableBytes += Math.floor(((relation.totalBytes - relation.indexBytes) * relation.deadTuples) / tuples);
        return relation;
      });
      return { kind: 'postgres', schema, relations, reclaimableBytes };
    }
    const [pages] = await this.#single((runner) =>
      runner.rows(
        rawQuery<{ pageCount: number; pageSize: number; freePages: number }>(
          'select (select page_count from pragma_page_count()) as "pageCount", (select page_size from pragma_page_size()) as "pageSize", (select freelist_count from pragma_freelist_count()) as "freePages"',
        ),
      ),
    );
    const [mode] = await this.#single((runner) => runner.rows(rawQuery<{ journal_mode: string }>('pragma journal_mode')));
    const pageCount = Number(pages?.pageCount ?? 0);
    const pageSize = Number(pages?.pageSize ?? 0);
    const freePages = Number(pages?.freePages ?? 0);
    return { kind: 'sqlite', fileBytes: pageCount * pageSize, pageSize, pageCount, freePages, reclaimableBytes: freePages * pageSize, journalMode: String(mode?.journal_mode ?? '') };
  }

  /**
   * SQLite: `VACUUM` at root level (never inside a transaction), which rewrites the file without
   * its free pages; in WAL mode readers in other processes keep reading their snapshot, and
   * writers wait (`busy_timeout`) as for any write. Then `wal_checkpoint(TRUNCATE)` copies the
   * rewritten pages back so the file shrinks now (when a reader still holds an old snapshot the
   * checkpoint stops short, and the next one finishes it). PostgreSQL: runs nothing and resolves
   * to `undefined`: plain VACUUM keeps the space in the table (autovacuum runs it anyway), and
   * VACUUM FULL locks the table against every reader and writer, so that is for the database
   * owner to schedule (see {@link storageReport}).
   */
  async compact(): Promise<StorageReport | undefined> {
    if (this.#bound) throw new CheckpointError('compact cannot run inside a transaction');
    if (this.#shared.flavor === 'postgres') return undefined;
    await this.#single((runner) => runner.rows(rawQuery('vacuum')));
    await this.#single((runner) => runner.rows(rawQuery('pragma wal_checkpoint(truncate)')));
    return this.storageReport();
  }

  /** A table of the store as SQL: schema-qualified on PostgreSQL. */
  #table(name: 'checkpoints' | 'checkpoint_meta'): string {
    return this.#shared.flavor === 'postgres' ? `"${this.#shared.schema.replaceAll('"', '""')}"."${name}"` : `"${name}"`;
  }

  /**
   * Runs `fn` in one transaction (SQLite: `BEGIN IMMEDIATE`); all or nothing. Calls on the adapter
   * handed to `fn`, including nested `transaction` calls, join it. Calls on the root adapter from
   * inside `fn` wait for it to finish on SQLite (one connection), so use the handed adapter.
   *
   * @example
   * ```ts
   * await adapter.transaction(async (tx) => {
   *   await tx.insert(a);
   *   await tx.insert(b);
   * });
   * ```
   */
  async transaction<T>(fn: (tx: CheckpointAdapter) => Promise<T>): Promise<T> {
    this.#ensureOpen();
    if (this.#shared.ready) await this.#shared.ready;
    const bind = (runner: QueryRunner) => KyselyAdapter.#boundTo(this.#shared, runner, this.capabilities);
    return runInTransaction(this, this.#bound, (body) => this.#shared.connection.transaction(body), bind, fn);
  }

  /** Releases the database when this adapter owns it (the front doors' adapters do). Idempotent; later calls fail. */
  async close(): Promise<void> {
    if (this.#shared.closed) return;
    this.#shared.closed = true;
    await this.#shared.connection.close();
  }

  /** Inserts one row and applies retention, on a runner that is already in a transaction when needed. */
  async #insertIn(runner: QueryRunner, row: NewCheckpointRow, keep: number | undefined): Promise<InsertResult> {
    const { queries, postgres } = this.#shared;
    const values = insertValues(row);
    // On SQLite, BEGIN IMMEDIATE already serialises writers; PostgreSQL needs explicit locks.
    if (postgres && keep !== undefined) await runner.rows(postgres.lockSession(row.namespace, row.sessionId));
    // An id drawn from the sequence (reserveId) is below it already: no lock, no move.
    const drawn = row.id !== undefined && this.#shared.reserved.delete(row.id);
    if (postgres && row.id !== undefined && !drawn) await runner.rows(postgres.lockIds());
    const inserted = first(
      await runner.rows(row.id === undefined ? queries.insert.withValues(values) : queries.insertWithId.withValues({ ...values, id: row.id })),
    );
    if (!inserted) throw await this.#conflict(runner, row);
    const id = Number(inserted.id);
    // SQLite AUTOINCREMENT keeps later ids above an explicit one by itself; a PostgreSQL identity does not.
    if (postgres && row.id !== undefined && !drawn) await runner.rows(postgres.keepSequenceAbove(id));
    const pruned =
      keep === undefined
        ? []
        : idsOf(await runner.rows(queries.retain.withValues({ namespace: row.namespace, sessionId: row.sessionId, keep }))).sort(
            (a, b) => a - b,
          );
    return { id, pruned };
  }

  /** The table of the adapter's compiled insert, when its SQL has the shape insertMany builds on (asked once). */
  #insertManyTable(): string | undefined {
    const texts = this.#shared.insertManyTexts;
    if (!texts.has(0)) texts.set(0, insertTable(this.#shared.queries.insert.withValues(insertValues(PROBE_ROW)).sql) ?? null);
    return texts.get(0) ?? undefined;
  }

  /** insertMany's SQL for `count` rows, built once per count. */
  #insertManyText(table: string, count: number): string {
    const texts = this.#shared.insertManyTexts;
    let text = texts.get(count);
    if (text === undefined || text === null) {
      text = insertManySql(table, this.#shared.flavor, count);
      texts.set(count, text);
    }
    return text;
  }

  /**
   * The error of a batch that could not go in whole: for each row in order, what the single
   * insert would have refused it for (the id limit, then its ref held by an earlier row of the
   * batch or by a stored row). Nothing of the batch is in the table when it is asked; `before` is
   * the highest id before the batch when its first chunks went in (and were deleted again: the
   * id counter stays past them).
   */
  async #batchError(runner: QueryRunner, rows: readonly NewCheckpointRow[], before: number | undefined): Promise<CheckpointConflictError> {
    const q = this.#shared.queries;
    const clash = firstBatchClash(rows);
    const highest = before ?? Number(first(await runner.rows(q.highestId.withValues({})))?.id ?? 0);
    for (let k = 0; k < rows.length; k++) {
      const row = rows[k] as NewCheckpointRow;
      if (highest + k + 1 > MAX_CHECKPOINT_ID) return idLimitError();
      if (k === clash) return batchClashError(row);
      if (row.sourceRef === null) continue;
      const holder = first(await runner.rows(q.findBySourceRef.withValues({ namespace: row.namespace, sourceRef: row.sourceRef })));
      if (holder) return new CheckpointConflictError(`source_ref already exists in namespace '${row.namespace}'`, { ids: [Number(holder.id)] });
    }
    // Nothing in the way any more: the writer that was has rolled back. Its caller may try again.
    return new CheckpointConflictError('a row of the batch was refused by a concurrent write', { ids: [] });
  }

  /** The error for an insert that ON CONFLICT DO NOTHING turned away, naming the row in the way. */
  async #conflict(runner: QueryRunner, row: NewCheckpointRow): Promise<CheckpointConflictError> {
    const q = this.#shared.queries;
    if (row.id === undefined && Number(first(await runner.rows(q.highestId.withValues({})))?.id) >= MAX_CHECKPOINT_ID) return idLimitError();
    if (row.id !== undefined && first(await runner.rows(q.getRowAnyNamespace.withValues({ id: row.id })))) {
      return new CheckpointConflictError(`Checkpoint id ${row.id} already exists`, { ids: [row.id] });
    }
    const holder =
      row.sourceRef === null
        ? undefined
        : first(await runner.rows(q.findBySourceRef.withValues({ namespace: row.namespace, sourceRef: row.sourceRef })));
    return new CheckpointConflictError(`source_ref already exists in namespace '${row.namespace}'`, {
      ids: holder ? [holder.id] : [],
    });
  }

  /**
   * SQLite: `template` with this LIMIT written into its SQL as a literal (SQLite reads a short range
   * about three times faster that way than with a bound LIMIT), made on first use from the template
   * itself, so no query builder is needed; `undefined` on PostgreSQL and past {@link LITERAL_LIMITS}
   * values per direction.
   */
  #literalRange(
    template: QueryTemplate<SourceRefRange, CheckpointRow>,
    direction: 'asc' | 'desc',
    limit: number,
  ): QueryTemplate<Omit<SourceRefRange, 'limit'>, CheckpointRow> | undefined {
    const cache = this.#shared.literalRanges;
    if (!cache) return undefined;
    const key = `${direction} ${limit}`;
    let literal = cache.get(key);
    if (!literal && cache.size < 2 * LITERAL_LIMITS) {
      literal = template.withLiteralLimit(limit);
      if (literal) cache.set(key, literal);
    }
    return literal;
  }

  /** Runs one statement (or a read-only sequence) at root level, or on the open transaction. */
  #single<T>(fn: (runner: QueryRunner) => Promise<T>): Promise<T> {
    this.#ensureOpen();
    if (this.#shared.ready) return this.#shared.ready.then(() => this.#single(fn));
    if (this.#bound) return fn(this.#runner);
    const { connection } = this.#shared;
    return connection.exclusive ? connection.exclusive(() => fn(connection.runner)) : fn(connection.runner);
  }

  /** Runs several writes atomically: in a new write transaction, or in the open one. */
  #write<T>(fn: (runner: QueryRunner) => Promise<T>): Promise<T> {
    this.#ensureOpen();
    if (this.#shared.ready) return this.#shared.ready.then(() => this.#write(fn));
    return this.#bound ? fn(this.#runner) : this.#shared.connection.transaction(fn);
  }

  #ensureOpen(): void {
    if (this.#shared.closed) throw new CheckpointError('the store is closed');
  }
}

/** A row only to render the insert's SQL (its text does not depend on the values). */
const PROBE_ROW: NewCheckpointRow = { namespace: 'n', sessionId: 's', kind: 'k', name: 'n', payloadJson: '{}', payloadSha256: '', createdAt: '', sourceRef: null };

/** The inserted columns of a row, without its id. */
function insertValues(row: NewCheckpointRow): InsertValues {
  return {
    namespace: row.namespace,
    sessionId: row.sessionId,
    kind: row.kind,
    name: row.name,
    payloadJson: row.payloadJson,
    payloadSha256: row.payloadSha256,
    createdAt: row.createdAt,
    sourceRef: row.sourceRef,
  };
}

function first<R extends { id: unknown }>(rows: R[]): R | undefined {
  const row = rows[0];
  if (row && typeof row.id !== 'number') numericIds(rows);
  return row;
}

/**
 * PostgreSQL returns `bigint` as a string; ids are safe integers, so they become numbers. This is
 * the only change made to a stored value, and it never touches the columns the facade verifies.
 * An id beyond 2^53 (tampered) stays as the driver gave it: as a number it would read back as its
 * neighbour, and the facade refuses it, naming the stored value.
 */
function numericIds<R extends { id: unknown }>(rows: R[]): R[] {
  for (const row of rows) {
    if (typeof row.id !== 'string' && typeof row.id !== 'bigint') continue;
    const id = Number(row.id);
    if (Number.isSafeInteger(id)) row.id = id as R['id'];
  }
  return rows;
}

/** The range of a PostgreSQL `bigint`, which -Infinity and a tampered id read back as a rounded number fall outside. */
const BIGINT_MIN = -(2n ** 63n);
const BIGINT_MAX = 2n ** 63n - 1n;

/**
 * `afterId` as a PostgreSQL `bigint` (text, so no rounding on the way): below the range (the
 * store's first page asks with -Infinity) is its lowest value; `undefined` when no `bigint` is
 * greater.
 */
function bigintAfter(afterId: number): number | undefined {
  if (afterId < -(2 ** 63)) return String(BIGINT_MIN) as unknown as number;
  if (!(afterId < 2 ** 63)) return undefined;
  const value = BigInt(Math.floor(afterId));
  return value >= BIGINT_MAX ? undefined : (String(value) as unknown as number);
}

function idsOf(rows: IdRow[]): number[] {
  return rows.map((row) => Number(row.id));
}

/**
 * True when PostgreSQL compares text in byte (code point) order here: the column has no collation
 * of its own and the database's default is libc's C, POSIX or C.UTF-8, or the builtin provider's
 * C or C.UTF-8 (PostgreSQL 17+). An ICU default is never taken as byte order: its `datcollate`
 * still names a libc locale (often C.UTF-8) that the server does not compare with. Anything not
 * known to be byte order answers false: the range reads then say `COLLATE "C"`, slower, still
 * right. Only asked on PostgreSQL.
 */
async function byteOrderCollation(runner: QueryRunner, postgres: PostgresStatements | undefined): Promise<boolean> {
  if (!postgres) return false;
  const [row] = await runner.rows(postgres.collations());
  if (!row || row.collation !== null) return false;
  if (row.provider === 'c') return BYTE_ORDER_LIBC.includes(row.database);
  if (row.provider === 'b') return row.locale === 'C' || row.locale === 'C.UTF-8';
  return false;
}

/** libc collations that compare text by its bytes (UTF-8 bytes are in code point order). */
const BYTE_ORDER_LIBC = ['C', 'POSIX', 'C.UTF-8', 'C.utf8'];

/** The per-call query builders; their module loads Kysely, so it is loaded on first use. */
const perCallQueries = once(() => import('./queries.js'));

/** The most ranges {@link KyselyAdapter.listBySourceRefRanges} puts in one statement (SQLite's compound SELECT takes 500 terms). */
const MAX_RANGES_PER_STATEMENT = 100;

/** How many shapes of {@link KyselyAdapter.listBySourceRefRanges} statements an adapter keeps compiled; others compile per call. */
const MAX_RANGE_SHAPES = 64;

/** `fn`'s promise, asked for once. A rejected one is asked for again next time. */
function once<T>(fn: () => Promise<T>): () => Promise<T> {
  let promise: Promise<T> | undefined;
  return () => {
    promise ??= fn().catch((error: unknown) => {
      promise = undefined;
      throw error;
    });
    return promise;
  };
}

/** The source-ref constraint's name on PostgreSQL (migrations.ts). */
const SOURCE_REF_CONSTRAINT = 'checkpoints_namespace_source_ref_key';

/** SQLite's message for a clash on the `(namespace, source_ref)` unique index of the table. */
const SQLITE_SOURCE_REF_CLASH = /^UNIQUE constraint failed: (?:"?[^\s,]+"?\.)?"?checkpoints"?\.namespace, (?:"?[^\s,]+"?\.)?"?checkpoints"?\.source_ref$/u;

/**
 * True for a unique violation on the `(namespace, source_ref)` constraint: a ref of the batch
 * held by another row of it, or by a writer that committed first (PostgreSQL: SQLSTATE 23505
 * naming the constraint; SQLite: SQLITE_CONSTRAINT_UNIQUE, extended code 2067, naming its columns). A unique
 * violation of another constraint (the id) and every other error are not a refusal.
 */
function isSourceRefClash(error: unknown, flavor: SqlFlavor): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const { code, errcode, constraint, message } = error as { code?: unknown; errcode?: unknown; constraint?: unknown; message?: unknown };
  if (flavor === 'postgres') return code === '23505' && constraint === SOURCE_REF_CONSTRAINT;
  // better-sqlite3 names the extended code; node:sqlite (a caller's own Kysely dialect) gives its number.
  return (code === 'SQLITE_CONSTRAINT_UNIQUE' || errcode === 2067) && typeof message === 'string' && SQLITE_SOURCE_REF_CLASH.test(message);
}
