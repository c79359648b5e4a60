import { UsageError } from '../errors/usage-error.js';
import { FAMILIES, type Family, type ThreadSelector } from '../inspect/types.js';
import { VERBOSE_ENV } from '../output/stderr-guard.js';
import { CONNECT_TIMEOUT_ENV, DATABASE_URL_ENV, KEY_FILE_ENV, SCHEMA_ENV, STORE_ENV } from '../store/store-selection.js';

/*
 * The flag schema of the built-in commands: plain data, so that the built-in route parses with it
 * (parse-argv.ts) without loading oclif, oclif's manifest and help are generated from it
 * (oclif-commands.ts), and an action's flag types are inferred from it (FlagValues).
 */

/** One flag: a string or integer option (Python `int()` rules), or a boolean switch. */
export interface FlagSpec {
  readonly type: 'string' | 'integer' | 'boolean';
  /** Help text. */
  readonly description: string;
  /** The call must give it. Default: `false`. */
  readonly required?: boolean;
  /** Value when absent (a boolean is `false` when absent). Default: none, the key is left out. */
  readonly default?: string | number | boolean;
  /** Help section (`STORE`, `GLOBAL`). Default: the command's own flags. */
  readonly helpGroup?: string;
}

/** A command's flags by command-line name (without `--`). */
export type FlagSchema = Readonly<Record<string, FlagSpec>>;

type Value<S> = S extends { type: 'integer' } ? number : S extends { type: 'boolean' } ? boolean : string;
type Always<S> = S extends { required: true } ? true : S extends { default: string | number | boolean } ? true : S extends { type: 'boolean' } ? true : false;

/**
 * The parsed flags of a schema: required and defaulted flags (and booleans) are always present,
 * the others optional.
 *
 * @example
 * ```ts
 * type F = FlagValues<{ id: { type: 'integer'; description: ''; required: true }; kind: { type: 'string'; description: '' } }>;
 * // { readonly id: number } & { readonly kind?: string | undefined }
 * ```
 */
export type FlagValues<F extends FlagSchema> = { readonly [K in keyof F as Always<F[K]> extends true ? K : never]: Value<F[K]> } & {
  readonly [K in keyof F as Always<F[K]> extends true ? never : K]?: Value<F[K]> | undefined;
};

type Options<T> = { description: string; required?: boolean; default?: T; helpGroup?: string };

/**
 * Builders of {@link FlagSpec}s, keeping `required: true` and defaults in the type.
 *
 * @example
 * ```ts
 * flags: { id: flag.integer({ description: 'Checkpoint id.', required: true }), 'dry-run': flag.boolean({ description: 'Plan only.' }) }
 * ```
 */
export const flag = {
  string: <const O extends Options<string>>(options: O) => ({ type: 'string' as const, ...options }),
  integer: <const O extends Options<number>>(options: O) => ({ type: 'integer' as const, ...options }),
  boolean: <const O extends Omit<Options<never>, 'required' | 'default'>>(options: O) => ({ type: 'boolean' as const, ...options }),
};

/** `--namespace`, defaulting to `"default"`; given a description, optional (the command says what absent means). */
export const namespaceFlag = <const D extends string | undefined = undefined>(description?: D) =>
  (description === undefined ? flag.string({ description: 'Namespace of the checkpoints.', default: 'default' }) : flag.string({ description })) as D extends string
    ? { type: 'string'; description: string }
    : { type: 'string'; description: string; default: 'default' };

/** `--apply`: perform a destructive or bulk change; without it the command is a dry run. */
export const applyFlag = (description = 'Apply the change; without it the command is a dry run.') => flag.boolean({ description });

/**
 * The flags of every command: the store (`--store`, `--database-url`, `--schema`,
 * `--connect-timeout`, `--key-file`) and `--verbose`. The environment fallbacks are resolved by `selectStore`,
 * not the parser, so that a flag of one kind beats a variable of the other instead of colliding
 * with it; `--verbose` is read by the stderr guard before anything runs.
 */
export const GLOBAL_FLAGS = {
  'database-url': flag.string({ description: `PostgreSQL connection URL (postgres://user@host:5432/db). Default is $${DATABASE_URL_ENV}.`, helpGroup: 'STORE' }),
  'connect-timeout': flag.string({ description: `PostgreSQL only: seconds a connection attempt may take before failing. Default is $${CONNECT_TIMEOUT_ENV}, else 10.`, helpGroup: 'STORE' }),
  schema: flag.string({
    description: `PostgreSQL only: schema holding the store tables (quoted: case and characters kept). Default is $${SCHEMA_ENV}, else public. Only init, create and import create it.`,
    helpGroup: 'STORE',
  }),
  store: flag.string({ description: `Path of the SQLite store file. Default is $${STORE_ENV}.`, helpGroup: 'STORE' }),
  'key-file': flag.string({
    description: `Key file of a sealed store (owner-only, from "keys new"): rows are sealed and encrypted on write, checked and decrypted on read. Default is $${KEY_FILE_ENV}, else none (a plain store).`,
    helpGroup: 'STORE',
  }),
  verbose: flag.boolean({ description: `Print warnings and progress on stderr. Default is silence (also $${VERBOSE_ENV}=1).`, helpGroup: 'GLOBAL' }),
};

/**
 * `--source`: read an official LangGraph saver's store (SqliteSaver file, PostgresSaver database)
 * instead of ours. Every command that reads threads takes it; `diff` takes only this name, since
 * its `--from` is a checkpoint id.
 */
export const SOURCE_FLAG = {
  source: flag.string({
    description: "Read an official LangGraph saver's store instead of ours, read-only: sqlite:PATH (a SqliteSaver file) or postgres://URL (a PostgresSaver database; schema from --schema or ?schema=S, default public). Its rows carry no hash: everything read is marked unverified.",
  }),
};

/** `--from` and `--source` (the same flag under two names) of `threads`, `state` and `inspect`. */
export const FROM_FLAGS = {
  from: flag.string({ description: 'Same as --source: sqlite:PATH or postgres://URL of an official LangGraph saver, read-only.' }),
  ...SOURCE_FLAG,
};

/** The flags naming one thread, shared by `state` and `diff`. */
export const THREAD_FLAGS = {
  thread: flag.string({ description: 'The LangGraph thread id or the session id.', required: true }),
  namespace: namespaceFlag("Store namespace. Default: the family's default namespace (langgraph, openai-agents, default)."),
  family: flag.string({ description: 'langgraph, openai-agents or checkpoints; needed only when the id names threads of several families.' }),
  'checkpoint-ns': flag.string({ description: 'LangGraph checkpoint namespace (a subgraph). Default is "" (the root graph).' }),
};

/**
 * The thread selector of parsed {@link THREAD_FLAGS}.
 *
 * @throws UsageError for an unknown `--family`.
 * @example
 * ```ts
 * threadSelector({ thread: 't-1', family: 'langgraph' }); // { threadId: 't-1', family: 'langgraph' }
 * ```
 */
export function threadSelector(flags: FlagValues<typeof THREAD_FLAGS>): ThreadSelector {
  const { thread, namespace, family, 'checkpoint-ns': checkpointNs } = flags;
  if (family !== undefined && !(FAMILIES as readonly string[]).includes(family)) throw new UsageError(`--family must be one of ${FAMILIES.join(', ')}`);
  return {
    threadId: thread,
    ...(namespace === undefined ? {} : { namespace }),
    ...(family === undefined ? {} : { family: family as Family }),
    ...(checkpointNs === undefined ? {} : { checkpointNs }),
  };
}
