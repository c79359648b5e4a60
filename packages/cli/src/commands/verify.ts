import { CheckpointIntegrityError } from '@session-checkpoint/core';
import { defineCommand } from '../command/define-command.js';
import { namespaceFlag } from '../command/flags.js';

/** `verify`: `{ namespace, checked, ok, failures: [] }`; any bad row fails with every bad id and its reason. */
export default defineCommand({
  id: 'verify',
  summary: 'Check the integrity of every checkpoint.',
  description: [
    'Verify every checkpoint of the store (or of one namespace): canonical payload, hash and fields.',
    'A clean store prints the counts; any bad row makes the command fail (exit 1, CheckpointIntegrityError) with every bad id and its reason in the message.',
  ].join('\n'),
  examples: ['<%= config.bin %> <%= command.id %> --store app.sqlite', '<%= config.bin %> <%= command.id %> --store app.sqlite --namespace agent'],
  flags: { namespace: namespaceFlag('Only this namespace. Default is the whole store.') },
  async action({ flags, openStore }) {
    const store = await openStore();
    const report = await store.verify(flags.namespace === undefined ? {} : { namespace: flags.namespace });
    if (report.failures.length > 0) {
      const detail = report.failures.map((f) => `id ${f.id} (${f.reason})`).join(', ');
      throw new CheckpointIntegrityError(`${report.failures.length} of ${report.checked} checkpoints failed integrity verification: ${detail}`, { failures: report.failures });
    }
    return { namespace: report.namespace, checked: report.checked, ok: report.ok, failures: [] };
  },
});
