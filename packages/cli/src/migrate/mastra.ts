import { CheckpointError, CheckpointIntegrityError, type CheckpointStore } from '@session-checkpoint/core';

/** Differences shown in the error message when the verification finds some. */
const SHOWN_DIFFERENCES = 5;

/** `@mastra/core@1` declares `engines.node >=22.13.0`. */
function nodeTakesMastra(): boolean {
  const [major = 0, minor = 0] = process.versions.node.split('.').map(Number);
  return major > 22 || (major === 22 && minor >= 13);
}

/**
 * `@session-checkpoint/mastra`, loaded only by `migrate --family mastra`, so that the CLI starts
 * without Mastra. A missing package (it, `@mastra/core`, `@mastra/libsql` or `@mastra/pg`) is a
 * `MissingPackageError` naming it, as the package's own error does; an older Node is a clear
 * error too (Mastra would fail to load in a less readable way).
 */
async function mastra(): Promise<typeof import('@session-checkpoint/mastra')> {
  if (!nodeTakesMastra()) throw new CheckpointError(`migrate --family mastra needs Node 22.13 or later (@mastra/core@1 requires it); this is Node ${process.version}`);
  try {
    return await import('@session-checkpoint/mastra');
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    if (code !== 'ERR_MODULE_NOT_FOUND' && code !== 'MODULE_NOT_FOUND') throw error;
    const found = /'(@[^/']+\/[^/']+|[^/'@][^/']*)/.exec(String((error as Error).message))?.[1] ?? '';
    const missing = found.startsWith('@session-checkpoint/') || found.startsWith('@mastra/') ? found : '@session-checkpoint/mastra';
    throw Object.assign(new CheckpointError(`migrate needs ${missing}, which is not installed: run npm install ${missing}`), { name: 'MissingPackageError' });
  }
}

/** The location `openMastraStore` takes: `libsql:PATH` (`sqlite:PATH` is the same file) or a PostgreSQL URL. */
export function mastraLocation(from: string): string {
  return from.startsWith('sqlite:') ? `libsql:${from.slice('sqlite:'.length)}` : from;
}

/** What `migrate --family mastra` prints. */
export interface MastraMigrateResult {
  dry_run: boolean;
  direction: 'in';
  family: 'mastra';
  threads: number;
  messages: number;
  resources: number;
  runs: number;
  /** Observational-memory records (every generation of each thread's and resource's OM). */
  observational_memory: number;
  present: number;
  verification: { threads: number; runs: number; observational_memory: number; differences: [] } | null;
}

/**
 * Copies the memory (threads, messages, resources, observational memory) and workflows (runs' snapshots) domains of
 * `@mastra/libsql` or `@mastra/pg` into the store with `@session-checkpoint/mastra`'s
 * `migrateMastra`: a dry run unless `apply`, resumable, verified after applying. Any difference
 * fails with CheckpointIntegrityError.
 */
export async function migrateMastraCommand(from: string, store: () => Promise<CheckpointStore>, options: { apply: boolean; namespace?: string | undefined; onProgress?: ((event: { phase: string; done: number; total: number }) => void) | undefined }): Promise<MastraMigrateResult> {
  const m = await mastra();
  const source = await m.openMastraStore(mastraLocation(from));
  try {
    const target = await store();
    const place = options.namespace === undefined ? {} : { namespace: options.namespace };
    const domains = { memory: new m.CheckpointMemoryStorage(target, place), workflows: new m.CheckpointWorkflowsStorage(target, place) };
    const report = await m.migrateMastra(source, domains, { apply: options.apply, ...(options.onProgress === undefined ? {} : { onProgress: options.onProgress }) });
    const differences = report.differences ?? [];
    if (differences.length > 0) {
      const shown = differences.slice(0, SHOWN_DIFFERENCES).map((d) => `${d.what} ${d.id}: source ${d.source} target ${d.target}`);
      throw new CheckpointIntegrityError(`${differences.length} difference(s) between the Mastra store and the target after copying: ${shown.join('; ')}${differences.length > SHOWN_DIFFERENCES ? '; ...' : ''}`);
    }
    return {
      dry_run: report.dryRun,
      direction: 'in',
      family: 'mastra',
      threads: report.threads,
      messages: report.messages,
      resources: report.resources,
      runs: report.runs,
      observational_memory: report.observationalMemory,
      present: report.present,
      verification: report.differences === undefined ? null : { threads: report.verified?.threads ?? 0, runs: report.verified?.runs ?? 0, observational_memory: report.verified?.observationalMemory ?? 0, differences: [] },
    };
  } finally {
    await source.close();
  }
}
