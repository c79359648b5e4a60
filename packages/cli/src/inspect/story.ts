import { CheckpointNotFoundError, CheckpointValidationError } from '@session-checkpoint/core';
import { isInternalChannel } from './internal.js';
import type { InspectSource, ThreadRef } from './source.js';
import type { State, TimelineEntry } from './types.js';

/*
 * A thread's timeline told as a story: for each checkpoint its step, the node(s) that ran, the
 * messages it added (role and a short text) and whether it waits on an interrupt, and for the
 * whole thread which checkpoints lie on which line. Built only from what an `InspectSource`
 * answers (timeline pages and states), so any source (our store, an official saver's) serves it.
 */

/** Longest text of a message preview, in characters. */
export const PREVIEW_CHARS = 80;
/** Timeline entries read per request while collecting a whole thread. */
const SCAN_PAGE = 500;

/** A message as a person reads it: who spoke, and the start of what was said. */
export interface MessagePreview {
  /** `human`, `ai`, `system`, `tool` (LangChain), `user`, `assistant` (role-style messages), or an item type. */
  role: string;
  /** The text, whitespace collapsed, cut at {@link PREVIEW_CHARS} characters with `…`. */
  text: string;
}

/** Whether a step waits on an interrupt (LangGraph `interrupt()`), and what it asked. */
export interface InterruptMark {
  /** `true` when nothing ran after it: the thread waits here for a resume. */
  waiting: boolean;
  /** The interrupt values, previewed as text. */
  values: string[];
}

/** What {@link storyOf} adds to a timeline entry. */
export interface StoryFields {
  /** LangGraph `metadata.step`; a session's position; a plain checkpoint's place (1 = oldest). `null` when unknown (a failed row). */
  step: number | null;
  /** LangGraph `metadata.source` (`input`, `loop`, `update`, `fork`); `null` elsewhere. */
  source: string | null;
  /** The nodes that ran to make this checkpoint (their `versions_seen` moved since the parent). */
  nodes: string[];
  /** Messages (or session items) this step added, previewed. */
  messages_added: MessagePreview[];
  /** Set when the step holds pending interrupt writes. */
  interrupt: InterruptMark | null;
  /** Why the story could not be told for this step (its state could not be read), else absent. */
  story_error?: string;
}

const record = (v: unknown): Record<string, unknown> | undefined => (v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined);

function cut(text: string): string {
  const flat = text.replace(/\s+/gu, ' ').trim();
  return flat.length > PREVIEW_CHARS ? `${flat.slice(0, PREVIEW_CHARS - 1)}…` : flat;
}

/** The text of a message content: a string, or the text parts of a content array. */
function contentText(content: unknown): string | undefined {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return undefined;
  const parts = content.map((part) => (typeof part === 'string' ? part : typeof record(part)?.text === 'string' ? (record(part)!.text as string) : '')).filter((t) => t !== '');
  return parts.join(' ');
}

const LC_ROLES: Record<string, string> = { HumanMessage: 'human', AIMessage: 'ai', SystemMessage: 'system', ToolMessage: 'tool', FunctionMessage: 'function', ChatMessage: 'chat', RemoveMessage: 'remove' };

/**
 * A message as role and text, from LangChain's serialised form (`{lc, type: "constructor", id,
 * kwargs}`), a role-style message (`{role, content}`), a `{type, content}` message, or an OpenAI
 * Agents item (function calls as `name(arguments)`); `null` for anything else.
 *
 * @example
 * ```ts
 * messagePreview({ lc: 1, type: 'constructor', id: ['langchain_core', 'messages', 'HumanMessage'], kwargs: { content: 'hi' } });
 * // { role: 'human', text: 'hi' }
 * ```
 */
