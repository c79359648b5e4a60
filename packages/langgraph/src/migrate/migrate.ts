import type { RunnableConfig } from '@langchain/core/runnables';
import type { BaseCheckpointSaver, ChannelVersions, CheckpointMetadata, CheckpointTuple, PendingWrite } from '@langchain/langgraph-checkpoint';
import { saverIndex, type CheckpointKey, type SaverIndex } from './indexes.js';
import { tupleDifferences, type FieldDifference } from './compare.js';
import { tupleReader, type TupleReader } from './decoded-source.js';

/** What {@link migrateCheckpoints} reports while it works. */
export interface MigrationProgress {
  /** `copy` (or `count` in a dry run), then `verify`. */
  phase: 'copy' | 'count' | 'verify';
  /** Checkpoints done so far in this phase. */
  done: number;
  /** Checkpoints of this phase, or `null` when the source cannot count them cheaply. */
  total: number | null;
}

/** Options of {@link migrateCheckpoints}. */
export interface MigrationOptions {
  /** Write to the target. Default is `false`: a dry run that counts what would move and writes nothing. */
  apply?: boolean;
  /** Threads to move. Default is every thread of the source (a direct query for SqliteSaver and PostgresSaver, else `list`). */
  threadIds?: readonly string[];
  /** Compare both sides after copying ({@link verifyMigration}). Default is `apply`. */
  verify?: boolean;
  /** Called as checkpoints are counted, copied and compared. Default is none. */
  onProgress?: (event: MigrationProgress) => void;
}

/** One difference {@link verifyMigration} found. */
export interface MigrationDifference {
  threadId: string;
  checkpointNs: string;
  /** The checkpoint, or `null` for a difference of the thread's latest checkpoint. */
  checkpointId: string | null;
  /** `missing` (source only), `extra` (target only), `unreadable` (the target's getTuple throws), `latest`, or a differing field. */
  what: 'missing' | 'extra' | 'unreadable' | 'latest' | FieldDifference['field'];
  /** The source's answer as normalised JSON (cut after 300 characters); `null` when it has none. */
  source: string | null;
  /** The target's answer, likewise. */
  target: string | null;
}

/** What {@link verifyMigration} found. */
export interface VerificationReport {
  /** Checkpoints of the source compared with the target. */
  checkpoints: number;
  /** Every difference, in thread, namespace and id order. Empty when both sides answer alike. */
  differences: MigrationDifference[];
}

/** What {@link migrateCheckpoints} did, or would do in a dry run. */
export interface MigrationReport {
  /** True when nothing was written. */
  dryRun: boolean;
  /** Threads of the source that were looked at. */
  threads: number;
  /** Checkpoints copied (in a dry run: that would be copied). */
  checkpoints: number;
  /** Pending writes copied with them (in a dry run: that would be). */
  writes: number;
  /** Checkpoints the target already held, left as they are (a re-run after a kill, or a second run). */
  present: number;
  /** The comparison of both sides, when `verify` was on. */
  verification?: VerificationReport;
}

function configOf(thread: string, ns: string, id?: string): RunnableConfig {
  return { configurable: { thread_id: thread, checkpoint_ns: ns, ...(id === undefined ? {} : { checkpoint_id: id }) } };
}

/** The keys of one thread grouped by namespace, keeping their order. */
function byNamespace(keys: CheckpointKey[]): Map<string, CheckpointKey[]> {
  const groups = new Map<string, CheckpointKey[]>();
  for (const key of keys) {
    const group = groups.get(key.ns);
    if (group) group.push(key);
    else groups.set(key.ns, [key]);
  }
  return groups;
}

/** Channels whose version differs from the parent's: what LangGraph passes as `newVersions`. */
function newVersionsOf(versions: ChannelVersions, parent: ChannelVersions | undefined): ChannelVersions {
  if (parent === undefined) return { ...versions };
  const out: ChannelVersions = {};
  for (const [channel, version] of Object.entries(versions)) if (!Object.hasOwn(parent, channel) || parent[channel] !== version) out[channel] = version;
  return out;
}

