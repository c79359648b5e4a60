import type { CommandContext } from '../actions/command-context.js';
import type { DirectFlags } from './parse-direct-argv.js';

/** A built-in command the direct path can run: its flags and its action, loaded on use. */
export interface DirectCommand {
  /** The command's own flags, as declared to oclif in `src/commands/<id>.ts`. */
  readonly flags: DirectFlags;
  /** Loads the action (`src/actions/`) that the oclif command runs too. */
  readonly load: () => Promise<(context: CommandContext<any>) => Promise<unknown>>;
}

/**
 * The base flags of every command (BaseCommand.baseFlags): the store flags and `--verbose`. The
 * store flags' environment fallbacks are applied by `selectStore`, on both paths.
 */
export const DIRECT_BASE_FLAGS: DirectFlags = {
  'connect-timeout': { type: 'string' },
  'database-url': { type: 'string' },
  schema: { type: 'string' },
  store: { type: 'string' },
  verbose: { type: 'boolean', default: false },
};

/**
 * The commands the direct path runs: the ones scripts and agent loops call most. Their flag
 * tables repeat the oclif declarations; `direct-path.test.ts` compares the two against the
 * manifest, and the fast-path comparison runs both paths on the same calls.
 */
export const DIRECT_COMMANDS: Readonly<Record<string, DirectCommand>> = {
  create: {
    flags: {
      'created-at': { type: 'string' },
      'dry-run': { type: 'boolean', default: false },
      kind: { type: 'string', default: 'manual' },
      name: { type: 'string' },
      namespace: { type: 'string', default: 'default' },
      'payload-file': { type: 'string', required: true },
      'session-id': { type: 'string', required: true },
      'source-ref': { type: 'string' },
    },
    load: async () => (await import('../actions/create-checkpoint.js')).createCheckpoint,
  },
  get: {
    flags: {
      id: { type: 'integer', required: true },
      namespace: { type: 'string', default: 'default' },
    },
    load: async () => (await import('../actions/get-checkpoint.js')).getCheckpoint,
  },
  list: {
    flags: {
      limit: { type: 'integer', default: 20 },
      namespace: { type: 'string', default: 'default' },
      offset: { type: 'integer', default: 0 },
      'session-id': { type: 'string' },
    },
    load: async () => (await import('../actions/list-checkpoints.js')).listCheckpoints,
  },
};
