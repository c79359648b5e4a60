import { defineCommand } from '../command/define-command.js';
import { applyFlag, flag, namespaceFlag } from '../command/flags.js';

/** `prune`: `{ dry_run, selected, deleted }`. */
export default defineCommand({
  id: 'prune',
  summary: 'Delete old checkpoints (dry-run unless --apply).',
  description: [
    'Select old checkpoints by count (--keep-latest N per session) and/or age (--older-than TIMESTAMP); a checkpoint is selected when it matches every criterion given.',
    'Without --apply nothing is deleted and the selected ids are shown.',
  ].join('\n'),
  examples: [
    '<%= config.bin %> <%= command.id %> --store app.sqlite --namespace agent --keep-latest 50',
    '<%= config.bin %> <%= command.id %> --store app.sqlite --namespace agent --older-than 2026-01-01T00:00:00Z --apply',
    '<%= config.bin %> <%= command.id %> --store app.sqlite --session-id sess-1 --keep-latest 1 --apply',
  ],
  flags: {
    apply: applyFlag('Delete the selected checkpoints; without it the command is a dry run.'),
    'keep-latest': flag.integer({ description: 'Keep the newest N checkpoints of each session.' }),
    namespace: namespaceFlag(),
    'older-than': flag.string({ description: 'Select checkpoints created before this RFC 3339 timestamp.' }),
    'session-id': flag.string({ description: 'Only this session. Default is every session.' }),
  },
  async action({ flags, openStore }) {
    const { 'session-id': sessionId, 'keep-latest': keepLatest, 'older-than': olderThan } = flags;
    const store = await openStore({ write: flags.apply });
    const result = await store.prune({
      namespace: flags.namespace,
      apply: flags.apply,
      ...(sessionId === undefined ? {} : { sessionId }),
      ...(keepLatest === undefined ? {} : { keepLatest }),
      ...(olderThan === undefined ? {} : { olderThan }),
    });
    return { dry_run: result.dryRun, selected: result.selected, deleted: result.deleted };
  },
});
