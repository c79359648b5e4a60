import { CheckpointValidationError } from '@session-checkpoint/core';
import type { MastraDBMessage, StorageThreadType } from '@mastra/core/memory';
import type { MemoryStorage, ObservationalMemoryRecord, WorkflowsStorage } from '@mastra/core/storage';
import { CheckpointMemoryStorage } from './memory-storage.js';
import { GENERATIONS, omLookupKey } from './rows/observational-memory.js';

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
  /** Called after each thread (with its observational memory) or run. Default is none. */
  onProgress?: (event: { phase: 'threads' | 'runs' | 'verify'; done: number; total: number }) => void;
}

/** One difference the verification found. */
export interface MastraMigrationDifference {
  what: 'thread' | 'messages' | 'resource' | 'snapshot' | 'observational-memory';
  /** The thread, resource, `<workflow>/<run>`, or for an observational-memory record `<lookup key>/<record id>` (`thread:<threadId>/<id>` or `resource:<resourceId>/<id>`). */
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
  /** Observational-memory records (every generation of every thread's and resource's OM). */
  observationalMemory: number;
  /** Threads, messages, resources, runs and OM records the target already held, left as they are (a re-run after a kill). */
  present: number;
  /** Every difference, when `verify` was on (empty when both sides answer alike). */
  differences?: MastraMigrationDifference[];
  /**
   * What the verification compared, when `verify` was on: every thread of the source (its record
   * and all its messages), every run (its snapshot) and every OM record of the source.
   */
  verified?: { threads: number; runs: number; observationalMemory: number };
}

/**
 * Dates as milliseconds, keys sorted, `updatedAt` and `undefined` members left out: what both
 * sides must agree on. `dateKeys` are the keys whose ISO text is a date too (`createdAt`; for OM
 * records also the dates of their buffered chunks, text in @mastra/libsql's and @mastra/pg's
 * records and `Date` here); `keepUpdatedAt` compares `updatedAt` as well.
 */
function normal(value: unknown, dateKeys: ReadonlySet<string> = CREATED, keepUpdatedAt = false): string {
  const walk = (v: unknown): unknown => {
    if (v instanceof Date) return v.getTime();
    if (Array.isArray(v)) return v.map(walk);
    if (v && typeof v === 'object') {
      const out: Record<string, unknown> = {};
      for (const key of Object.keys(v).sort()) {
        const inner = (v as Record<string, unknown>)[key];
        if ((keepUpdatedAt || key !== 'updatedAt') && inner !== undefined) out[key] = dateKeys.has(key) && typeof inner === 'string' ? new Date(inner).getTime() : walk(inner);
      }
      return out;
    }
    return v;
  };
  return JSON.stringify(walk(value)) ?? 'null';
}

const CREATED: ReadonlySet<string> = new Set(['createdAt']);
const OM_DATES: ReadonlySet<string> = new Set(['createdAt', 'updatedAt', 'lastObservedAt', 'lastBufferedAtTime']);

/**
 * An OM record as compared: every field (its `updatedAt` too: inserting a record keeps it) but
 * the deprecated `bufferedObservations`, `bufferedObservationTokens` and `bufferedMessageIds`,
 * which `insertObservationalMemoryRecord` of @mastra/libsql and @mastra/pg does not store either.
 */
function omNormal(record: ObservationalMemoryRecord | undefined): string {
  if (record === undefined) return 'null';
  const { bufferedObservations: _a, bufferedObservationTokens: _b, bufferedMessageIds: _c, ...rest } = record;
  return normal(rest, OM_DATES, true);
}

/** Two differing records (normal JSON objects) cut to the members that differ, so a report shows them within its 300 characters. */
function changedFields(a: string, b: string): [string, string] {
  const [x, y] = [JSON.parse(a) as Record<string, unknown>, JSON.parse(b) as Record<string, unknown>];
  const keys = [...new Set([...Object.keys(x), ...Object.keys(y)])].sort().filter((k) => JSON.stringify(x[k]) !== JSON.stringify(y[k]));
  const pick = (o: Record<string, unknown>) => JSON.stringify(Object.fromEntries(keys.filter((k) => k in o).map((k) => [k, o[k]])));
  return [pick(x), pick(y)];
}