/** Puts a tuple's pending writes, one `putWrites` per task in their order (task path `''`: sources do not return it). */
async function putWritesOf(target: BaseCheckpointSaver, tuple: CheckpointTuple, config: RunnableConfig): Promise<number> {
  const tasks = new Map<string, PendingWrite[]>();
  for (const [task, channel, value] of tuple.pendingWrites ?? []) {
    const list = tasks.get(task) ?? [];
    list.push([channel, value]);
    tasks.set(task, list);
  }
  for (const [task, writes] of tasks) await target.putWrites(config, writes, task);
  return tuple.pendingWrites?.length ?? 0;
}

/**
 * Copies every thread of one LangGraph checkpointer into another (every checkpoint namespace,
 * forks, metadata, pending writes), typically from SqliteSaver or PostgresSaver into
 * `SessionCheckpointSaver`, or back. A dry run unless `apply: true`. Each (thread, namespace) goes
 * oldest first, with `newVersions` from the parent's versions; one checkpoint is held at a time.
 * Resumable: what the target holds is not put again, so a run after a kill finishes the job.
 *
 * @example
 * ```ts
 * const source = SqliteSaver.fromConnString('chat.db');
 * const target = new SessionCheckpointSaver(await openSqliteStore('chat.sc.db'));
 * await migrateCheckpoints(source, target); // dry run: { dryRun: true, threads: 12, checkpoints: 940, ... }
 * const report = await migrateCheckpoints(source, target, { apply: true });
 * report.verification?.differences; // [] when both sides answer alike
 * ```
 */
export async function migrateCheckpoints(source: BaseCheckpointSaver, target: BaseCheckpointSaver, options: MigrationOptions = {}): Promise<MigrationReport> {
  const apply = options.apply === true;
  const from = saverIndex(source, options.threadIds);
  const to = saverIndex(target);
  const threads = await from.threads();
  const total = from.count ? await from.count(options.threadIds === undefined ? undefined : threads) : null;
  const phase = apply ? 'copy' : 'count';
  const report: MigrationReport = { dryRun: !apply, threads: threads.length, checkpoints: 0, writes: 0, present: 0 };
  let done = 0;
  const tick = () => options.onProgress?.({ phase, done: ++done, total });
  if (apply) await (target as { setup?: () => unknown }).setup?.();
  const read = tupleReader(source);
  for (const thread of threads) {
    for (const [ns, group] of byNamespace(await from.checkpoints(thread))) await copyNamespace(read, target, to, { thread, ns, apply }, group, report, tick);
  }
  if (options.verify ?? apply) report.verification = await verifyMigration(source, target, { threadIds: threads, ...(options.onProgress ? { onProgress: options.onProgress } : {}) });
  return report;
}

/**
 * Copies (or with `apply` false, counts) one (thread, namespace) of the source, oldest first. A
 * checkpoint the target holds is left as it is; the newest of those found has its writes put again
 * (a kill may have stopped between its put and the end of its writes; a no-op where they are complete).
 */
async function copyNamespace(
  source: TupleReader,
  target: BaseCheckpointSaver,
  to: SaverIndex,
  at: { thread: string; ns: string; apply: boolean },
  group: CheckpointKey[],
  report: MigrationReport,
  tick: () => void,
): Promise<void> {
  const { thread, ns, apply } = at;
  // Channel versions of the checkpoints put in this run: each child's newVersions is its diff.
  const versions = new Map<string, ChannelVersions>();
  let lastPresent: string | undefined;
  const finishPresent = async () => {
    const tuple = lastPresent === undefined ? undefined : await source.getTuple(configOf(thread, ns, lastPresent));
    if (tuple) await putWritesOf(target, tuple, configOf(thread, ns, lastPresent));
    lastPresent = undefined;
  };
  for (const key of group) {
    if (await to.has(thread, ns, key.id)) {
      report.present++;
      if (apply) lastPresent = key.id;
      tick();
      continue;
    }
    if (!apply) {
      report.checkpoints++;
      report.writes += key.writes ?? (await source.getTuple(configOf(thread, ns, key.id)))?.pendingWrites?.length ?? 0;
      tick();
      continue;
    }
    await finishPresent();
    const tuple = await source.getTuple(configOf(thread, ns, key.id));
    if (tuple === undefined) {
      tick(); // deleted from the source since it was listed
      continue;
    }
    const parentId = tuple.parentConfig?.configurable?.checkpoint_id as string | undefined;
    // Put by an earlier run, or a fork's parent from long ago: read back from the target, which
    // also lets our saver extend its stored lists as a clean run would.
    const parentVersions = parentId === undefined ? undefined : (versions.get(parentId) ?? (await target.getTuple(configOf(thread, ns, parentId)))?.checkpoint.channel_versions);
    const { checkpoint } = tuple;
    await target.put(configOf(thread, ns, parentId), checkpoint, tuple.metadata ?? ({} as CheckpointMetadata), newVersionsOf(checkpoint.channel_versions, parentVersions));
    versions.set(key.id, { ...checkpoint.channel_versions });
    report.checkpoints++;
    report.writes += await putWritesOf(target, tuple, configOf(thread, ns, key.id));
    tick();
  }
  await finishPresent();
}

