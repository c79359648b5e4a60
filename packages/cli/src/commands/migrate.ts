import { Flags } from '../flags/flag-builders.js';
import { migrateCheckpoints } from '../actions/migrate-checkpoints.js';
import { BaseCommand } from '../base-command.js';
import { applyFlag, namespaceFlag } from '../flags/common-flags.js';

/** `migrate`: move LangGraph threads from SqliteSaver or PostgresSaver into the store, or back. */
export default class Migrate extends BaseCommand<typeof Migrate> {
  static override description = [
    "Copy every LangGraph thread of SqliteSaver (--from sqlite:PATH) or PostgresSaver (--from postgres://URL, ?schema=S for a schema other than public) into the store, as @session-checkpoint/langgraph's SessionCheckpointSaver stores it: every checkpoint, namespace (subgraphs), fork, metadata and pending write. --reverse copies from the store into the saver.",
    'Without --apply nothing is written and the counts of what would move are shown. With it, both sides are compared afterwards; any difference fails the command (CheckpointIntegrityError). Checkpoints the target already holds are left as they are, so after an interruption running the command again finishes the job.',
    'Needs @session-checkpoint/langgraph and @langchain/langgraph-checkpoint-sqlite or -postgres installed next to the CLI (MissingPackageError names the one missing).',
  ].join('\n');
  static override examples = [
    '<%= config.bin %> <%= command.id %> --from sqlite:checkpoints.db --store app.sqlite',
    '<%= config.bin %> <%= command.id %> --from sqlite:checkpoints.db --store app.sqlite --apply',
    '<%= config.bin %> <%= command.id %> --from "postgres://user@host:5432/db?schema=lg" --database-url postgres://user@host:5432/db --apply',
    '<%= config.bin %> <%= command.id %> --from sqlite:back.db --store app.sqlite --reverse --apply',
  ];
  static override flags = {
    apply: applyFlag('Copy the checkpoints; without it the command is a dry run.'),
    from: Flags.string({ description: 'The LangGraph saver: sqlite:PATH or postgres://URL[?schema=S].', required: true }),
    namespace: namespaceFlag({ optional: true, description: 'Store namespace of the LangGraph rows. Default is langgraph (SessionCheckpointSaver\'s default).' }),
    reverse: Flags.boolean({ default: false, description: 'Copy from the store into the saver instead.' }),
  };
  static override summary = 'Move LangGraph threads in from SqliteSaver or PostgresSaver, or back out (dry-run unless --apply).';

  /** `{ dry_run, direction, threads, checkpoints, writes, present, verification }`. */
  async run(): Promise<Record<string, unknown>> {
    return migrateCheckpoints(this.context());
  }
}