/** A thread's OM (`threadId` set) or a resource's (`threadId` null). */
interface OmKey {
  threadId: string | null;
  resourceId: string;
}

/**
 * Records asked for per key. Mastra's `getObservationalMemoryHistory` has no "all" (10 when no
 * limit is given; a negative limit is an SQL error in PostgreSQL), so a limit past any real count.
 */
const OM_ALL = 2 ** 31 - 1;

/**
 * Every OM record of a key, newest generation first as Mastra lists them (none when the domain
 * has no OM). Mastra's domain API lists no OM keys, so a migration asks for those of the threads
 * it copies and of the resources they name.
 */
async function omHistory(memory: MemoryStorage | undefined, key: OmKey): Promise<ObservationalMemoryRecord[]> {
  if (!memory?.supportsObservationalMemory) return [];
  const records = await memory.getObservationalMemoryHistory(key.threadId, key.resourceId, OM_ALL);
  if (records.length >= OM_ALL) throw new Error(`${omLookupKey(key.threadId, key.resourceId)} has ${OM_ALL} observational memory records or more: too many to copy in one read`);
  return records;
}

/**
 * Refuses, before anything of the key is written, a record this package's OM cannot hold: its
 * `generationCount` must be an integer from 0 to 10^15 - 1 (stored inverted in the row's ref so a
 * range read is newest first), where @mastra/libsql and @mastra/pg take any number.
 */
function checkOmRecord(target: MemoryStorage, lookupKey: string, record: ObservationalMemoryRecord): void {
  if (!(target instanceof CheckpointMemoryStorage)) return;
  const g = record.generationCount;
  if (!Number.isSafeInteger(g) || g < 0 || g >= GENERATIONS) {
    throw new CheckpointValidationError(`observational memory record ${record.id} of ${lookupKey} has generationCount ${String(g)}: this store takes an integer from 0 to ${GENERATIONS - 1} only, so it cannot be copied (fix or remove it in the source and run again)`);
  }
}

/**
 * Copies a key's OM records the target lacks (by id), oldest generation first and those of one
 * generation in the source's order, so the target lists them as the source does.
 */
async function copyObservationalMemory(source: MemoryStorage | undefined, target: MemoryStorage | undefined, key: OmKey, apply: boolean, report: MastraMigrationReport): Promise<void> {
  const records = await omHistory(source, key);
  if (records.length === 0) return;
  const lookupKey = omLookupKey(key.threadId, key.resourceId);
  if (!target?.supportsObservationalMemory) throw new Error(`the target's memory domain has no observational memory, and the source has ${records.length} record(s) of ${lookupKey}`);
  for (const record of records) checkOmRecord(target, lookupKey, record);
  // Array sort is stable: the records of one generation keep the source's order.
  const oldestFirst = [...records].sort((a, b) => a.generationCount - b.generationCount);
  const there = new Set((await omHistory(target, key)).map((r) => r.id));
  for (const record of oldestFirst) {
    if (there.has(record.id)) report.present++;
    else {
      report.observationalMemory++;
      if (apply) await target.insertObservationalMemoryRecord(record);
    }
  }
}

const BATCH = 100;

