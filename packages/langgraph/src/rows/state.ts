import { CheckpointNotFoundError, type CheckpointStore } from '@session-checkpoint/core';
import { jsonForm, LANGGRAPH_NAMESPACE } from '../format/payloads.js';
import { own, setOwn } from '../format/json.js';
import { checkpointPrefix } from '../format/refs.js';
import { entryAt, newestEntries, sortedWrites, storedWrite, writePartRows, type CheckpointEntry } from '../read/entries.js';
import { storedValues } from '../read/rebuild.js';
import type { CheckpointSelector, LanggraphState, LanggraphWrite, PendingWriteTuple } from './types.js';

/** The entry a selector names: its checkpoint id, or the latest of (thread, ns). */
export async function selectedEntry(store: CheckpointStore, selector: CheckpointSelector): Promise<CheckpointEntry> {
  const namespace = selector.namespace ?? LANGGRAPH_NAMESPACE;
  const ns = selector.checkpointNs ?? '';
  let entry: CheckpointEntry | undefined;
  if (selector.checkpointId !== undefined) entry = await entryAt(store, namespace, selector.threadId, ns, selector.checkpointId);
  else for await (const e of newestEntries(store, namespace, checkpointPrefix(selector.threadId, ns), undefined, 1)) return e;
  if (entry) return entry;
  const where = `thread '${selector.threadId}'${ns === '' ? '' : ` (checkpoint namespace '${ns}')`} of namespace '${namespace}'`;
  throw new CheckpointNotFoundError(selector.checkpointId === undefined ? `no LangGraph checkpoint in ${where}` : `no LangGraph checkpoint ${selector.checkpointId} in ${where}`);
}

/** The channel values of an entry as the saver rebuilds them, in their JSON form. */
export async function entryValues(store: CheckpointStore, namespace: string, entry: CheckpointEntry, only?: ReadonlySet<string>): Promise<Record<string, unknown>> {
  const values: Record<string, unknown> = {};
  for (const [channel, stored] of await storedValues(store, namespace, { p: entry.checkpoint, sha: entry.sha, rowId: entry.rowId }, only)) setOwn(values, channel, jsonForm(stored));
  return values;
}

/** The pending writes of an entry, in LangGraph's order, values in JSON form. */
async function writesOf(store: CheckpointStore, namespace: string, entry: CheckpointEntry): Promise<LanggraphWrite[]> {
  const parts = await writePartRows(store, namespace, [entry]);
  return sortedWrites(entry.writes).map(({ task, write }) => ({
    task_id: task.task_id,
    task_path: task.task_path,
    idx: write.idx,
    channel: write.channel,
    value: jsonForm(storedWrite(entry.checkpoint, task, write, parts)),
  }));
}

/**
 * The state at one checkpoint, verified: the channel values as the saver's `getTuple` rebuilds
 * them, in their serialised JSON form (bytes as `{ "$type", "$base64" }`), with metadata, pending
 * writes and the derived `next` nodes. Pending sends of checkpoints before LangGraph's v4 are shown
 * as stored, not migrated.
 *
 * @throws CheckpointNotFoundError when the thread or checkpoint has no row.
 * @throws CheckpointIntegrityError naming the checkpoint and channel when a row it needs fails verification.
 * @example
 * ```ts
 * const latest = await langgraphState(store, { threadId: 'chat-1' });
 * const before = await langgraphState(store, { threadId: 'chat-1', checkpointId: latest.parent_checkpoint_id! });
 * ```
 */
export async function langgraphState(store: CheckpointStore, selector: CheckpointSelector): Promise<LanggraphState> {
  const namespace = selector.namespace ?? LANGGRAPH_NAMESPACE;
  const entry = await selectedEntry(store, selector);
  const p = entry.checkpoint;
  const values = await entryValues(store, namespace, entry);
  const checkpoint = jsonForm(p.checkpoint) as Record<string, unknown>;
  const writes = await writesOf(store, namespace, entry);
  return {
    family: 'langgraph',
    namespace,
    thread_id: p.thread_id,
    checkpoint_ns: p.checkpoint_ns,
    checkpoint_id: p.checkpoint_id,
    parent_checkpoint_id: p.parent_checkpoint_id,
    ts: typeof checkpoint.ts === 'string' ? checkpoint.ts : '',
    values,
    next: nextNodes(checkpoint, new Set(Object.keys(values))),
    metadata: jsonForm(p.metadata),
    pending_writes: writes.map((w): PendingWriteTuple => [w.task_id, w.channel, w.value]),
    checkpoint,
  };
}

/**
 * The pending writes of one checkpoint (a step's task outputs), in LangGraph's order, with task id,
 * task path, index and channel; values serialised as in {@link langgraphState}.
 *
 * @throws CheckpointNotFoundError when the checkpoint has no row.
 * @example
 * ```ts
 * const writes = await langgraphWrites(store, { threadId: 'chat-1', checkpointId: '1ef…' });
 * ```
 */
export async function langgraphWrites(store: CheckpointStore, selector: CheckpointSelector & { checkpointId: string }): Promise<LanggraphWrite[]> {
  return writesOf(store, selector.namespace ?? LANGGRAPH_NAMESPACE, await selectedEntry(store, selector));
}

/**
 * The values of some channels at one checkpoint, rebuilt and verified like {@link langgraphState}
 * but only for `channels` (a channel without a value there is left out): what a search over many
 * checkpoints needs without rebuilding whole states.
 *
 * @throws CheckpointNotFoundError when the checkpoint has no row.
 * @example
 * ```ts
 * const { messages } = await langgraphChannelValues(store, { threadId: 'chat-1', checkpointId: '1ef…', channels: ['messages'] });
 * ```
 */
export async function langgraphChannelValues(store: CheckpointStore, selector: CheckpointSelector & { checkpointId: string; channels: readonly string[] }): Promise<Record<string, unknown>> {
  const entry = await selectedEntry(store, selector);
  return entryValues(store, selector.namespace ?? LANGGRAPH_NAMESPACE, entry, new Set(selector.channels));
}

const BRANCH = 'branch:to:';
const START = '__start__';

/** A version comparison as LangGraph's: numbers numerically, otherwise as text. */
function newer(a: unknown, b: unknown): boolean {
  if (b === undefined) return true;
  if (typeof a === 'number' && typeof b === 'number') return a > b;
  return String(a) > String(b);
}

/**
 * The nodes triggered at this checkpoint, sorted, from its channel versions alone: a StateGraph
 * node runs when its channel `branch:to:<node>` (or `__start__`) has a version the node has not seen.
 */
export function nextNodes(checkpoint: Record<string, unknown>, present: ReadonlySet<string>): string[] {
  const versions = (checkpoint.channel_versions ?? {}) as Record<string, unknown>;
  const seen = (checkpoint.versions_seen ?? {}) as Record<string, Record<string, unknown> | undefined>;
  const out: string[] = [];
  for (const channel of Object.keys(versions)) {
    const node = channel === START ? START : channel.startsWith(BRANCH) ? channel.slice(BRANCH.length) : undefined;
    if (node === undefined || !present.has(channel)) continue;
    if (newer(versions[channel], own(own(seen, node), channel))) out.push(node);
  }
  return out.sort();
}
