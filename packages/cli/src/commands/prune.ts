import { CheckpointValidationError } from '@session-checkpoint/core';
import { defineCommand } from '../command/define-command.js';
import { applyFlag, flag, namespaceFlag } from '../command/flags.js';
import { expiryJson } from '../output/upkeep.js';

/** `prune`: `{ dry_run, selected, deleted }`; with `--idle-for`, the idle sessions expired (see expiryJson). */
export default defineCommand({
  id: 'prune',
  summary: 'Delete old checkpoints or idle sessions (dry-run unless --apply).',
  description: [
    'Select old checkpoints by count (--keep-latest N per session) and/or age (--older-than TIMESTAMP); a checkpoint is selected when it matches every criterion given.',
    'Or, with --idle-for DURATION (30d, 12h, 1d12h), select whole sessions (LangGraph threads with all their rows, Agents sessions, plain sessions) whose newest write is older than that, in every namespace unless --namespace is given; pinned sessions are kept (see pin), and a session written while the sweep runs is kept whole.',
    'Without --apply nothing is deleted and the selection is shown.',
  ].join('\n'),
  examples: [
    '<%= config.bin %> <%= command.id %> --store app.sqlite --namespace agent --keep-latest 50',
    '<%= config.bin %> <%= command.id %> --store app.sqlite --namespace agent --older-than 2026-01-01T00:00:00Z --apply',
    '<%= config.bin %> <%= command.id %> --store app.sqlite --session-id sess-1 --keep-latest 1 --apply',
    '<%= config.bin %> <%= command.id %> --store app.sqlite --idle-for 30d',
    '<%= config.bin %> <%= command.id %> --store app.sqlite --namespace langgraph --idle-for 30d --apply',
  ],
  flags: {
    apply: applyFlag('Delete the selection; without it the command is a dry run.'),
    'idle-for': flag.string({ description: 'Delete whole sessions whose newest write is older than this duration (30d, 12h, 1d12h). Not with the other criteria.' }),
    'keep-latest': flag.integer({ description: 'Keep the newest N checkpoints of each session.' }),
    namespace: namespaceFlag('Namespace of the checkpoints. Default is "default"; with --idle-for, every namespace.'),
    'older-than': flag.string({ description: 'Select checkpoints created before this RFC 3339 timestamp.' }),
    'session-id': flag.string({ description: 'Only this session. Default is every session.' }),
  },
  async action({ flags, openStore }) {
    const { 'session-id': sessionId, 'keep-latest': keepLatest, 'older-than': olderThan, 'idle-for': idleFor } = flags;
    if (idleFor !== undefined) {
      if (sessionId !== undefined || keepLatest !== undefined || olderThan !== undefined) {
        throw new CheckpointValidationError('--idle-for deletes whole sessions and takes no --session-id, --keep-latest or --older-than');
      }
      const store = await openStore({ write: flags.apply });
      const result = await store.expireIdle({ idleFor, apply: flags.apply, ...(flags.namespace === undefined ? {} : { namespace: flags.namespace }) });
      return expiryJson(result, idleFor);
    }
    const store = await openStore({ write: flags.apply });
    const result = await store.prune({
      namespace: flags.namespace ?? 'default',
      apply: flags.apply,
      ...(sessionId === undefined ? {} : { sessionId }),
      ...(keepLatest === undefined ? {} : { keepLatest }),
      ...(olderThan === undefined ? {} : { olderThan }),
    });
    return { dry_run: result.dryRun, selected: result.selected, deleted: result.deleted };
  },
});
