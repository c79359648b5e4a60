import type { MastraDBMessage, StorageThreadType } from '@mastra/core/memory';
import type { MemoryStorage, WorkflowsStorage } from '@mastra/core/storage';

/** The domains a migration reads from or writes to: any Mastra store's (`await store.getStore('memory')`, ...). */
export interface MastraDomains {
  memory?: MemoryStorage;
  workflows?: WorkflowsStorage;
}

/** Options of {@link migrateMastra}. */
export interface MastraMigrationOptions {
  /** Write to the target. Default is `false`: a dry run that counts what would move and writes nothing. */
  apply?: boolean;
  /** Compare both sides after copying. Default is `apply`. */
  verify?: boolean;
  /** Called after each thread or run. Default is none. */
  onProgress?: (event: { phase: 'threads' | 'runs' | 'verify'; done: number; total: number }) => void;
}

/** One difference the verification found. */
export interface MastraMigrationDifference {
  what: 'thread' | 'messages' | 'resource' | 'snapshot';
  /** The thread, resource or `<workflow>/<run>`. */
  id: string;
  source: string;
  target: string;
}

/** What {@link migrateMastra} did, or would do in a dry run. */
export interface MastraMigrationReport {
  dryRun: boolean;
  threads: number;
  messages: number;
  resources: number;
  runs: number;
  /** Threads, messages, resources and runs the target already held, left as they are (a re-run after a kill). */
  present: number;
  /** Every difference, when `verify` was on (empty when both sides answer alike). */
  differences?: MastraMigrationDifference[];
  /** What the verification compared, when `verify` was on: every thread of the source (its record and all its messages) and every run (its snapshot). */
  verified?: { threads: number; runs: number };
}

/** Dates as milliseconds, keys sorted, `updatedAt` and `undefined` members left out: what both sides must agree on. */
function normal(value: unknown): string {
  const walk = (v: unknown): unknown => {
    if (v instanceof Date) return v.getTime();
    if (Array.isArray(v)) return v.map(walk);
    if (v && typeof v === 'object') {
      const out: Record<string, unknown> = {};
      for (const key of Object.keys(v).sort()) {
        const inner = (v as Record<string, unknown>)[key];
        if (key !== 'updatedAt' && inner !== undefined) out[key] = key === 'createdAt' && typeof inner === 'string' ? new Date(inner).getTime() : walk(inner);
      }
      return out;
    }
    return v;
  };
  return JSON.stringify(walk(value)) ?? 'null';
}

const BATCH = 100;

/**
 * Copies Mastra's memory (threads, every message of each, the resources they name) and workflow
 * runs (each run's snapshot: `@mastra/libsql` and `@mastra/pg` keep one per run, the latest, so
 * that is the whole of a run there) from one set of domains into another, through the domains'
 * public methods only: typically from `@mastra/libsql` or `@mastra/pg` into this package's domains.
 *
 * A dry run unless `apply: true`. Resumable: a thread, message, resource or run the target already
 * holds is left as it is, so a run killed midway finishes when run again, and a second run copies
 * nothing. With `verify` (the default when applying) both sides are compared after copying.
 *
 * @example
 * ```ts
 * const libsql = new LibSQLStore({ id: 'old', url: 'file:mastra.db' });
 * const source = { memory: await libsql.getStore('memory'), workflows: await libsql.getStore('workflows') };
 * const target = { memory: new CheckpointMemoryStorage(store), workflows: new CheckpointWorkflowsStorage(store) };
 * await migrateMastra(source, target); // dry run
 * const report = await migrateMastra(source, target, { apply: true }); // report.differences: []
 * ```
 */