export function messagePreview(message: unknown): MessagePreview | null {
  const m = record(message);
  if (m === undefined) return null;
  if (m.lc !== undefined && m.type === 'constructor' && Array.isArray(m.id)) {
    const cls = String(m.id[m.id.length - 1] ?? '').replace(/Chunk$/u, '');
    const kwargs = record(m.kwargs) ?? {};
    let text = contentText(kwargs.content) ?? '';
    const calls = Array.isArray(kwargs.tool_calls) ? kwargs.tool_calls.map((c) => record(c)).filter((c) => c !== undefined) : [];
    if (text.trim() === '' && calls.length > 0) text = calls.map((c) => `${String(c.name)}(${JSON.stringify(c.args ?? {})})`).join(' ');
    return { role: LC_ROLES[cls] ?? cls, text: cut(text) };
  }
  if (typeof m.role === 'string') return { role: m.role, text: cut(contentText(m.content) ?? '') };
  if (typeof m.type === 'string' && (typeof m.name === 'string' || m.output !== undefined)) {
    const text = m.arguments !== undefined ? `${String(m.name)}(${String(m.arguments)})` : JSON.stringify(m.output ?? '');
    return { role: m.type, text: cut(text) };
  }
  if (typeof m.type === 'string' && m.content !== undefined) return { role: m.type, text: cut(contentText(m.content) ?? '') };
  return null;
}

/** Whether every item of an array previews as a message (and there is one). */
function messageList(value: unknown): value is unknown[] {
  return Array.isArray(value) && value.length > 0 && value.every((item) => messagePreview(item) !== null);
}

/** The items of `after` that `before` does not hold (as JSON, counted), in order. */
function added(before: unknown, after: unknown[]): unknown[] {
  const seen = new Map<string, number>();
  for (const item of Array.isArray(before) ? before : []) {
    const key = JSON.stringify(item);
    seen.set(key, (seen.get(key) ?? 0) + 1);
  }
  return after.filter((item) => {
    const key = JSON.stringify(item);
    const left = seen.get(key) ?? 0;
    if (left === 0) return true;
    seen.set(key, left - 1);
    return false;
  });
}

function versionsSeen(state: State | undefined): Record<string, unknown> {
  if (state?.family !== 'langgraph') return {};
  return record(state.checkpoint.versions_seen) ?? {};
}

/** A step's own number as the readers give it (LangGraph metadata, session position); `null` otherwise. */
export function ownStep(entry: TimelineEntry): number | null {
  const metadata = record((entry as { metadata?: unknown }).metadata);
  if (typeof metadata?.step === 'number') return metadata.step;
  if (typeof (entry as { position?: unknown }).position === 'number') return (entry as { position: number }).position;
  return null;
}

/**
 * The story fields of each entry of a timeline page: nodes, messages added and interrupts (one
 * state read per entry and one for the parent of the page's oldest, read once each). A step whose
 * state cannot be read keeps its entry, with `story_error`. `childrenOf` says which entries
 * something was made from (for `waiting`); `steps` numbers plain checkpoints.
 *
 * @example
 * ```ts
 * const stories = await storyOf(source, ref, page.entries, (id) => line.children.get(id)?.length ?? 0);
 * ```
 */