/** Options of {@link verifyMigration}. */
export interface VerifyMigrationOptions {
  /** Threads to compare. Default is every thread of the source (found as {@link MigrationOptions.threadIds} says). */
  threadIds?: readonly string[];
  /** Called after each checkpoint compared. Default is none. */
  onProgress?: (event: MigrationProgress) => void;
}

/**
 * Compares two checkpointers thread by thread: the ids each holds per (thread, namespace), each
 * checkpoint's `getTuple` on both sides (as JSON with sorted keys, writes by task), and the latest
 * checkpoint. Reports every difference.
 *
 * @example
 * ```ts
 * const { differences } = await verifyMigration(SqliteSaver.fromConnString('chat.db'), saver);
 * if (differences.length > 0) console.log(differences[0]); // { threadId, checkpointNs, checkpointId, what, source, target }
 * ```
 */
export async function verifyMigration(source: BaseCheckpointSaver, target: BaseCheckpointSaver, options: VerifyMigrationOptions = {}): Promise<VerificationReport> {
  const from = saverIndex(source, options.threadIds);
  const to = saverIndex(target);
  const threads = await from.threads();
  const total = from.count ? await from.count(options.threadIds === undefined ? undefined : threads) : null;
  const report: VerificationReport = { checkpoints: 0, differences: [] };
  const diff = (threadId: string, checkpointNs: string, checkpointId: string | null, what: MigrationDifference['what'], s: string | null, t: string | null) =>
    report.differences.push({ threadId, checkpointNs, checkpointId, what, source: s, target: t });
  for (const thread of threads) {
    const targetIds = new Map([...byNamespace(await to.checkpoints(thread))].map(([ns, g]) => [ns, new Set(g.map((k) => k.id))]));
    for (const [ns, group] of byNamespace(await from.checkpoints(thread))) {
      const present = targetIds.get(ns) ?? new Set<string>();
      targetIds.delete(ns);
      for (const key of group) {
        report.checkpoints++;
        options.onProgress?.({ phase: 'verify', done: report.checkpoints, total });
        const config = configOf(thread, ns, key.id);
        present.delete(key.id);
        const a = await source.getTuple(config);
        if (a === undefined) continue; // deleted from the source meanwhile
        let b: CheckpointTuple | undefined;
        try {
          b = await target.getTuple(config);
        } catch (error) {
          // A checkpoint the target cannot read back (it fails closed) is a difference, not the end of the comparison.
          diff(thread, ns, key.id, 'unreadable', null, JSON.stringify(error instanceof Error ? `${error.name}: ${error.message}` : String(error)));
          continue;
        }
        if (b === undefined) {
          diff(thread, ns, key.id, 'missing', JSON.stringify(key.id), null);
          continue;
        }
        for (const d of tupleDifferences(a, b)) diff(thread, ns, key.id, d.field, d.source, d.target);
      }
      for (const id of present) diff(thread, ns, id, 'extra', null, JSON.stringify(id));
      const la = await source.getTuple(configOf(thread, ns));
      const lb = await target.getTuple(configOf(thread, ns)).catch(() => undefined); // unreadable: reported above
      const [ida, idb] = [la?.config.configurable?.checkpoint_id ?? null, lb?.config.configurable?.checkpoint_id ?? null];
      if (ida !== idb) diff(thread, ns, null, 'latest', JSON.stringify(ida), JSON.stringify(idb));
    }
    for (const [ns, ids] of targetIds) for (const id of ids) diff(thread, ns, id, 'extra', null, JSON.stringify(id));
  }
  return report;
}