export async function migrateMastra(source: MastraDomains, target: MastraDomains, options: MastraMigrationOptions = {}): Promise<MastraMigrationReport> {
  const apply = options.apply === true;
  const report: MastraMigrationReport = { dryRun: !apply, threads: 0, messages: 0, resources: 0, runs: 0, present: 0 };
  const threads: StorageThreadType[] = source.memory ? (await source.memory.listThreads({ perPage: false, orderBy: { field: 'createdAt', direction: 'ASC' } })).threads : [];
  const resources = new Set<string>();
  for (const [i, thread] of threads.entries()) {
    const from = source.memory as MemoryStorage;
    const to = target.memory;
    if (!to) throw new Error('the target has no memory domain');
    resources.add(thread.resourceId);
    if (await to.getThreadById({ threadId: thread.id })) report.present++;
    else {
      report.threads++;
      if (apply) await to.saveThread({ thread });
    }
    const { messages } = await from.listMessages({ threadId: thread.id, perPage: false, orderBy: { field: 'createdAt', direction: 'ASC' } });
    let copied = false;
    for (let at = 0; at < messages.length; at += BATCH) {
      const batch = messages.slice(at, at + BATCH);
      const there = new Set((await to.listMessagesById({ messageIds: batch.map((m) => m.id) })).messages.map((m) => m.id));
      const missing = batch.filter((m) => !there.has(m.id));
      report.present += batch.length - missing.length;
      report.messages += missing.length;
      if (apply && missing.length > 0) {
        await to.saveMessages({ messages: missing });
        copied = true;
      }
    }
    // The messages touched the thread (its updatedAt is its newest change's time): saving the
    // record again gives it back the source's updatedAt.
    if (copied) await to.saveThread({ thread });
    options.onProgress?.({ phase: 'threads', done: i + 1, total: threads.length });
  }
  for (const id of resources) {
    const resource = await source.memory?.getResourceById({ resourceId: id }).catch(() => null);
    if (!resource || !target.memory) continue;
    if (await target.memory.getResourceById({ resourceId: id })) report.present++;
    else {
      report.resources++;
      if (apply) await target.memory.saveResource({ resource });
    }
  }
  const runs = source.workflows ? (await source.workflows.listWorkflowRuns()).runs : [];
  for (const [i, run] of runs.entries()) {
    if (!target.workflows) throw new Error('the target has no workflows domain');
    if (await target.workflows.loadWorkflowSnapshot({ workflowName: run.workflowName, runId: run.runId })) report.present++;
    else {
      report.runs++;
      const snapshot = typeof run.snapshot === 'string' ? JSON.parse(run.snapshot) : run.snapshot;
      if (apply) await target.workflows.persistWorkflowSnapshot({ workflowName: run.workflowName, runId: run.runId, snapshot, createdAt: run.createdAt, updatedAt: run.updatedAt, ...(run.resourceId ? { resourceId: run.resourceId } : {}) });
    }
    options.onProgress?.({ phase: 'runs', done: i + 1, total: runs.length });
  }
  if (options.verify ?? apply) {
    report.differences = await verifyMastraMigration(source, target, threads, runs.map((r) => [r.workflowName, r.runId] as const), options.onProgress);
    report.verified = { threads: threads.length, runs: runs.length };
  }
  return report;
}

async function verifyMastraMigration(
  source: MastraDomains,
  target: MastraDomains,
  threads: StorageThreadType[],
  runs: (readonly [string, string])[],
  onProgress: MastraMigrationOptions['onProgress'],
): Promise<MastraMigrationDifference[]> {
  const out: MastraMigrationDifference[] = [];
  const diff = (what: MastraMigrationDifference['what'], id: string, a: unknown, b: unknown) => {
    const [sa, sb] = [normal(a), normal(b)];
    if (sa !== sb) out.push({ what, id, source: sa.slice(0, 300), target: sb.slice(0, 300) });
  };
  const list = async (m: MemoryStorage | undefined, threadId: string): Promise<MastraDBMessage[]> => (m ? (await m.listMessages({ threadId, perPage: false, orderBy: { field: 'createdAt', direction: 'ASC' } })).messages : []);
  let done = 0;
  const total = threads.length + runs.length;
  for (const thread of threads) {
    diff('thread', thread.id, await source.memory?.getThreadById({ threadId: thread.id }), await target.memory?.getThreadById({ threadId: thread.id }));
    const byId = (ms: MastraDBMessage[]) => [...ms].sort((x, y) => (x.id < y.id ? -1 : x.id > y.id ? 1 : 0));
    diff('messages', thread.id, byId(await list(source.memory, thread.id)), byId(await list(target.memory, thread.id)));
    onProgress?.({ phase: 'verify', done: ++done, total });
  }
  for (const [workflowName, runId] of runs) {
    diff('snapshot', `${workflowName}/${runId}`, await source.workflows?.loadWorkflowSnapshot({ workflowName, runId }), await target.workflows?.loadWorkflowSnapshot({ workflowName, runId }));
    onProgress?.({ phase: 'verify', done: ++done, total });
  }
  return out;
}