export async function storyOf(source: InspectSource, ref: ThreadRef, entries: readonly TimelineEntry[], childCount: (id: string) => number, steps?: ReadonlyMap<string, number>): Promise<StoryFields[]> {
  const states = new Map<string, Promise<State>>();
  const stateAt = (id: string): Promise<State> => {
    let hit = states.get(id);
    if (hit === undefined) {
      hit = source.state(ref, id);
      hit.catch(() => undefined);
      states.set(id, hit);
    }
    return hit;
  };
  const out: StoryFields[] = [];
  for (const entry of entries) {
    const metadata = record((entry as { metadata?: unknown }).metadata);
    const fields: StoryFields = {
      step: steps?.get(entry.checkpoint_id) ?? ownStep(entry),
      source: typeof metadata?.source === 'string' ? metadata.source : null,
      nodes: [],
      messages_added: [],
      interrupt: null,
    };
    out.push(fields);
    // A failed row has no state to read; an unverified one (an official saver's store) does.
    if (entry.status === 'failed' || ref.family === 'checkpoints') continue;
    try {
      const state = await stateAt(entry.checkpoint_id);
      if (state.family === 'openai-agents') {
        const count = (entry as { items?: number }).items ?? 1;
        fields.messages_added = state.items.slice(-count).map((item) => messagePreview(item) ?? { role: 'item', text: cut(JSON.stringify(item)) });
        continue;
      }
      if (state.family !== 'langgraph') continue;
      const parent = entry.parent_checkpoint_id === null ? undefined : await stateAt(entry.parent_checkpoint_id);
      const before = versionsSeen(parent);
      const now = versionsSeen(state);
      fields.nodes = Object.keys(now)
        .filter((node) => JSON.stringify(now[node]) !== JSON.stringify(before[node]))
        .filter((node) => node === '__start__' || !node.startsWith('__'))
        .sort();
      for (const [channel, value] of Object.entries(state.values)) {
        if (isInternalChannel(channel) || !Array.isArray(value)) continue;
        const fresh = added(parent?.family === 'langgraph' ? parent.values[channel] : undefined, value);
        if (messageList(fresh)) fields.messages_added.push(...fresh.map((m) => messagePreview(m)!));
      }
      const interrupts = state.pending_writes.filter(([, channel]) => channel === '__interrupt__');
      if (interrupts.length > 0) {
        fields.interrupt = {
          waiting: childCount(entry.checkpoint_id) === 0,
          values: interrupts.flatMap(([, , value]) => (Array.isArray(value) ? value : [value])).map((v) => cut(typeof record(v)?.value === 'string' ? (record(v)!.value as string) : JSON.stringify(record(v)?.value ?? v))),
        };
      }
    } catch (error) {
      fields.story_error = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
    }
  }
  return out;
}

/** Every checkpoint of a thread and how they hang together. */
export interface ThreadLines {
  /** Every entry, newest first (as timelines list them). */
  entries: TimelineEntry[];
  /** Children of each checkpoint id, oldest first. */
  children: Map<string, string[]>;
  /** Ids on the line that ends at the latest checkpoint: the line `--step` counts on. */
  latestLine: Set<string>;
  /** Ids on the main line as the viewer draws it: from the oldest checkpoint, at each fork the child made first. */
  mainLine: Set<string>;
  /** Each checkpoint's step number (see {@link StoryFields.step}). */
  steps: Map<string, number>;
}

/** Orders ids as they were made: numerically for positions and row ids, else as text (LangGraph ids sort by time). */
function byAge(a: string, b: string): number {
  return /^\d+$/u.test(a) && /^\d+$/u.test(b) ? Number(a) - Number(b) : a < b ? -1 : a > b ? 1 : 0;
}

/**
 * Reads a whole thread's timeline (rows only, no state rebuilt) and works out its lines: which
 * checkpoints lie on the line ending at the latest one, which on the main line (the original:
 * at each fork the child made first), the children of each, and every step number.
 *
 * @example
 * ```ts
 * const lines = await threadLines(source, ref);
 * lines.latestLine.has(id);
 * ```
 */
