import { defineCommand } from '../command/define-command.js';
import { applyFlag, flag, namespaceFlag } from '../command/flags.js';
import { checkpointJson, sealStatus } from '../output/records.js';

/** `delete`: `{ dry_run, checkpoint, deleted }`, plus `integrity_failure` for a forced bad row. */
export default defineCommand({
  id: 'delete',
  summary: 'Delete one checkpoint (dry-run unless --apply).',
  description: [
    'Delete one checkpoint. Without --apply nothing is deleted and the checkpoint that would go is shown.',
    'A row that fails verification can only be deleted with --apply --force; its content is then not shown (checkpoint is null) and integrity_failure says why.',
  ].join('\n'),
  examples: [
    '<%= config.bin %> <%= command.id %> --store app.sqlite --namespace agent --id 7',
    '<%= config.bin %> <%= command.id %> --store app.sqlite --namespace agent --id 7 --apply',
    '<%= config.bin %> <%= command.id %> --store app.sqlite --namespace agent --id 7 --apply --force',
  ],
  flags: {
    apply: applyFlag('Delete; without it the command is a dry run.'),
    force: flag.boolean({ description: 'Also delete a row that fails integrity verification.' }),
    id: flag.integer({ description: 'Checkpoint id.', required: true }),
    namespace: namespaceFlag(),
  },
  async action({ flags, openStore }) {
    const store = await openStore({ write: flags.apply });
    const result = await store.delete(flags.id, { namespace: flags.namespace, apply: flags.apply, force: flags.force });
    return {
      dry_run: result.dryRun,
      checkpoint: result.checkpoint === null ? null : checkpointJson(result.checkpoint, { payload: false, seal: sealStatus(store) }),
      deleted: result.deleted,
      ...(result.integrityFailure === undefined ? {} : { integrity_failure: result.integrityFailure }),
    };
  },
});
