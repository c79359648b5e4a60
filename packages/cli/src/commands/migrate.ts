import { CheckpointError, CheckpointIntegrityError, CheckpointStore, MemoryAdapter, StoreNotFoundError } from '@session-checkpoint/core';
import { defineCommand, type CommandContext } from '../command/define-command.js';
import { applyFlag, flag, namespaceFlag } from '../command/flags.js';
import { UsageError } from '../errors/usage-error.js';
import { migrateMastraCommand } from '../migrate/mastra.js';
import { stderrProgress } from '../progress/stderr-progress.js';

/** Differences shown in the error message when the verification finds some. */
const SHOWN_DIFFERENCES = 5;

/**
 * `@session-checkpoint/langgraph`, loaded only here, so that the CLI starts without LangGraph. When
 * it (or a peer of it) is missing, the error is the one langgraph's own `MissingPackageError`
 * would be (same type and message): that class cannot be imported when its package is the one
 * missing.
 */
async function langgraph(): Promise<typeof import('@session-checkpoint/langgraph')> {
  try {
    return await import('@session-checkpoint/langgraph');
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    if (code !== 'ERR_MODULE_NOT_FOUND' && code !== 'MODULE_NOT_FOUND') throw error;
    // The package, or one of its peers (@langchain/core, @langchain/langgraph-checkpoint).
    const found = /'(@[^/']+\/[^/']+|[^/'@][^/']*)/.exec(String((error as Error).message))?.[1] ?? '';
    const missing = found.startsWith('@session-checkpoint/') || found.startsWith('@langchain/') ? found : '@session-checkpoint/langgraph';
    throw Object.assign(new CheckpointError(`migrate needs ${missing}, which is not installed: run npm install ${missing}`), { name: 'MissingPackageError' });
  }
}

/** The store, or an empty one in memory when it does not exist yet: a dry run creates nothing. */
async function openStoreOrEmpty(openStore: CommandContext<unknown>['openStore']): Promise<CheckpointStore> {
  try {
    return await openStore();
  } catch (error) {
    if (error instanceof StoreNotFoundError || (error as { name?: unknown }).name === 'StoreNotFoundError') return new CheckpointStore(new MemoryAdapter());
    throw error;
  }
}

/**
 * `migrate`: copies every LangGraph thread of SqliteSaver or PostgresSaver into the store (with
 * `--reverse`, from the store into the saver): `{ dry_run, direction, threads, checkpoints, writes,
 * present, verification }`. With `--family mastra` (implied by `--from libsql:PATH`), the memory
 * (with observational memory) and workflows domains of `@mastra/libsql` or `@mastra/pg` (src/migrate/mastra.ts). Any
 * difference the verification finds fails the command with `CheckpointIntegrityError`.
 */
