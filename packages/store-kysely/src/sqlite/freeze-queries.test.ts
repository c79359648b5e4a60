import Database from 'better-sqlite3';
import { Kysely, SqliteDialect } from 'kysely';
import { describe, expect, it } from 'vitest';
import { compileQueries, sourceRefRangeWithLimit, type CheckpointQueries } from '../queries.js';
import type { QueryTemplate } from '../query-template.js';
import type { CheckpointDatabase } from '../schema.js';
import { frozenSqliteQueries } from './open-sqlite-store.js';
import { sqliteCompiler } from './sqlite-kysely.js';

/** The command that rewrites the frozen table from the builder code. */
const REGENERATE = 'npx vitest run src/sqlite/freeze-queries.test.ts --update (in packages/store-kysely)';

/** A TypeScript string literal (single-quoted, as the code style has it). */
const literal = (text: string) => `'${text.replaceAll('\\', '\\\\').replaceAll("'", "\\'").replaceAll('\n', '\\n')}'`;

/** The text of `frozen-queries.generated.ts` for these compiled templates. */
function frozenModule(queries: CheckpointQueries): string {
  const entries = Object.entries(queries).map(([name, template]: [string, QueryTemplate<object, unknown>]) => {
    const { sql, slots } = template.parts;
    const slotText = slots.map((slot) =>
      'name' in slot ? `{ name: ${literal(slot.name)} }` : `{ value: ${typeof slot.value === 'string' ? literal(slot.value) : String(slot.value)} }`,
    );
    return `  ${name}: {\n    sql: ${literal(sql)},\n    slots: [${slotText.join(', ')}],\n  },`;
  });
  return [
    '// Generated from compileQueries (src/queries.ts) by src/sqlite/freeze-queries.test.ts: do not edit.',
    `// Regenerate after changing a query: ${REGENERATE}`,
    "import type { CheckpointQueries } from '../queries.js';",
    "import type { FrozenQuery } from '../query-template.js';",
    '',
    '/**',
    ' * The SQLite SQL text and parameter slots of every hot query, as Kysely compiles them. The SQLite',
    ' * front door builds its templates from this table, so opening and using a store never loads',
    ' * Kysely; a test compiles the builder code and requires this file to match it byte for byte.',
    ' */',
    'export const SQLITE_QUERY_PARTS: { readonly [K in keyof CheckpointQueries]: FrozenQuery } = {',
    ...entries,
    '};',
    '',
  ].join('\n');
}

describe('frozen SQLite queries', () => {
  it('are the builder code compiled for SQLite, byte for byte', async () => {
    await expect(frozenModule(compileQueries(sqliteCompiler(), 'sqlite'))).toMatchFileSnapshot(
      './frozen-queries.generated.ts',
      `src/sqlite/frozen-queries.generated.ts is out of date with src/queries.ts; regenerate it: ${REGENERATE}`,
    );
  });

  it('compile as a Kysely over better-sqlite3 compiles them (the compile-only instance is no different)', () => {
    const database = new Database(':memory:');
    try {
      const overDriver = compileQueries(new Kysely<CheckpointDatabase>({ dialect: new SqliteDialect({ database }) }), 'sqlite');
      const compileOnly = compileQueries(sqliteCompiler(), 'sqlite');
      for (const name of Object.keys(overDriver) as (keyof CheckpointQueries)[]) {
        expect(compileOnly[name].parts, name).toEqual(overDriver[name].parts);
      }
    } finally {
      database.close();
    }
  });

  it('bind values into the same parameter arrays as the compiled templates', () => {
    const compiled = compileQueries(sqliteCompiler(), 'sqlite');
    const frozen = frozenSqliteQueries();
    const values = {
      id: 7, namespace: 'ns', sessionId: 's', kind: 'k', name: 'n', payloadJson: '{}', payloadSha256: 'h',
      createdAt: 't', sourceRef: 'r', lo: 'a', hi: 'b', limit: 3, offset: 4, afterId: 5, keep: 2,
    };
    expect(Object.keys(frozen).sort()).toEqual(Object.keys(compiled).sort());
    for (const name of Object.keys(compiled) as (keyof CheckpointQueries)[]) {
      const want = compiled[name].withValues(values as never);
      const got = frozen[name].withValues(values as never);
      expect(got.sql, name).toBe(want.sql);
      expect(got.parameters, name).toEqual(want.parameters);
    }
  });

  it('give a literal LIMIT exactly as the builder writes one (the adapter derives those from the frozen ranges)', () => {
    const frozen = frozenSqliteQueries();
    for (const [direction, template] of [['asc', frozen.sourceRefRangeAscNative], ['desc', frozen.sourceRefRangeDescNative]] as const) {
      for (const limit of [0, 1, 2, 101, 2 ** 53 - 1]) {
        const derived = template.withLiteralLimit(limit)!;
        const built = sourceRefRangeWithLimit(sqliteCompiler(), direction, limit);
        expect(derived.parts).toEqual(built.parts);
      }
      expect(template.withLiteralLimit(-1)).toBeUndefined();
      expect(template.withLiteralLimit(1.5)).toBeUndefined();
    }
    expect(frozen.getRow.withLiteralLimit(1)).toBeUndefined();
  });
});