export async function threadLines(source: InspectSource, ref: ThreadRef): Promise<ThreadLines> {
  const entries: TimelineEntry[] = [];
  let cursor: string | undefined;
  do {
    const page = await source.timeline(ref, { cursor, limit: SCAN_PAGE });
    entries.push(...page.entries);
    cursor = page.next_cursor ?? undefined;
  } while (cursor !== undefined);
  const byId = new Map(entries.map((e) => [e.checkpoint_id, e]));
  const children = new Map<string, string[]>();
  for (const e of entries) if (e.parent_checkpoint_id !== null) children.set(e.parent_checkpoint_id, [...(children.get(e.parent_checkpoint_id) ?? []), e.checkpoint_id]);
  for (const list of children.values()) list.sort(byAge);
  const latestLine = new Set<string>();
  for (let at = entries[0]; at !== undefined && !latestLine.has(at.checkpoint_id); at = at.parent_checkpoint_id === null ? undefined : byId.get(at.parent_checkpoint_id)) latestLine.add(at.checkpoint_id);
  const mainLine = new Set<string>();
  const root = [...entries].reverse().find((e) => e.parent_checkpoint_id === null || !byId.has(e.parent_checkpoint_id));
  for (let id = root?.checkpoint_id; id !== undefined && !mainLine.has(id); id = children.get(id)?.[0]) mainLine.add(id);
  const steps = new Map<string, number>();
  entries.forEach((e, index) => {
    const own = ownStep(e);
    if (own !== null) steps.set(e.checkpoint_id, own);
    else if (ref.family === 'checkpoints') steps.set(e.checkpoint_id, entries.length - index);
  });
  return { entries, children, latestLine, mainLine, steps };
}

/**
 * The checkpoint id of step `step` on the line that ends at the thread's latest checkpoint (the
 * line `state` and `invoke` continue from; a fork's other line is reached by its checkpoint ids).
 *
 * @throws CheckpointNotFoundError when no checkpoint of that line has that step (the message gives the line's range).
 * @example
 * ```ts
 * const id = await checkpointAtStep(source, ref, 3);
 * ```
 */
export async function checkpointAtStep(source: InspectSource, ref: ThreadRef, step: number, lines?: ThreadLines): Promise<string> {
  if (!Number.isSafeInteger(step)) throw new CheckpointValidationError(`a step is an integer, not ${String(step)}`);
  const known = lines ?? (await threadLines(source, ref));
  const onLine = known.entries.filter((e) => known.latestLine.has(e.checkpoint_id));
  const hit = onLine.find((e) => known.steps.get(e.checkpoint_id) === step);
  if (hit !== undefined) return hit.checkpoint_id;
  const numbers = onLine.map((e) => known.steps.get(e.checkpoint_id)).filter((n): n is number => n !== undefined);
  const range = numbers.length === 0 ? 'it has no numbered steps' : `its steps run from ${Math.min(...numbers)} to ${Math.max(...numbers)}`;
  throw new CheckpointNotFoundError(`no step ${step} on the line of the latest checkpoint of '${ref.threadId}': ${range}`);
}

/** One checkpoint of {@link storyTimeline}. */
export interface StoryEntry extends StoryFields {
  checkpoint_id: string;
  parent_checkpoint_id: string | null;
  created_at: string;
  /** LangGraph's checkpoint time, when known. */
  ts?: string;
  /** `unverified`: a row of an official saver's store, which carries no hash. */
  status: 'verified' | 'failed' | 'unverified';
  error?: { code: string; message: string };
  /** The checkpoint `state` and `invoke` continue from. */
  latest: boolean;
  /** On the line that ends at the latest checkpoint: where `--step` numbers count. */
  on_latest_line: boolean;
  /** On the main line as the viewer draws it (the original line: at each fork, the child made first). */
  main_line: boolean;
  /** Checkpoints made from this one; more than one makes it a fork point. */
  children: number;
  fork_point: boolean;
  /** Channels this checkpoint changed, internal ones left out (LangGraph). */
  changed_channels?: string[];
  bytes: number;
}

/** The result of {@link storyTimeline}. */
export interface StoryTimeline {
  family: ThreadRef['family'];
  namespace: string;
  thread_id: string;
  checkpoint_ns: string;
  /** Checkpoints in the thread (all lines). */
  count: number;
  latest_checkpoint_id: string | null;
  /** The latest checkpoint waits on an interrupt. */
  waiting_on_interrupt: boolean;
  /** A page, newest first. */
  entries: StoryEntry[];
  /** Pass as `--cursor` for the next (older) page; `null` on the last page. */
  next_cursor: string | null;
}

