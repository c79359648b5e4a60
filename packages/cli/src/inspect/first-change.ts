import { CheckpointNotFoundError, type CheckpointStore } from '@session-checkpoint/core';
import { langgraphChannelValues, langgraphTimeline, type LanggraphTimelineEntry } from '@session-checkpoint/langgraph/rows';
import { sessionState } from '@session-checkpoint/openai-agents/rows';
import { diffDocuments } from './diff.js';
import { frameworkDocument, frameworkEntries, frameworkState, isFrameworkFamily } from './framework-families.js';
import { plainIdsOldestFirst, plainState } from './plain-rows.js';
import { parsePointer, valueAtPointer } from './pointer.js';
import { positionOf } from './state.js';
import { resolveFamily } from './threads.js';
import type { FirstChange, ThreadSelector } from './types.js';

/** Options of {@link firstChange}. */
export interface FirstChangeOptions extends ThreadSelector {
  /** RFC 6901 pointer into the state document (`/messages/3/kwargs/content`). */
  pointer: string;
  /** Walk the line ending at this checkpoint. Default is the latest. */
  to?: string;
}

type At = { found: boolean; value?: unknown };

function same(a: At, b: At): boolean {
  if (a.found !== b.found) return false;
  return !a.found || diffDocuments(a.value, b.value).length === 0;
}

function hit(base: Omit<FirstChange, 'checkpoint_id' | 'parent_checkpoint_id'>, id: string, parent: string | null, before: At, after: At): FirstChange {
  return {
    ...base,
    checkpoint_id: id,
    parent_checkpoint_id: parent,
    ...(before.found ? { before: before.value } : {}),
    ...(after.found ? { after: after.value } : {}),
  };
}

/**
 * Where a LangGraph line is read from: our rows (`./rows`) or an official saver's store
 * (`./official`), which give the same timeline entries and channel values.
 */
export interface LanggraphLineSource {
  /** A page of the (thread, ns) timeline, newest first; `cursor` is the previous page's `next_cursor`. */
  page(cursor: string | undefined): Promise<{ entries: LanggraphTimelineEntry[]; next_cursor: string | null }>;
  /** The values of `channels` at checkpoint `id`. */
  channelValues(id: string, channels: readonly string[]): Promise<Record<string, unknown>>;
}

/**
 * {@link firstChange} on a LangGraph line read through `source`. Checkpoints whose rows do not
 * change the pointer's channel are skipped without rebuilding a state (the timeline says which
 * channels each checkpoint stores); only the pointer's channel is rebuilt at the others.
 *
 * @throws CheckpointValidationError for a bad pointer; CheckpointNotFoundError for an unknown `to`.
 */
export async function lineFirstChange(source: LanggraphLineSource, options: FirstChangeOptions): Promise<FirstChange> {
  const tokens = parsePointer(options.pointer);
  const base = { family: 'langgraph' as const, pointer: options.pointer, walked: 0, rebuilt: 0 };
  const entries = new Map<string, LanggraphTimelineEntry>();
  let cursor: string | undefined;
  do {
    const page = await source.page(cursor);
    for (const e of page.entries) entries.set(e.checkpoint_id, e);
    cursor = page.next_cursor ?? undefined;
  } while (cursor !== undefined);
  const start = options.to ?? [...entries.keys()].sort().pop();
  if (start === undefined || !entries.has(start)) throw new CheckpointNotFoundError(`no LangGraph checkpoint ${String(start)} in thread '${options.threadId}'`);
  const line: LanggraphTimelineEntry[] = [];
  for (let id: string | null = start; id !== null && entries.has(id) && line.length <= entries.size; ) {
    const e = entries.get(id) as LanggraphTimelineEntry;
    line.push(e);
    id = e.parent_checkpoint_id;
  }
  line.reverse();
  // `walked` is the line's length (as docs/cli.md says), also when the search stops early.
  base.walked = line.length;
  const channel = tokens[0];
  const rest = `/${tokens.slice(1).map((t) => t.replace(/~/g, '~0').replace(/\//g, '~1')).join('/')}`;
  const at = async (id: string): Promise<At> => {
    base.rebuilt++;
    const values = await source.channelValues(id, channel === undefined ? (entries.get(id)?.channels ?? []) : [channel]);
    if (channel === undefined) return { found: true, value: values };
    if (!Object.hasOwn(values, channel)) return { found: false };
    return tokens.length === 1 ? { found: true, value: values[channel] } : valueAtPointer(values[channel], rest);
  };
  let before: At = { found: false };
  let beforeId: string | null = null;
  let present = false;
  for (const e of line) {
    // A channel not stored here and present as before holds its parent's value: nothing to rebuild.
    const has = channel === undefined || (e.channels ?? []).includes(channel);
    const touched = channel === undefined || e.status === 'failed' || (e.changed_channels ?? []).includes(channel) || has !== present;
    present = has;
    if (touched) {
      const after = await at(e.checkpoint_id);
      if (!same(before, after)) return hit(base, e.checkpoint_id, beforeId, before, after);
      before = after;
    }
    beforeId = e.checkpoint_id;
  }
  return { ...base, checkpoint_id: null, parent_checkpoint_id: null };
}

