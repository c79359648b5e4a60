import { initStore } from '../actions/init-store.js';
import { BaseCommand } from '../base-command.js';

/** `init`: create a store, or verify an existing one. */
export default class Init extends BaseCommand<typeof Init> {
  static override description =
    'Create the store if it is missing, or verify that an existing file or database is a compatible store. Safe to repeat.';
  static override examples = [
    '<%= config.bin %> <%= command.id %> --store ./checkpoints.sqlite',
    '<%= config.bin %> <%= command.id %> --database-url postgres://app@localhost:5432/app',
    'SESSION_CHECKPOINT_STORE=./checkpoints.sqlite <%= config.bin %> <%= command.id %>',
  ];
  static override summary = 'Initialize or verify a checkpoint store.';

  /** `{ store, schema_version }`. */
  async run(): Promise<{ store: string; schema_version: number }> {
    return initStore(this.context());
  }
}
