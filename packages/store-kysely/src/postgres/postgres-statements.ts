import { sql, type CompiledQuery, type Kysely } from 'kysely';
import { QueryTemplate } from '../query-template.js';

/** PostgreSQL-only statements of the adapter: the locks and the id sequence. */
export interface PostgresStatements {
  /**
   * Serialises retention per session: two concurrent puts to one session would otherwise each
   * delete against a snapshot missing the other's row and leave `keepLatest + 1` rows.
   */
  lockSession(namespace: string, sessionId: string): CompiledQuery;
  /** The caller's named lock of `transactionLock`, held until the transaction ends. */
  lockKey(key: string): CompiledQuery;
  /** The text whose 64-bit hash names the advisory lock of `key` (what {@link lockKey} locks). */
  lockKeyText(key: string): string;
  /**
   * Taken before an explicit-id insert: `SHARE ROW EXCLUSIVE` waits for every transaction holding
   * a generated id (inserts hold `ROW EXCLUSIVE` until commit) and keeps new ones out, so the
   * sequence can be moved above the explicit id without racing a concurrent `nextval`.
   */
  lockIds(): CompiledQuery;
  /** Moves the identity sequence so later generated ids are above `id`; never moves it back. */
  keepSequenceAbove(id: number): CompiledQuery;
  /** The next value of the identity sequence: an id no other insert will be given. */
  nextId(): CompiledQuery<{ id: number | string }>;
  /** The text naming the checkpoints table, as `pg_get_serial_sequence` takes it. */
  sequenceOf(): string;
  /**
   * The collation of `source_ref` (null when it has none of its own) and the database's default:
   * its libc collation (`datcollate`), its locale provider (`c` libc, `i` ICU, `b` builtin) and
   * the provider's locale (null for libc).
   */
  collations(): CompiledQuery<DatabaseCollation>;
}

/** What {@link PostgresStatements.collations} answers. */
export interface DatabaseCollation {
  collation: string | null;
  database: string;
  provider: string;
  locale: string | null;
}

/** Builds the statements for the tables in `schema`. */
export function postgresStatements(db: Kysely<any>, schema: string): PostgresStatements {
  const lock = QueryTemplate.compile<{ key: string }, unknown>((p) => ({
    compile: () => sql`select pg_advisory_xact_lock(hashtextextended(${p.key}, 0))`.compile(db),
  }));
  // The schema is part of the key: stores in two schemas of one database never wait on each other.
  const lockKeyText = (key: string) => JSON.stringify(['session-checkpoint:lock', schema, key]);
  const lockIds = sql`lock table ${sql.id(schema, 'checkpoints')} in share row exclusive mode`.compile(db);
  const table = `${quoteIdent(schema)}.checkpoints`;
  const nextId = sql<{ id: number | string }>`select nextval(pg_get_serial_sequence(${table}, 'id')) as id`.compile(db);
  // Read through to_jsonb so one statement fits every server: datlocprovider is new in 15,
  // daticulocale (15, 16) became datlocale (17). Before 15 the provider is always libc.
  const collations = sql<DatabaseCollation>`
    select (select collation_name from information_schema.columns
             where table_schema = ${schema} and table_name = 'checkpoints' and column_name = 'source_ref') as collation,
           d.datcollate as database,
           coalesce(to_jsonb(d) ->> 'datlocprovider', 'c') as provider,
           coalesce(to_jsonb(d) ->> 'datlocale', to_jsonb(d) ->> 'daticulocale') as locale
      from pg_database d where d.datname = current_database()`.compile(db);
  return {
    lockSession: (namespace, sessionId) =>
      lock.withValues({ key: JSON.stringify(['session-checkpoint:retention', schema, namespace, sessionId]) }),
    lockKey: (key) => lock.withValues({ key: lockKeyText(key) }),
    lockKeyText,
    lockIds: () => lockIds,
    keepSequenceAbove: (id) =>
      sql`select setval(s.seq, greatest(${id}::bigint, coalesce(pg_sequence_last_value(s.seq), 0)))
          from (select pg_get_serial_sequence(${table}, 'id')::regclass as seq) as s`.compile(db),
    collations: () => collations,
    nextId: () => nextId,
    sequenceOf: () => table,
  };
}

/** A PostgreSQL identifier quoted for use inside a text value (never spliced into SQL). */
export function quoteIdent(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}
