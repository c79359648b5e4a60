import { describe, expect, it } from 'vitest';
import { conditionalInsertParameters, conditionalInsertShape, conditionalInsertSql } from './conditional-insert-sql.js';

// The adapter's insert, shortened to its shape: values, the taken-ref check, the conflict clause.
const PG = 'insert into "s"."checkpoints" ("namespace", "source_ref") select cast($1 as text) as "namespace", cast($2 as text) as "source_ref" where not exists (select 1 as "one" from "s"."checkpoints" where "namespace" = $3 and "source_ref" = $4) on conflict do nothing returning "id"';
const SQLITE = PG.replaceAll('"s".', '').replace(/\$\d/g, '?');

describe('conditionalInsertSql', () => {
  it('PostgreSQL: the lock first, then the taken-ref check, then the count of required rows read FOR SHARE; parameters numbered after the insert\'s', () => {
    const present = [{ sourceRef: 'a' }, { sourceRef: 'b', payloadSha256: 'h' }];
    expect(conditionalInsertSql(PG, 'postgres', present, true, 4)).toBe(
      'insert into "s"."checkpoints" ("namespace", "source_ref") select cast($1 as text) as "namespace", cast($2 as text) as "source_ref"' +
        ' where (select true from (select pg_advisory_xact_lock(hashtextextended(cast($10 as text), 0))) as "lock") and not exists (select 1 as "one" from "s"."checkpoints" where "namespace" = $3 and "source_ref" = $4)' +
        ' and (select count(*) from (select 1 from "s"."checkpoints" where "namespace" = $5 and (("source_ref" = $6) or ("source_ref" = $7 and "payload_sha256" = $8)) for share) as "present") = $9' +
        ' on conflict do nothing returning "id"',
    );
    expect(conditionalInsertParameters('postgres', 'app', present, 'key')).toEqual(['app', 'a', 'b', 'h', 2, 'key']);
    expect(conditionalInsertShape(present, true)).toBe('Lrs');
  });

  it('SQLite: no lock, no FOR SHARE; distinct refs as one EXISTS each (the namespace passed for each), positional parameters in text order', () => {
    const present = [{ sourceRef: 'a' }, { sourceRef: 'b', payloadSha256: 'h' }];
    expect(conditionalInsertSql(SQLITE, 'sqlite', present, false, 4)).toBe(
      SQLITE.replace(
        ' on conflict',
        ' and exists (select 1 from "checkpoints" where "namespace" = ? and "source_ref" = ?) and exists (select 1 from "checkpoints" where "namespace" = ? and "source_ref" = ? and "payload_sha256" = ?) on conflict',
      ),
    );
    expect(conditionalInsertParameters('sqlite', 'app', present, undefined)).toEqual(['app', 'a', 'app', 'b', 'h']);
    expect(conditionalInsertShape(present, false)).toBe('-rs');
  });

  it('SQLite: a ref that repeats takes the count form (never satisfied), under a shape of its own', () => {
    const present = [{ sourceRef: 'a' }, { sourceRef: 'a' }];
    expect(conditionalInsertSql(SQLITE, 'sqlite', present, false, 4)).toBe(
      SQLITE.replace(' on conflict', ' and (select count(*) from (select 1 from "checkpoints" where "namespace" = ? and (("source_ref" = ?) or ("source_ref" = ?))) as "present") = ? on conflict'),
    );
    expect(conditionalInsertParameters('sqlite', 'app', present, undefined)).toEqual(['app', 'a', 'a', 2]
    );
    expect(conditionalInsertShape(present, false)).toBe('-rr=');
  });

  it('nothing required: the insert as it was (plus the lock), and no parameters for the count', () => {
    expect(conditionalInsertSql(SQLITE, 'sqlite', [], false, 4)).toBe(SQLITE);
    expect(conditionalInsertParameters('sqlite', 'app', [], undefined)).toEqual([]);
  });

  it('an insert of another shape (rewritten by a Kysely plugin) gets no conditional form', () => {
    expect(conditionalInsertSql(PG.replace(' on conflict do nothing', ''), 'postgres', [{ sourceRef: 'a' }], false, 4)).toBeUndefined();
    expect(conditionalInsertSql(PG.replace('where not exists', 'where true and not exists'), 'postgres', [{ sourceRef: 'a' }], false, 4)).toBeUndefined();
  });
});
