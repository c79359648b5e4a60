/**
 * rawQuery copies the shape of Kysely's `CompiledQuery.raw` (a frozen `RawNode` holding the text)
 * so that the SQLite read path runs without loading Kysely. A Kysely upgrade that changes that
 * shape must fail here, not in production: the copy is compared with the installed Kysely's own
 * output, field by field and by running both through a real Kysely instance over SQLite.
 */
import Database from 'better-sqlite3';
import { CompiledQuery, Kysely, SqliteDialect, sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { rawQuery } from './raw-query.js';

const inputs: Array<[string, unknown[]]> = [
  ['select 1 as one', []],
  ['select ? as a, ? as b', [1, 'two']],
  ["select name from sqlite_schema where type = ? and name like ?", ['table', 'check%']],
];

const db = new Kysely<Record<string, never>>({ dialect: new SqliteDialect({ database: new Database(':memory:') }) });
afterAll(() => db.destroy());

describe('rawQuery matches Kysely', () => {
  it.each(inputs)('%s: the same sql, RawNode and parameters as CompiledQuery.raw', (text, parameters) => {
    const ours = rawQuery(text, parameters);
    const kysely = CompiledQuery.raw(text, parameters);
    const { queryId: ourId, ...ourRest } = ours;
    const { queryId: theirId, ...theirRest } = kysely;
    expect(ourRest).toEqual(theirRest);
    expect(Object.keys(ours).sort()).toEqual(Object.keys(kysely).sort());
    // Kysely's id is a lazy getter object; what plugins use is an object per query (a WeakMap
    // key) whose `queryId` is a string.
    expect(typeof ourId).toBe('object');
    expect(typeof ourId.queryId).toBe(typeof theirId.queryId);
    // Kysely freezes the node and its arrays; plugins and compilers may rely on that.
    for (const [mine, theirs] of [[ours.query, kysely.query], [(ours.query as unknown as { sqlFragments: unknown }).sqlFragments, (kysely.query as unknown as { sqlFragments: unknown }).sqlFragments]]) {
      expect(Object.isFrozen(mine)).toBe(Object.isFrozen(theirs));
    }
  });

  it('has the RawNode that sql.raw compiles for the same text', () => {
    const text = 'select 1 as one';
    const compiled = sql.raw(text).compile(db);
    expect(rawQuery(text).query).toEqual(compiled.query);
    expect(rawQuery(text).sql).toBe(compiled.sql);
    expect(rawQuery(text).parameters).toEqual(compiled.parameters);
  });

  it.each(inputs)('%s: gives the same rows as CompiledQuery.raw through Kysely', async (text, parameters) => {
    const ours = await db.executeQuery(rawQuery(text, parameters));
    const kysely = await db.executeQuery(CompiledQuery.raw(text, parameters));
    expect(ours.rows).toEqual(kysely.rows);
  });

  it('gives every query its own id', () => {
    expect(rawQuery('select 1').queryId).not.toBe(rawQuery('select 1').queryId);
  });
});