const CURSOR_PREFIX = 'story:';

function readCursor(cursor: string): string {
  const text = Buffer.from(cursor, 'base64url').toString('utf8');
  if (!text.startsWith(CURSOR_PREFIX) || Buffer.from(text, 'utf8').toString('base64url') !== cursor) throw new CheckpointValidationError(`not a timeline cursor: ${JSON.stringify(cursor)}`);
  return text.slice(CURSOR_PREFIX.length);
}

/**
 * A page of a thread's story, newest first: each checkpoint with its step, source, node(s) that
 * ran, time, parent, fork marks, interrupt marks and the messages it added. The thread's rows are
 * read once to place every checkpoint on its lines; states are rebuilt only for the page.
 *
 * @throws CheckpointValidationError for a bad `limit` or `cursor`; CheckpointNotFoundError for a thread with no checkpoint.
 * @example
 * ```ts
 * const first = await storyTimeline(source, ref, { limit: 20 });
 * const older = await storyTimeline(source, ref, { limit: 20, cursor: first.next_cursor! });
 * ```
 */
export async function storyTimeline(source: InspectSource, ref: ThreadRef, page: { cursor?: string | undefined; limit: number }): Promise<StoryTimeline> {
  if (!Number.isSafeInteger(page.limit) || page.limit < 1 || page.limit > 500) throw new CheckpointValidationError('limit must be an integer from 1 to 500');
  const after = page.cursor === undefined ? undefined : readCursor(page.cursor);
  const lines = await threadLines(source, ref);
  if (lines.entries.length === 0) throw new CheckpointNotFoundError(`no checkpoints in thread '${ref.threadId}'`);
  const start = after === undefined ? 0 : lines.entries.findIndex((e) => e.checkpoint_id === after) + 1;
  if (start === 0 && after !== undefined) throw new CheckpointValidationError(`the cursor names a checkpoint this thread no longer has: ${after}`);
  const slice = lines.entries.slice(start, start + page.limit);
  const count = (id: string) => lines.children.get(id)?.length ?? 0;
  const stories = await storyOf(source, ref, slice, count, lines.steps);
  const latest = lines.entries[0]!.checkpoint_id;
  const entries = slice.map((e, i): StoryEntry => {
    const extra = e as { ts?: string; changed_channels?: string[] };
    return {
      checkpoint_id: e.checkpoint_id,
      parent_checkpoint_id: e.parent_checkpoint_id,
      ...stories[i]!,
      created_at: e.created_at,
      ...(extra.ts === undefined ? {} : { ts: extra.ts }),
      status: e.status,
      ...(e.error === undefined ? {} : { error: e.error }),
      latest: e.checkpoint_id === latest,
      on_latest_line: lines.latestLine.has(e.checkpoint_id),
      main_line: lines.mainLine.has(e.checkpoint_id),
      children: count(e.checkpoint_id),
      fork_point: count(e.checkpoint_id) > 1,
      ...(extra.changed_channels === undefined ? {} : { changed_channels: extra.changed_channels.filter((c) => !isInternalChannel(c)) }),
      bytes: e.bytes,
    };
  });
  const head = start === 0 ? entries[0] : (await storyOf(source, ref, [lines.entries[0]!], count, lines.steps))[0];
  const end = start + slice.length;
  return {
    family: ref.family,
    namespace: ref.namespace,
    thread_id: ref.threadId,
    checkpoint_ns: ref.checkpointNs ?? '',
    count: lines.entries.length,
    latest_checkpoint_id: latest,
    waiting_on_interrupt: head?.interrupt?.waiting === true,
    entries,
    next_cursor: end < lines.entries.length ? Buffer.from(`${CURSOR_PREFIX}${slice[slice.length - 1]!.checkpoint_id}`, 'utf8').toString('base64url') : null,
  };
}
