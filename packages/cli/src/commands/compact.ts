import { defineCommand } from '../command/define-command.js';
import { applyFlag } from '../command/flags.js';
import { storageJson } from '../output/upkeep.js';

/** `compact`: `{ dry_run, compacted, reclaimable_bytes, before, after, advice }`. */
export default defineCommand({
  id: 'compact',
  summary: 'Give free space back to the disk (dry run unless --apply).',
  description: [
    'SQLite: report the bytes VACUUM would give back; with --apply run VACUUM, which is safe with other processes attached (readers keep their snapshot, writers wait their turn).',
    'PostgreSQL: report the tables, their dead tuples and what VACUUM would make reusable, and how to run it; nothing is run, --apply or not.',
  ].join('\n'),
  examples: ['<%= config.bin %> <%= command.id %> --store app.sqlite', '<%= config.bin %> <%= command.id %> --store app.sqlite --apply'],
  flags: { apply: applyFlag('Run VACUUM on a SQLite store; without it the command is a dry run.') },
  async action({ flags, openStore }) {
    const store = await openStore();
    const result = await store.compact({ apply: flags.apply });
    const before = result.before;
    const advice =
      before?.kind === 'postgres'
        ? `VACUUM is not run by this command. Plain VACUUM (safe beside readers and writers) makes the dead tuples' space reusable by new rows: VACUUM (ANALYZE) "${before.schema}".checkpoints; VACUUM FULL gives it back to the file system but locks the table against every reader and writer while it rewrites it.`
        : null;
    return {
      dry_run: result.dryRun,
      compacted: result.compacted,
      reclaimable_bytes: before?.reclaimableBytes ?? 0,
      before: storageJson(before),
      after: storageJson(result.after),
      advice,
    };
  },
});
