import type { Interfaces } from '@oclif/core';
import type { CheckpointStore } from '@session-checkpoint/core';
import type { CommandContext } from './actions/command-context.js';
import { CommandBase } from './command-base.js';
import { refuseInheritedFlagNames } from './flags/inherited-flag-names.js';
import { storeFlags } from './flags/store-flags.js';
import { verboseFlag } from './flags/verbose-flag.js';
import { runCommand } from './lifecycle/run-command.js';
import type { OpenStoreOptions } from './store/open-store.js';
import { storeLocation } from './store/store-location.js';
import type { StoreSelection } from './store/store-selection.js';

/** Parsed flags of a command built on {@link BaseCommand}: its own flags plus the store flags. */
export type CommandFlags<T extends CommandClass> = Interfaces.InferredFlags<(typeof BaseCommand)['baseFlags'] & T['flags']>;

/** Parsed arguments of a command built on {@link BaseCommand}. */
export type CommandArgs<T extends CommandClass> = Interfaces.InferredArgs<T['args']>;

/** What {@link CommandFlags} and {@link CommandArgs} read of a command class: its static `flags` and `args`. */
type CommandClass = { flags: Interfaces.FlagInput; args: Interfaces.ArgInput };

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
 * All of that is the CLI's one command lifecycle (`runCommand`), which the built-in commands'
 * direct path runs too.
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
export abstract class BaseCommand<T extends CommandClass = typeof CommandBase> extends CommandBase {
  /** The store flags and `--verbose`, added to every subclass's own flags. */
  static override baseFlags = { ...storeFlags, ...verboseFlag };

  /** Parsed positional arguments, available in `run()`. */
  protected args!: CommandArgs<T>;
  /** Parsed flags, available in `run()`. */
  protected flags!: CommandFlags<T>;

  #pending: { result: unknown } | undefined;
  #context: CommandContext<CommandFlags<T>> | undefined;

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

  /** The lifecycle's context; only set while `run()` runs. */
  #current(): CommandContext<CommandFlags<T>> {
    if (this.#context === undefined) throw new Error('the store is available only while run() runs');
    return this.#context;
  }

  /**
   * The store selected by the flags or the environment (not opened).
   *
   * @throws UsageError when none or both are given.
   */
  protected get storeSelection(): StoreSelection {
    return this.#current().storeSelection();
  }

  /**
   * How the selected store is shown in results: the resolved path (symlinks followed once the
   * file exists) or the URL with its password masked.
   */
  protected storeLocation(): string {
    return storeLocation(this.storeSelection);
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
    return this.#current().openStore(options);
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
    return this.#current();
  }

  /** Parses argv; parse failures become usage errors (printed by the lifecycle). */
  protected override async init(): Promise<void> {
    await super.init();
    const baseFlags = (super.ctor as typeof BaseCommand).baseFlags;
    refuseInheritedFlagNames(this.argv, { ...baseFlags, ...this.ctor.flags });
    const { args, flags } = await this.parse({
      args: this.ctor.args,
      baseFlags,
      enableJsonFlag: false,
      flags: this.ctor.flags,
      strict: this.ctor.strict,
    });
    this.args = args as CommandArgs<T>;
    this.flags = flags as CommandFlags<T>;
  }

  /**
   * Runs the command through the CLI's one lifecycle (`src/lifecycle/run-command.ts`): parse,
   * `run()`, close stores, print one JSON document, set the exit code; never rethrows.
   *
   * The static `run` (CommandBase) calls it, whether oclif's `Config#runCommand` or the plugin
   * runner started the command; `src/base-command.oclif.test.ts` pins what this relies on in the
   * exact oclif version the package depends on.
   */
  protected override async _run<R>(): Promise<R> {
    let returned: unknown;
    process.exitCode = await runCommand({
      parse: async () => {
        await this.init();
        return this.flags;
      },
      action: async (context) => {
        this.#context = context as CommandContext<CommandFlags<T>>;
        returned = await this.run();
        return returned;
      },
      pending: () => this.#pending,
    });
    this.#context = undefined;
    return returned as R;
  }
}
