import { CheckpointNotFoundError, type CheckpointStore } from '@session-checkpoint/core';
import { channelsOf, jsonForm, LANGGRAPH_NAMESPACE } from '../format/payloads.js';
import { setOwn } from '../format/json.js';
import { checkpointPrefix } from '../format/refs.js';
import { entryAt, newestEntries, sortedWrites, storedWrite, writePartRows, type CheckpointEntry } from '../read/entries.js';
import { ChannelRebuilder } from '../read/rebuild.js';
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
  const p = entry.checkpoint;
  const rebuilder = new ChannelRebuilder(store, namespace);
  await rebuilder.load([{ p, sha: entry.sha, rowId: entry.rowId }]);
  const values: Record<string, unknown> = {};
  for (const channel of channelsOf(p)) {
    if (only !== undefined && !only.has(channel)) continue;
    setOwn(values, channel, jsonForm(rebuilder.value(p, channel, entry.rowId).stored));
  }
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
 * The state at one checkpoint, verified: the channel values exactly as the saver's `getTuple`
 * rebuilds them, in their serialised JSON form (LangChain messages as `{ lc: 1, type:
 * "constructor", id, kwargs }`), with metadata, pending writes and the derived `next` nodes.
 * A value the serializer stored as bytes (not JSON) comes back as `{ "$type": tag, "$base64": data }`.
 * Checkpoints of format version 1 to 3 before LangGraph's v4 (pending sends in the parent's writes)
 * are shown as stored, without LangGraph's migration of those sends.
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

/*
 * The nodes a checkpoint runs next, from its channel versions alone (no graph at hand): LangGraph
 * triggers a StateGraph node through its channel `branch:to:<node>` (the start node through
 * `__start__`), and runs it when that channel holds a value at a version the node has not seen.
 */

const BRANCH = 'branch:to:';
const START = '__start__';

/** A version comparison as LangGraph's: numbers numerically, otherwise as text. */
function newer(a: unknown, b: unknown): boolean {
  if (b === undefined) return true;
  if (typeof a === 'number' && typeof b === 'number') return a > b;
  return String(a) > String(b);
}

/**
 * The names of the nodes triggered at this checkpoint, sorted.
 */
function nextNodes(checkpoint: Record<string, unknown>, present: ReadonlySet<string>): string[] {
  const versions = (checkpoint.channel_versions ?? {}) as Record<string, unknown>;
  const seen = (checkpoint.versions_seen ?? {}) as Record<string, Record<string, unknown> | undefined>;
  const out: string[] = [];
  for (const channel of Object.keys(versions)) {
    const node = channel === START ? START : channel.startsWith(BRANCH) ? channel.slice(BRANCH.length) : undefined;
    if (node === undefined || !present.has(channel)) continue;
    const nodeSeen = Object.hasOwn(seen, node) ? seen[node] : undefined;
    if (newer(versions[channel], nodeSeen !== undefined && Object.hasOwn(nodeSeen, channel) ? nodeSeen[channel] : undefined)) out.push(node);
  }
  return out.sort();
}
