import type { Compilable, CompiledQuery } from 'kysely';

/*
 * Kysely builds and compiles a query on every call, and its SQLite driver also re-prepares the
 * SQL each time: for a one-row insert or get that costs more than SQLite itself. The adapter's
 * hot queries are therefore built and compiled once, with named placeholders where the values
 * go, and each call only binds a new parameter array (and, on SQLite, reuses a prepared
 * statement for the SQL text).
 */

/** Stands in for a parameter value at compile time. */
class Placeholder {
  constructor(readonly name: string) {}
}

/** Placeholder values typed as the parameters they stand for, so the builder stays typed. */
export type Placeholders<P> = { readonly [K in keyof P]: P[K] };

/** A query compiled once; {@link QueryTemplate.bind} supplies the values of each call. */
export class QueryTemplate<P extends object, R> {
  /** The compiled query with placeholder objects as parameters. */
  readonly compiled: CompiledQuery<R>;
  /** Per compiled parameter: the name it binds from, or the constant it holds. */
  readonly #slots: readonly ({ name: keyof P } | { value: unknown })[];

  private constructor(compiled: CompiledQuery<R>) {
    this.compiled = compiled;
    this.#slots = compiled.parameters.map((p) => (p instanceof Placeholder ? { name: p.name as keyof P } : { value: p }));
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
    return new QueryTemplate<P, R>(build(placeholders).compile());
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
