import { format } from 'node:util';
import type { Command, Config, Interfaces } from '@oclif/core';
import { directFlagsOf } from './direct/direct-flags.js';
import { parseDirectArgv } from './direct/parse-direct-argv.js';

/*
 * The part of oclif's `Command` that a command class needs, without loading oclif. oclif's
 * `lib/command.js` requires its config, parser, help and ux modules (about 105 files), which on
 * Node 20 cost a plugin command more than a whole built-in `get`
 * (docs/decisions/0004-plugin-commands-on-our-own-command-class.md). This class has the statics oclif reads (so oclif's manifest, help
 * and `Config#runCommand` take it as a command class) and the instance members commands use;
 * oclif's parser is loaded only for a command line the direct parser declines.
 */

/**
 * Marks a command class built on {@link CommandBase} in any copy of this package, so the plugin
 * runner (src/direct/run-plugin-direct.ts) knows the class needs no oclif to start.
 */
export const COMMAND_BASE = Symbol.for('session-checkpoint.command-base');

/** What `parse()` returns: oclif's parser output, of which commands use `flags`, `args` and `argv`. */
export type ParseOutput = Interfaces.ParserOutput;

/** oclif's `CLIError` shape (`oclif.exit`, `code`), which the CLI's error mapping reads. */
class CommandExitError extends Error {
  readonly oclif: { exit: number };
  readonly code: string | undefined;
  constructor(message: string, exit: number, code?: string) {
    super(message);
    this.name = code === 'EEXIT' ? 'ExitError' : 'CLIError';
    this.oclif = { exit };
    this.code = code;
  }
}

/** Whether `value` is an oclif `Config` (or the plugin runner's stand-in): it has `runHook`. */
function isConfig(value: unknown): value is Config {
  return typeof value === 'object' && value !== null && typeof (value as { runHook?: unknown }).runHook === 'function';
}

/**
 * A command class with oclif's static and instance API and no oclif at load time: the base of
 * {@link BaseCommand}. oclif runs it like its own `Command` (`Command.run(argv, config)`); the
 * plugin runner runs it without oclif. Not meant to be extended directly: extend `BaseCommand`.
 */
export abstract class CommandBase {
  /** Marks classes built on this one (see {@link COMMAND_BASE}). */
  static readonly [COMMAND_BASE] = true;
  /** Aliases of the command. Default: none. */
  static aliases: string[] = [];
  /** Positional arguments. Default: none. */
  static args: Interfaces.ArgInput = {};
  /** Flags every subclass gets. Default: none here; BaseCommand adds the store flags. */
  static baseFlags: Interfaces.FlagInput;
  /** Help text. */
  static description: string | undefined;
  /** Always `false`: every command prints JSON. */
  static enableJsonFlag = false;
  /** Examples shown in help. */
  static examples: Command.Example[] | undefined;
  /** The command's own flags. */
  static flags: Interfaces.FlagInput;
  /** oclif's dynamic help marker. Default: `false`. */
  static hasDynamicHelp = false;
  /** Hide from help. */
  static hidden: boolean | undefined;
  /** Aliases hidden from help. Default: none. */
  static hiddenAliases: string[] = [];
  /** The command id, set by oclif or the plugin runner when the class is loaded. */
  static id: string;
  /** `false` accepts extra positional words. Default: `true`. */
  static strict = true;
  /** One-line summary for help. */
  static summary: string | undefined;
  /** Usage override for help. */
  static usage: string | string[] | undefined;
  /**
   * `false` runs the command through oclif on every call, where `this.config` is oclif's whole
   * `Config`. Default `true`: a call that parses beyond doubt starts without oclif, and
   * `this.config` is a stand-in with oclif's common members (docs/plugins.md).
   *
   * @example
   * ```ts
   * static override fastStart = false; // this command reads this.config.plugins
   * ```
   */
  static fastStart = true;

  /**
   * Runs the command, as oclif's `Command.run` does: `config` is the oclif `Config` (or the plugin
   * runner's stand-in); given anything else (a path or URL of the CLI, or nothing), oclif is
   * loaded to build one.
   *
   * @example
   * ```ts
   * await Hello.run(['--store', 'app.sqlite']);
   * ```
   */
  static async run<T extends CommandBase>(this: (new (argv: string[], config: Config) => T) & Pick<typeof CommandBase, 'id'>, argv: string[] = process.argv.slice(2), config?: Config | string): Promise<unknown> {
    let loaded = isConfig(config) ? config : undefined;
    if (loaded === undefined) {
      const { Config: OclifConfig } = await import('@oclif/core');
      loaded = await OclifConfig.load(config ?? process.argv[1]);
    }
    const command = new this(argv, loaded);
    if (!command.id) {
      command.id = this.name.toLowerCase();
      this.id = command.id;
    }
    return command._run();
  }