/**
 * Copies Mastra's memory (threads, every message of each, the resources they name, and the
 * observational memory of each thread and of each of those resources: every record, all
 * generations) and workflow runs (each run's snapshot: `@mastra/libsql` and `@mastra/pg` keep one
 * per run, the latest, so that is the whole of a run there) from one set of domains into another,
 * through the domains' public methods only: typically from `@mastra/libsql` or `@mastra/pg` into
 * this package's domains.
 *
 * A dry run unless `apply: true`. Resumable: a thread, message, resource, OM record (by id) or run
 * the target already holds is left as it is, so a run killed midway finishes when run again, and a
 * second run copies nothing. With `verify` (the default when applying) both sides are compared
 * after copying.
 *
 * @throws CheckpointValidationError naming the record, in a dry run too, when an OM record's
 * `generationCount` is not an integer from 0 to 10^15 - 1 and the target is a
 * {@link CheckpointMemoryStorage} (which cannot hold it); nothing of that thread's or resource's
 * OM is written.
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
  const report: MastraMigrationReport = { dryRun: !apply, threads: 0, messages: 0, resources: 0, runs: 0, observationalMemory: 0, present: 0 };
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
    await copyObservationalMemory(from, to, { threadId: thread.id, resourceId: thread.resourceId }, apply, report);
    options.onProgress?.({ phase: 'threads', done: i + 1, total: threads.length });
  }
  for (const id of resources) {
    const resource = await source.memory?.getResourceById({ resourceId: id }).catch(() => null);
    if (resource && target.memory) {
      if (await target.memory.getResourceById({ resourceId: id })) report.present++;
      else {
        report.resources++;
        if (apply) await target.memory.saveResource({ resource });
      }
    }
    // A resource's OM does not need a resource record (Mastra makes none for it).
    await copyObservationalMemory(source.memory, target.memory, { threadId: null, resourceId: id }, apply, report);
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
    const verified = { threads: threads.length, runs: runs.length, observationalMemory: 0 };
    report.differences = await verifyMastraMigration(source, target, threads, [...resources], runs.map((r) => [r.workflowName, r.runId] as const), verified, options.onProgress);
    report.verified = verified;
  }
  return report;
}

async function verifyMastraMigration(
  source: MastraDomains,
  target: MastraDomains,
  threads: StorageThreadType[],
  resources: string[],
  runs: (readonly [string, string])[],
  verified: { observationalMemory: number },
  onProgress: MastraMigrationOptions['onProgress'],
): Promise<MastraMigrationDifference[]> {
  const out: MastraMigrationDifference[] = [];
  const push = (what: MastraMigrationDifference['what'], id: string, sa: string, sb: string) => {
    if (sa !== sb) out.push({ what, id, source: sa.slice(0, 300), target: sb.slice(0, 300) });
  };
  const diff = (what: MastraMigrationDifference['what'], id: string, a: unknown, b: unknown) => push(what, id, normal(a), normal(b));
  // Every record of the key on either side, by id: a record the target lacks, has changed or has besides.
  const om = async (key: OmKey) => {
    const lookupKey = omLookupKey(key.threadId, key.resourceId);
    const [a, b] = [await omHistory(source.memory, key), await omHistory(target.memory, key)];
    const theirs = new Map(b.map((r) => [r.id, r]));
    for (const r of a) {
      const [sa, sb] = [omNormal(r), omNormal(theirs.get(r.id))];
      if (sa !== sb && theirs.has(r.id)) push('observational-memory', `${lookupKey}/${r.id}`, ...changedFields(sa, sb));
      else push('observational-memory', `${lookupKey}/${r.id}`, sa, sb);
      theirs.delete(r.id);
    }
    for (const [id, r] of theirs) push('observational-memory', `${lookupKey}/${id}`, 'null', omNormal(r));
    verified.observationalMemory += a.length;
  };
  const list = async (m: MemoryStorage | undefined, threadId: string): Promise<MastraDBMessage[]> => (m ? (await m.listMessages({ threadId, perPage: false, orderBy: { field: 'createdAt', direction: 'ASC' } })).messages : []);
  let done = 0;
  const total = threads.length + runs.length;
  for (const thread of threads) {
    diff('thread', thread.id, await source.memory?.getThreadById({ threadId: thread.id }), await target.memory?.getThreadById({ threadId: thread.id }));
    const byId = (ms: MastraDBMessage[]) => [...ms].sort((x, y) => (x.id < y.id ? -1 : x.id > y.id ? 1 : 0));
    diff('messages', thread.id, byId(await list(source.memory, thread.id)), byId(await list(target.memory, thread.id)));
    await om({ threadId: thread.id, resourceId: thread.resourceId });
    onProgress?.({ phase: 'verify', done: ++done, total });
  }
  for (const resourceId of resources) await om({ threadId: null, resourceId });
  for (const [workflowName, runId] of runs) {
    diff('snapshot', `${workflowName}/${runId}`, await source.workflows?.loadWorkflowSnapshot({ workflowName, runId }), await target.workflows?.loadWorkflowSnapshot({ workflowName, runId }));
    onProgress?.({ phase: 'verify', done: ++done, total });
  }
  return out;
}
