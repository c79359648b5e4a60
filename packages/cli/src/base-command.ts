import { Command, Errors, type Interfaces } from '@oclif/core';
import type { CheckpointStore } from '@session-checkpoint/core';
import { baseFlags } from './command/oclif-flags.js';
import { storeScope, type StoreScope } from './command/run-command.js';
import { refuseInheritedFlagNames } from './command/parse-argv.js';
import { toErrorOutput, type ErrorJson } from './errors/to-error-json.js';
import { writeDocument } from './output/write-json.js';
import type { OpenStoreOptions } from './store/open-store.js';
import { storeLocation } from './store/store-location.js';
import type { StoreFlagValues, StoreSelection } from './store/store-selection.js';

/** Parsed flags of a command built on {@link BaseCommand}: its own flags plus the store flags. */
export type CommandFlags<T extends CommandClass> = Interfaces.InferredFlags<(typeof BaseCommand)['baseFlags'] & T['flags']>;
/** Parsed arguments of a command built on {@link BaseCommand}. */
export type CommandArgs<T extends CommandClass> = Interfaces.InferredArgs<T['args']>;
/** What {@link CommandFlags} and {@link CommandArgs} read of a command class: its static `flags` and `args`. */
type CommandClass = { flags: Interfaces.FlagInput; args: Interfaces.ArgInput };

/**
 * Base class of plugin commands, published for plugin authors: oclif's `Command` with the CLI's
 * contract added through oclif's own extension points. It gives a command the store flags
 * (`--store`, `--database-url`, `--schema`, `--connect-timeout`, with their environment
 * fallbacks) and `--verbose`, and one JSON document per call:
 *
 * - a value returned from `run()` (or passed to {@link respond}) is printed as
 *   `{"ok": true, "result": ...}` once every store opened with {@link openStore} is closed;
 * - anything thrown is printed as `{"ok": false, "error": ..., "type": ...}`, exit code 1 (2 for
 *   usage errors); nothing goes to stderr unless `--verbose`, and no stack trace is shown.
 *
 * oclif runs it as any command (`init`, `run`, `catch`, `finally`); output is oclif's JSON mode
 * (`jsonEnabled()` is always true), so `this.log()` prints nothing; `this.warn()` writes to stderr,
 * which the CLI shows only with `--verbose`.
 *
 * @example
 * ```ts
 * import { BaseCommand, namespaceFlag } from '@session-checkpoint/cli/plugin';
 *
 * export default class Count extends BaseCommand<typeof Count> {
 *   static override description = 'Count the checkpoints of a namespace.';
 *   static override flags = { namespace: namespaceFlag() };
 *
 *   async run() {
 *     const store = await this.openStore();
 *     const sessions = await store.sessions({ namespace: this.flags.namespace });
 *     return { checkpoints: sessions.reduce((n, s) => n + s.count, 0) };
 *   }
 * }
 * ```
 */
export abstract class BaseCommand<T extends CommandClass = typeof Command> extends Command {
  /** The store flags and `--verbose`, added to every subclass's own flags. */
  static override baseFlags = baseFlags;
  /** Parsed positional arguments, available in `run()`. */
  protected args!: CommandArgs<T>;
  /** Parsed flags, available in `run()`. */
  protected flags!: CommandFlags<T>;
  #scope: StoreScope | undefined;
  #pending: { result: unknown } | undefined;

  /** Parses the command line (a parse failure is a usage error) and opens the store scope. */
  override async init(): Promise<void> {
    await super.init();
    const flags = { ...this.ctor.baseFlags, ...this.ctor.flags };
    refuseInheritedFlagNames(this.argv, Object.fromEntries(Object.entries(flags).map(([name, flag]) => [name, flag.type === 'boolean' ? 'boolean' : 'string'])));
    const parsed = await this.parse();
    this.args = parsed.args as CommandArgs<T>;
    this.flags = parsed.flags as CommandFlags<T>;
    this.#scope = storeScope(parsed.flags as StoreFlagValues);
  }

  /** Always JSON: the CLI prints one JSON document per call. */
  override jsonEnabled(): boolean {
    return true;
  }

  /** A warning on stderr (shown with `--verbose`), as oclif prints one outside JSON mode. */
  override warn(input: string | Error): string | Error {
    Errors.warn(input);
    return input;
  }

  /** `{"ok": true, "result": ...}`. */
  override toSuccessJson(result: unknown): { ok: true; result: unknown } {
    return { ok: true, result };
  }

  /** The CLI's error object (`null` for `this.exit()`, which prints nothing). */
  override toErrorJson(error: unknown): ErrorJson | null {
    return toErrorOutput(error).json;
  }

  /** Prints the run's one document, in the Python reference's layout; a second one is dropped. */
  override logJson(json: unknown): void {
    if (json !== null) writeDocument(json);
  }

  /** Closes the stores, then lets oclif print the error (exit 2 for usage errors, else 1). */
  override async catch(error: Error & { exitCode?: number }): Promise<unknown> {
    await this.#close().catch(() => undefined);
    process.exitCode = toErrorOutput(error).exitCode;
    return super.catch(error);
  }

  /**
   * Closes the stores (a failure while closing is the command's error, never hidden behind an
   * `"ok": true`) and prints a result given to {@link respond}.
   */
  override async finally(error: Error | undefined): Promise<unknown> {
    try {
      await this.#close();
    } catch (closing) {
      if (error === undefined) await this.catch(closing as Error);
      return super.finally(error);
    }
    if (error === undefined && this.#pending !== undefined) this.logJson(this.toSuccessJson(this.#pending.result));
    return super.finally(error);
  }

  async #close(): Promise<void> {
    const scope = this.#scope;
    this.#scope = undefined;
    await scope?.close();
  }

  /**
   * Records the result to print on success, for a value oclif would not print when returned from
   * `run()` (`null`, `0`, `false`, `''`). Printed once every opened store is closed.
   *
   * @example
   * ```ts
   * this.respond(null);
   * ```
   */
  protected respond(result: unknown): void {
    this.#pending = { result };
  }

  /** The store flags' scope; set from `init()` until the command ends. */
  #current(): StoreScope {
    if (this.#scope === undefined) throw new Error('the store is available only while run() runs');
    return this.#scope;
  }

  /**
   * The store selected by the flags or the environment (not opened).
   *
   * @throws UsageError when none or both are given.
   */
  protected get storeSelection(): StoreSelection {
    return this.#current().storeSelection();
  }

  /** How the selected store is shown in results: the resolved path, or the URL with its password masked. */
  protected storeLocation(): string {
    return storeLocation(this.storeSelection);
  }

  /**
   * Opens the selected store; it is closed when the command ends. A missing SQLite file is an
   * error (`StoreNotFoundError`) unless `create: true`.
   *
   * @example
   * ```ts
   * const store = await this.openStore();                 // read commands
   * const store = await this.openStore({ create: true }); // creates a missing store
   * ```
   */
  protected async openStore(options: OpenStoreOptions = {}): Promise<CheckpointStore> {
    return this.#current().openStore(options);
  }
}