  /** The arguments after the command id. */
  argv: string[];
  /** oclif's `Config`, or on the plugin runner's path a stand-in with its common members (docs/plugins.md). */
  config: Config;
  /** The command id. */
  id: string | undefined;

  constructor(argv: string[], config: Config) {
    this.argv = argv;
    this.config = config;
    this.id = this.ctor.id;
  }

  /** The command's class. */
  get ctor(): typeof CommandBase {
    return this.constructor as typeof CommandBase;
  }

  /** The command's work. */
  abstract run(): Promise<unknown>;

  /** Runs `init()` then `run()`; BaseCommand replaces it with the CLI's lifecycle. */
  protected async _run(): Promise<unknown> {
    await this.init();
    return this.run();
  }

  /** Called before `run()`. Default: nothing. */
  protected async init(): Promise<void> {}

  /**
   * Parses `argv` against the command's flags and arguments, as oclif's `Command#parse` does. A
   * command line the direct parser reads beyond doubt is parsed without oclif; anything else
   * (positional arguments, short flags, custom parsers...) loads oclif's parser.
   *
   * @example
   * ```ts
   * const { flags } = await this.parse(Hello);
   * ```
   */
  protected async parse(options: Partial<Interfaces.Input<Interfaces.OutputFlags<Interfaces.FlagInput>, Interfaces.OutputFlags<Interfaces.FlagInput>, Interfaces.OutputArgs<Interfaces.ArgInput>>> & { baseFlags?: Interfaces.FlagInput } = this.ctor, argv: string[] = this.argv): Promise<ParseOutput> {
    const flags = { ...options.baseFlags, ...options.flags };
    const args = options.args ?? {};
    const direct = Object.keys(args).length === 0 && options.strict !== false ? directFlagsOf(flags) : undefined;
    const values = direct === undefined ? undefined : parseDirectArgv(argv, direct);
    if (values !== undefined) return { flags: values, args: {}, argv: [], raw: [], metadata: { flags: {} }, nonExistentFlags: [] } as unknown as ParseOutput;
    const { Parser } = await import('@oclif/core');
    return Parser.parse(argv, { context: this, ...options, flags, args } as Parameters<typeof Parser.parse>[1]) as Promise<ParseOutput>;
  }

  /**
   * Prints a line on stdout (`util.format` of the arguments). The CLI prints one JSON document per
   * call: return the result from `run()` instead, and keep this for debugging.
   */
  log(message: unknown = '', ...args: unknown[]): void {
    process.stdout.write(`${format(typeof message === 'string' ? message : format('%O', message), ...args)}\n`);
  }

  /**
   * A debug line on stderr (`util.format` of the arguments) when `DEBUG` names the CLI (`*`,
   * `session-checkpoint*`), as oclif's `this.debug` does; the CLI shows stderr only with
   * `--verbose`. Default: nothing.
   */
  debug(...args: unknown[]): void {
    const names = (process.env.DEBUG ?? '').split(/[\s,]+/u);
    if (!names.some((name) => name === '*' || name.startsWith('session-checkpoint'))) return;
    process.stderr.write(`session-checkpoint:${this.id ?? ''} ${format(...args)}\n`);
  }

  /** Prints a line on stderr, which the CLI shows only with `--verbose`. */
  logToStderr(message: unknown = '', ...args: unknown[]): void {
    process.stderr.write(`${format(typeof message === 'string' ? message : format('%O', message), ...args)}\n`);
  }

  /** A warning on stderr (shown with `--verbose`). */
  warn(input: string | Error): string | Error {
    process.stderr.write(` ›   Warning: ${input instanceof Error ? input.message : input}\n`);
    return input;
  }

  /**
   * Fails the command with `input` as the message, as oclif's `this.error` does: exit code 2
   * (printed as a `UsageError`) unless `options.exit` says otherwise; `exit: false` only warns.
   *
   * @example
   * ```ts
   * this.error('nothing to greet', { exit: 1 }); // {"ok": false, "error": "nothing to greet", "type": "CommandError"}
   * ```
   */
  error(input: string | Error, options: { code?: string; exit: false }): void;
  error(input: string | Error, options?: { code?: string; exit?: number }): never;
  error(input: string | Error, options: { code?: string; exit?: number | false } = {}): void {
    if (options.exit === false) {
      this.warn(input);
      return;
    }
    const exit = options.exit ?? 2;
    // oclif keeps an Error as it is and gives it the exit code; so does this.
    if (input instanceof Error) throw Object.assign(input, { oclif: { exit } });
    throw new CommandExitError(input, exit, options.code);
  }

  /** Ends the command with `code` and no output of its own, as oclif's `this.exit` does. Default: 0. */
  exit(code = 0): never {
    throw new CommandExitError(`EEXIT: ${code}`, code, 'EEXIT');
  }
}