export default defineCommand({
  id: 'migrate',
  summary: 'Move LangGraph threads in from SqliteSaver or PostgresSaver (or back out), or Mastra memory and workflows in from @mastra/libsql or @mastra/pg (dry-run unless --apply).',
  description: [
    "Copy every LangGraph thread of SqliteSaver (--from sqlite:PATH) or PostgresSaver (--from postgres://URL, ?schema=S for a schema other than public) into the store, as @session-checkpoint/langgraph's SessionCheckpointSaver stores it: every checkpoint, namespace (subgraphs), fork, metadata and pending write. --reverse copies from the store into the saver.",
    'Without --apply nothing is written and the counts of what would move are shown. With it, both sides are compared afterwards; any difference fails the command (CheckpointIntegrityError). Checkpoints the target already holds are left as they are, so after an interruption running the command again finishes the job.',
    'Needs @session-checkpoint/langgraph and @langchain/langgraph-checkpoint-sqlite or -postgres installed next to the CLI (MissingPackageError names the one missing).',
    "--family mastra (implied by --from libsql:PATH): copy the memory domain (threads, every message, the resources they name, working memory, and the observational memory of each thread and resource: every record, all generations) and the workflows domain (each run's snapshot) of @mastra/libsql (--from libsql:PATH) or @mastra/pg (--from postgres://URL?schema=S) into the store, as @session-checkpoint/mastra's CheckpointMemoryStorage and CheckpointWorkflowsStorage store them; dry run, --apply, resume and verification as above. Needs @session-checkpoint/mastra, @mastra/core and @mastra/libsql or @mastra/pg installed next to the CLI, and Node 22.13 or later.",
  ].join('\n'),
  examples: [
    '<%= config.bin %> <%= command.id %> --from sqlite:checkpoints.db --store app.sqlite',
    '<%= config.bin %> <%= command.id %> --from sqlite:checkpoints.db --store app.sqlite --apply',
    '<%= config.bin %> <%= command.id %> --from "postgres://user@host:5432/db?schema=lg" --database-url postgres://user@host:5432/db --apply',
    '<%= config.bin %> <%= command.id %> --from sqlite:back.db --store app.sqlite --reverse --apply',
    '<%= config.bin %> <%= command.id %> --from libsql:mastra.db --store app.sqlite --apply',
    '<%= config.bin %> <%= command.id %> --family mastra --from "postgres://user@host:5432/db?schema=mastra" --store app.sqlite --apply',
  ],
  flags: {
    apply: applyFlag('Copy the checkpoints; without it the command is a dry run.'),
    family: flag.string({ description: 'langgraph (SqliteSaver, PostgresSaver) or mastra (@mastra/libsql, @mastra/pg). Default is mastra for --from libsql:PATH, else langgraph.' }),
    from: flag.string({ description: 'The LangGraph saver: sqlite:PATH or postgres://URL[?schema=S]; the Mastra store: libsql:PATH (or sqlite:PATH with --family mastra) or postgres://URL[?schema=S].', required: true }),
    namespace: namespaceFlag("Store namespace of the rows. Default is langgraph (SessionCheckpointSaver's default), or mastra for --family mastra."),
    reverse: flag.boolean({ description: 'Copy from the store into the saver instead.' }),
  },
  async action({ flags, openStore }) {
    const family = flags.family ?? (flags.from.startsWith('libsql:') ? 'mastra' : 'langgraph');
    if (family !== 'langgraph' && family !== 'mastra') throw new UsageError('--family must be langgraph or mastra');
    if (family === 'mastra') {
      if (!/^(libsql:|sqlite:|postgres(ql)?:\/\/)/i.test(flags.from)) throw new UsageError('--from must be libsql:PATH or postgres://URL[?schema=S] for --family mastra');
      if (flags.reverse) throw new UsageError('--reverse is for LangGraph savers; Mastra stores are moved in only');
      const onProgress = stderrProgress();
      return migrateMastraCommand(flags.from, () => (flags.apply ? openStore({ create: true, write: true }) : openStoreOrEmpty(openStore)), { apply: flags.apply, namespace: flags.namespace, onProgress });
    }
    if (!/^(sqlite:|postgres(ql)?:\/\/)/i.test(flags.from)) throw new UsageError('--from must be sqlite:PATH or postgres://URL[?schema=S]');
    const lg = await langgraph();
    const official = await lg.openOfficialSaver(flags.from, { ifMissing: flags.reverse ? (flags.apply ? 'create' : 'empty') : 'error' });
    try {
      // Like import: a missing store is created, as the target; as the source it must exist.
      const store = flags.reverse || flags.apply ? await openStore({ create: !flags.reverse, write: !flags.reverse }) : await openStoreOrEmpty(openStore);
      const ours = new lg.SessionCheckpointSaver(store, flags.namespace === undefined ? {} : { namespace: flags.namespace });
      const [source, target] = flags.reverse ? [ours, official.saver] : [official.saver, ours];
      const onProgress = stderrProgress();
      const report = await lg.migrateCheckpoints(source, target, { apply: flags.apply, ...(onProgress === undefined ? {} : { onProgress }) });
      const differences = report.verification?.differences ?? [];
      if (differences.length > 0) {
        const shown = differences.slice(0, SHOWN_DIFFERENCES).map((d) => `thread ${d.threadId} ns '${d.checkpointNs}' checkpoint ${d.checkpointId ?? '(latest)'}: ${d.what}`);
        throw new CheckpointIntegrityError(
          `${differences.length} difference(s) between source and target after copying ${report.checkpoints} checkpoint(s): ${shown.join('; ')}${differences.length > SHOWN_DIFFERENCES ? '; ...' : ''}`,
        );
      }
      return {
        dry_run: report.dryRun,
        direction: flags.reverse ? 'out' : 'in',
        threads: report.threads,
        checkpoints: report.checkpoints,
        writes: report.writes,
        present: report.present,
        verification: report.verification === undefined ? null : { checkpoints: report.verification.checkpoints, differences: [] },
      };
    } finally {
      await official.close();
    }
  },
});
