import { realpathSync } from 'node:fs';
import { Command, type Interfaces } from '@oclif/core';
import type { CheckpointStore } from '@session-checkpoint/core';
import type { CommandContext } from './actions/command-context.js';
import { storeFlags } from './flags/store-flags.js';
import { verboseFlag } from './flags/verbose-flag.js';
import { successJson, writeError, writeJson } from './output/write-json.js';
import { openStore, type OpenStoreOptions } from './store/open-store.js';
import { describeStore, selectStore, type StoreSelection } from './store/store-selection.js';

/** Parsed flags of a command built on {@link BaseCommand}: its own flags plus the store flags. */
export type CommandFlags<T extends typeof Command> = Interfaces.InferredFlags<(typeof BaseCommand)['baseFlags'] & T['flags']>;

/** Parsed arguments of a command built on {@link BaseCommand}. */
export type CommandArgs<T extends typeof Command> = Interfaces.InferredArgs<T['args']>;

/**
 * Base class of every session-checkpoint command, published for plugin authors. It gives a
 * command the store flags (`--store`, `--database-url`, with `SESSION_CHECKPOINT_STORE` /
 * `SESSION_CHECKPOINT_DATABASE_URL` as fallbacks), JSON output and the error mapping:
 *
 * - return a JSON-serialisable value from `run()` (or pass it to {@link respond}) and it is
 *   printed as `{"ok": true, "result": ...}`;
 * - throw anything and it is printed as `{"ok": false, "error": ..., "type": ...}` with exit
 *   code 1 (2 for usage errors); nothing goes to stderr and no stack trace is shown;
 * - stores opened with {@link openStore} are closed before the result is printed.
 *
 * @example
 * ```ts
 * import { BaseCommand, namespaceFlag } from '@session-checkpoint/cli';
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
export abstract class BaseCommand<T extends typeof Command = typeof Command> extends Command {
  /** The store flags and `--verbose`, added to every subclass's own flags. */
  static override baseFlags = { ...storeFlags, ...verboseFlag };

  /** Parsed positional arguments, available in `run()`. */
  protected args!: CommandArgs<T>;
  /** Parsed flags, available in `run()`. */
  protected flags!: CommandFlags<T>;

  #pending: { result: unknown } | undefined;
  #selection: StoreSelection | undefined;
  readonly #stores: CheckpointStore[] = [];

  /**
   * Records the result to print on success. Printing waits until `run()` has finished and every
   * opened store is closed, so a failure while closing is never hidden behind an `"ok": true`.
   * Returning the value from `run()` does the same.
   *
   * @example
   * ```ts
   * this.respond({ deleted: [7] });
   * ```
   */
  protected respond(result: unknown): void {
    this.#pending = { result };
  }

  /**
   * The store selected by the flags or the environment (not opened).
   *
   * @throws UsageError when none or both are given.
   */
  protected get storeSelection(): StoreSelection {
    this.#selection ??= selectStore(this.flags as { store?: string; 'database-url'?: string });
    return this.#selection;
  }

  /**
   * How the selected store is shown in results: the resolved path (symlinks followed once the
   * file exists) or the URL with its password masked.
   */
  protected storeLocation(): string {
    const selection = this.storeSelection;
    if (selection.kind === 'sqlite') {
      try {
        return realpathSync(selection.path);
      } catch {
        return selection.path;
      }
    }
    return describeStore(selection);
  }

  /**
   * Opens the selected store; it is closed automatically when the command ends. A missing SQLite
   * file is an error (`StoreNotFoundError`) unless `create: true`.
   *
   * @example
   * ```ts
   * const store = await this.openStore();                 // read commands
   * const store = await this.openStore({ create: true }); // init, create, import
   * ```
   */
  protected async openStore(options: OpenStoreOptions = {}): Promise<CheckpointStore> {
    const store = await openStore(this.storeSelection, options);
    this.#stores.push(store);
    return store;
  }

  /**
   * The parsed flags and store access as a {@link CommandContext}: how built-in commands hand
   * their work to the oclif-free actions in `src/actions/`, which the direct path runs too. For
   * the built-in commands only; not part of the plugin API (plugins use `flags` and `openStore`).
   *
   * @internal
   * @example
   * ```ts
   * async run() { return getCheckpoint(this.context()); }
   * ```
   */
  protected context(): CommandContext<CommandFlags<T>> {
    return { flags: this.flags, storeSelection: () => this.storeSelection, openStore: (options) => this.openStore(options) };
  }

  /** Parses argv; parse failures become usage errors through {@link catch}. */
  protected override async init(): Promise<void> {
    await super.init();
    const { args, flags } = await this.parse({
      args: this.ctor.args,
      baseFlags: (super.ctor as typeof BaseCommand).baseFlags,
      enableJsonFlag: false,
      flags: this.ctor.flags,
      strict: this.ctor.strict,
    });
    this.args = args as CommandArgs<T>;
    this.flags = flags as CommandFlags<T>;
  }

  /** Prints any failure as the JSON error and sets the exit code; never rethrows. */
  protected override async catch(error: Interfaces.CommandError): Promise<void> {
    process.exitCode = writeError(error);
  }

  /** Closes every store this command opened (idempotent). */
  protected override async finally(_error: Error | undefined): Promise<void> {
    const stores = this.#stores.splice(0);
    await Promise.all(stores.map((store) => store.close()));
  }

  /**
   * oclif's `_run`, reordered: run, close stores, then print exactly one JSON document (the
   * result or the error).
   */
  protected override async _run<R>(): Promise<R> {
    let result: unknown;
    try {
      await this.init();
      result = await this.run();
      if (result !== undefined && this.#pending === undefined) this.respond(result);
      await this.finally(undefined);
      if (this.#pending !== undefined) writeJson(successJson(this.#pending.result));
    } catch (error) {
      await this.finally(error as Error).catch(() => undefined);
      await this.catch(error as Interfaces.CommandError);
    }
    return result as R;
  }
}
