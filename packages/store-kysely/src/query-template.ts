import type { Compilable, CompiledQuery } from 'kysely';
import { rawQuery } from './raw-query.js';

/*
 * Kysely builds and compiles a query on every call, and its SQLite driver also re-prepares the
 * SQL each time: for a one-row insert or get that costs more than SQLite itself. The adapter's
 * hot queries are therefore built and compiled once, with named placeholders where the values
 * go, and each call only binds a new parameter array (and, on SQLite, reuses a prepared
 * statement for the SQL text).
 *
 * The SQLite front door goes one step further: it does not compile at all but builds its templates
 * from frozen parts (`sqlite/frozen-queries.generated.ts`, generated from the same builder code and
 * checked byte for byte by a test), so opening a store and using it never loads Kysely.
 */

/** Stands in for a parameter value at compile time. */
class Placeholder {
  constructor(readonly name: string) {}
}

/** One compiled parameter: bound from the named value, or a constant of the query. */
export type FrozenSlot = { readonly name: string } | { readonly value: string | number | null };

/** A template as text: its SQL and, per parameter, where the value comes from. */
export interface FrozenQuery {
  readonly sql: string;
  readonly slots: readonly FrozenSlot[];
}

/** Placeholder values typed as the parameters they stand for, so the builder stays typed. */
export type Placeholders<P> = { readonly [K in keyof P]: P[K] };

/** A query compiled once; {@link QueryTemplate.bind} supplies the values of each call. */
export class QueryTemplate<P extends object, R> {
  /** The compiled query with placeholder objects as parameters. */
  readonly compiled: CompiledQuery<R>;
  /** Per compiled parameter: the name it binds from, or the constant it holds. */
  readonly #slots: readonly ({ name: keyof P } | { value: unknown })[];

  private constructor(compiled: CompiledQuery<R>, slots: readonly ({ name: keyof P } | { value: unknown })[]) {
    this.compiled = compiled;
    this.#slots = slots;
  }

  /**
   * Builds and compiles a query once. `build` receives placeholders to use wherever a value goes.
   *
   * @example
   * ```ts
   * const byId = QueryTemplate.compile<{ id: number }, { id: number }>((p) =>
   *   db.selectFrom('checkpoints').select('id').where('id', '=', p.id));
   * byId.bind({ id: 7 }); // [7]
   * ```
   */
  static compile<P extends object, R>(build: (p: Placeholders<P>) => Compilable<R>): QueryTemplate<P, R> {
    const placeholders = new Proxy({} as Placeholders<P>, {
      get: (_target, name) => new Placeholder(String(name)),
    });
    const compiled = build(placeholders).compile();
    return new QueryTemplate<P, R>(
      compiled,
      compiled.parameters.map((p) => (p instanceof Placeholder ? { name: p.name as keyof P } : { value: p })),
    );
  }

  /**
   * A template from its SQL text and slots, as {@link QueryTemplate.parts} gave them: no Kysely
   * needed. The compiled query is a raw one (as `CompiledQuery.raw` makes), so Kysely's executor
   * can still run it.
   *
   * @example
   * ```ts
   * const byId = QueryTemplate.frozen<{ id: number }, { id: number }>({ sql: 'select "id" from "checkpoints" where "id" = ?', slots: [{ name: 'id' }] });
   * ```
   */
  static frozen<P extends object, R>(parts: FrozenQuery): QueryTemplate<P, R> {
    return new QueryTemplate<P, R>(
      rawQuery<R>(parts.sql),
      parts.slots.map((slot) => ('name' in slot ? { name: slot.name as keyof P } : { value: slot.value })),
    );
  }

  /**
   * The SQL text and slots, for freezing. Throws for a constant parameter that is not a string,
   * number or null, which a frozen table could not hold as written.
   */
  get parts(): FrozenQuery {
    return {
      sql: this.sql,
      slots: this.#slots.map((slot) => {
        if ('name' in slot) return { name: String(slot.name) };
        const { value } = slot;
        if (value === null || typeof value === 'string' || typeof value === 'number') return { value };
        throw new TypeError(`cannot freeze a constant parameter of type ${typeof value}`);
      }),
    };
  }

  /**
   * This query with its bound LIMIT written into the SQL as a literal: for SQLite, whose planner
   * reads a short index range faster with a literal LIMIT. Only a query whose SQL ends with
   * `limit ?` bound from the `limit` value qualifies; anything else gives `undefined`. The literal
   * is a non-negative safe integer, never text from a caller.
   *
   * @example
   * ```ts
   * template.withLiteralLimit(2)?.sql; // '... order by "source_ref" asc limit 2'
   * ```
   */
  withLiteralLimit(limit: number): QueryTemplate<Omit<P, 'limit'>, R> | undefined {
    const last = this.#slots[this.#slots.length - 1];
    const tail = / limit \?$/.exec(this.sql);
    if (!Number.isSafeInteger(limit) || limit < 0 || tail === null || last === undefined || !('name' in last) || last.name !== 'limit') return undefined;
    return new QueryTemplate<Omit<P, 'limit'>, R>(
      rawQuery<R>(`${this.sql.slice(0, tail.index)} limit ${limit}`),
      this.#slots.slice(0, -1) as ({ name: keyof Omit<P, 'limit'> } | { value: unknown })[],
    );
  }

  /** The SQL text (dialect-specific placeholders). */
  get sql(): string {
    return this.compiled.sql;
  }

  /** The parameter array for these values, in the order the SQL expects. */
  bind(values: P): unknown[] {
    return this.#slots.map((slot) => ('name' in slot ? values[slot.name] : slot.value));
  }

  /** A compiled query carrying these values, for Kysely's executor. */
  withValues(values: P): CompiledQuery<R> {
    return { ...this.compiled, parameters: this.bind(values) };
  }
}
