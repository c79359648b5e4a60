import { CheckpointIntegrityError } from '@session-checkpoint/core';
import { verifyStore } from '../actions/verify-store.js';
import { BaseCommand } from '../base-command.js';
import { namespaceFlag } from '../flags/common-flags.js';

/** `verify`: scan a whole store (or one namespace) and check every row. */
export default class Verify extends BaseCommand<typeof Verify> {
  static override description = [
    'Verify every checkpoint of the store (or of one namespace): canonical payload, hash and fields.',
    'A clean store prints the counts; any bad row makes the command fail (exit 1, CheckpointIntegrityError) with every bad id and its reason in the message.',
  ].join('\n');
  static override examples = [
    '<%= config.bin %> <%= command.id %> --store app.sqlite',
    '<%= config.bin %> <%= command.id %> --store app.sqlite --namespace agent',
  ];
  static override flags = {
    namespace: namespaceFlag({ optional: true, description: 'Only this namespace. Default is the whole store.' }),
  };
  static override summary = 'Check the integrity of every checkpoint.';

  /** `{ namespace, checked, ok, failures: [] }`. */
  async run(): Promise<Record<string, unknown>> {
    return verifyStore(this.context());
  }
}