/**
 * The first checkpoint on a thread's line (the parent chain from `to`, oldest first) where the
 * value at `pointer` differs from its parent's: "which step made this value what it is". For
 * LangGraph, {@link lineFirstChange} over the store's rows. For sessions the line is the item rows (each
 * state a prefix of the history, read once); for plain checkpoints, the rows oldest first.
 *
 * @throws CheckpointValidationError for a bad pointer; CheckpointNotFoundError for an unknown thread or `to`.
 * @example
 * ```ts
 * const hit = await firstChange(store, { threadId: 't-1', pointer: '/messages/2' });
 * ```
 */
export async function firstChange(store: CheckpointStore, options: FirstChangeOptions): Promise<FirstChange> {
  const tokens = parsePointer(options.pointer);
  const { family, namespace } = await resolveFamily(store, options);
  const base = { family, pointer: options.pointer, walked: 0, rebuilt: 0 };
  const none = (): FirstChange => ({ ...base, checkpoint_id: null, parent_checkpoint_id: null });

  if (family === 'langgraph') {
    const at = { namespace, threadId: options.threadId, checkpointNs: options.checkpointNs ?? '' };
    return lineFirstChange(
      {
        page: (cursor) => langgraphTimeline(store, { ...at, limit: 1000, ...(cursor === undefined ? {} : { cursor }) }),
        channelValues: (checkpointId, channels) => langgraphChannelValues(store, { ...at, checkpointId, channels: [...channels] }),
      },
      options,
    );
  }

  if (family === 'openai-agents') {
    const upTo = options.to === undefined ? undefined : positionOf(options.to);
    const { items, position } = await sessionState(store, { namespace, sessionId: options.threadId, ...(upTo === undefined ? {} : { position: upTo }) });
    base.rebuilt = 1;
    // Rows are appended or trimmed, never edited in place: the state at a position is a prefix of
    // the history. The whole list first differs at the first position; item k first appears (and
    // never changes after) at the k-th position.
    const oldest = position - items.length + 1;
    const first = tokens[0];
    const n = tokens.length === 0 ? 1 : first !== undefined && /^(0|[1-9][0-9]*)$/.test(first) ? Number(first) + 1 : 0;
    base.walked = items.length;
    if (n >= 1 && n <= items.length) {
      const after = valueAtPointer(items.slice(0, n), options.pointer);
      const pos = oldest + n - 1;
      const before: At = n === 1 ? { found: false } : valueAtPointer(items.slice(0, n - 1), options.pointer);
      if (!same(before, after)) return hit(base, String(pos), pos > 1 ? String(pos - 1) : null, before, after);
    }
    return none();
  }

  if (isFrameworkFamily(family)) {
    // The line of parents from `to` (a chat's fork skips the saves of the branch it left), each
    // step's state rebuilt by the package's reader.
    const entries = await frameworkEntries(store, family, namespace, options);
    const start = options.to ?? [...entries.keys()].sort((a, b) => Number(a) - Number(b)).pop();
    if (start === undefined || !entries.has(start)) throw new CheckpointNotFoundError(`no step ${String(start)} in ${family} thread '${options.threadId}'`);
    const line: string[] = [];
    for (let id: string | null = start; id !== null && entries.has(id) && line.length <= entries.size; id = entries.get(id)?.parent_checkpoint_id ?? null) line.push(id);
    line.reverse();
    // `walked` is the whole line, also when the change is found early (docs/cli.md).
    base.walked = line.length;
    let before: At = { found: false };
    let beforeId: string | null = null;
    for (const id of line) {
      base.rebuilt++;
      const after = valueAtPointer(frameworkDocument(await frameworkState(store, family, namespace, { ...options, checkpointId: id })), options.pointer);
      if (!same(before, after)) return hit(base, id, beforeId, before, after);
      before = after;
      beforeId = id;
    }
    return none();
  }

  const ids = await plainIdsOldestFirst(store, namespace, options.threadId);
  const end = options.to === undefined ? ids.length : ids.indexOf(options.to) + 1;
  if (end === 0) throw new CheckpointNotFoundError(`no checkpoint ${String(options.to)} in session '${options.threadId}'`);
  let before: At = { found: false };
  let beforeId: string | null = null;
  base.walked = end;
  for (const id of ids.slice(0, end)) {
    base.rebuilt++;
    const after = valueAtPointer((await plainState(store, namespace, options.threadId, id)).payload, options.pointer);
    if (!same(before, after)) return hit(base, id, beforeId, before, after);
    before = after;
    beforeId = id;
  }
  return none();
}
