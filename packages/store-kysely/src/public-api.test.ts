import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

/**
 * Every name `@session-checkpoint/store-kysely` exports from its main entry, values and types, sorted. Each is a
 * semver promise: widening (or narrowing) the API means editing this list on purpose.
 */
const PUBLIC_NAMES = [
  'AdapterConnection', 'CheckpointDatabase', 'CheckpointMetaTable', 'CheckpointsTable',
  'CreateSqliteAdapterOptions', 'DEFAULT_BUSY_TIMEOUT_MS', 'KyselyAdapter', 'KyselyAdapterOptions',
  'KyselyConnection', 'KyselyConnectionOptions', 'LATEST_SCHEMA_VERSION', 'MIGRATIONS', 'MigrateOptions',
  'MigrationContext', 'MigrationReport', 'NAMESPACE_INDEX', 'PostgresAdapterOptions', 'PostgresConnection',
  'PostgresStoreOptions', 'QueryRunner', 'SCHEMA_VERSION', 'SESSION_INDEX', 'SQLITE_MEMORY', 'STORE_COLUMNS',
  'STORE_TABLES', 'SchemaMigration', 'SqlFlavor', 'SqliteAdapterOptions', 'SqliteDatabaseLike',
  'SqliteDurability', 'SqliteStatementLike', 'SqliteStoreOptions', 'createSqliteAdapter', 'migrateToLatest',
  'openPostgresAdapter', 'openPostgresStore', 'openSqliteAdapter', 'openSqliteStore',
];

/** The names a TypeScript consumer sees on the entry, as the compiler resolves them. */
function exportedNames(entry: string): string[] {
  const program = ts.createProgram([entry], { module: ts.ModuleKind.NodeNext, moduleResolution: ts.ModuleResolutionKind.NodeNext, noEmit: true, types: [] });
  const checker = program.getTypeChecker();
  const module = checker.getSymbolAtLocation(program.getSourceFile(entry)!)!;
  return checker.getExportsOfModule(module).map((symbol) => symbol.name).sort();
}

describe('the public API of @session-checkpoint/store-kysely', () => {
  it('exports exactly the pinned names', () => {
    expect(exportedNames(fileURLToPath(new URL('./index.ts', import.meta.url)))).toEqual(PUBLIC_NAMES);
  }, 60_000);

  it('exports at run time exactly the pinned names that are values', async () => {
    const runtime = Object.keys(await import('./index.js')).sort();
    expect(PUBLIC_NAMES.filter((name) => runtime.includes(name))).toEqual(runtime);
  });
});
