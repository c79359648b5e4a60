import { hideInternalChannels, hideInternalOperations } from './internal.js';
import { redact } from './redact.js';
import { storyOf, threadLines } from './story.js';
import type { InspectSource, ThreadRef } from './source.js';
import { FAMILIES, type Family, type PatchOperation, type Timeline, type TimelineEntry } from './types.js';

/*
 * The inspector's JSON API: GET only, every answer built from the readers (source.ts), nothing
 * written. The page (browser/) is its only client; scripts should use the `threads`, `state` and
 * `diff` commands, whose output is the stable contract.
 */

/** An answer of the API. */
export interface ApiResponse {
  status: number;
  body: string;
  type: string;
  headers?: Record<string, string>;
}

/** A request the API refuses with 400. */
class BadRequest extends Error {}

const JSON_TYPE = 'application/json; charset=utf-8';
/** Timeline page size when the page does not ask for one, and the most it may ask for. */
const DEFAULT_PAGE = 100;
const MAX_PAGE = 500;
/** Steps looked at per request when filtering by a changed path (the page asks again for more). */
const FILTER_SCAN = 200;
/** Timeline steps put in a debug bundle. */
const BUNDLE_STEPS = 500;

function json(value: unknown, status = 200, headers?: Record<string, string>): ApiResponse {
  return { status, body: JSON.stringify(value), type: JSON_TYPE, ...(headers ? { headers } : {}) };
}

function required(params: URLSearchParams, name: string): string {
  const value = params.get(name);
  if (value === null || value === '') throw new BadRequest(`the query parameter "${name}" is required`);
  return value;
}

function threadRef(params: URLSearchParams): ThreadRef {
  const family = required(params, 'family');
  if (!(FAMILIES as readonly string[]).includes(family)) throw new BadRequest(`family must be one of ${FAMILIES.join(', ')}`);
  const ns = params.get('checkpoint_ns');
  return { family: family as Family, threadId: required(params, 'thread'), namespace: required(params, 'namespace'), ...(ns === null ? {} : { checkpointNs: ns }) };
}

function pageSize(params: URLSearchParams): number {
  const raw = params.get('limit');
  if (raw === null) return DEFAULT_PAGE;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1 || n > MAX_PAGE) throw new BadRequest(`limit must be an integer from 1 to ${MAX_PAGE}`);
  return n;
}

/**
 * Whether a patch operation touches the value at `pointer`: the operation's path is the pointer,
 * lies below it, or is above it (replacing a parent replaces the value too).
 *
 * @example
 * ```ts
 * touches({ op: 'add', path: '/messages/3', value: {} }, '/messages'); // true
 * ```
 */
export function touches(operation: PatchOperation, pointer: string): boolean {
  if (pointer === '' || pointer === '/') return true;
  const paths = [operation.path, ...(operation.from === undefined ? [] : [operation.from])];
  return paths.some((path) => path === pointer || path.startsWith(`${pointer}/`) || pointer.startsWith(`${path}/`) || path === '');
}

/** The channel a pointer starts in (`/messages/3` is in `messages`). */
function firstSegment(pointer: string): string {
  return (pointer.split('/')[1] ?? '').replace(/~1/g, '/').replace(/~0/g, '~');
}

/**
 * Steps of the timeline whose change from their parent touches `pointer`, looking at up to
 * FILTER_SCAN steps per request (the page asks again with `next_cursor`). A LangGraph step whose
 * `changed_channels` do not include the pointer's channel is passed over without a diff. A step
 * that failed verification is always kept (marked failed), and so is a step whose change cannot be
 * computed (its parent failed): a filter must not hide a failure.
 */
async function changedTimeline(source: InspectSource, ref: ThreadRef, pointer: string, cursor: string | undefined, limit: number): Promise<unknown> {
  if (!pointer.startsWith('/')) throw new BadRequest('the changed path is a JSON pointer starting with "/" (for example /messages)');
  const channel = ref.family === 'langgraph' ? firstSegment(pointer) : undefined;
  const matched: (TimelineEntry & { changes: PatchOperation[]; change_error?: string })[] = [];
  let next: string | null = cursor ?? null;
  let scanned = 0;
  let page: Timeline | undefined;
  do {
    page = await source.timeline(ref, { cursor: next ?? undefined, limit: Math.min(MAX_PAGE, FILTER_SCAN - scanned) });
    for (const entry of page.entries) {
      scanned++;
      if (entry.status === 'failed') {
        matched.push({ ...entry, changes: [] });
        continue;
      }
      const channels = (entry as { changed_channels?: string[] }).changed_channels;
      if (channel !== undefined && channels !== undefined && !channels.includes(channel)) continue;
      let patch: readonly PatchOperation[];
      try {
        patch = await source.change(ref, entry);
      } catch (error) {
        // Its parent failed verification (or vanished): the change is unknown, so the step stays,
        // with the reason, rather than being filtered out as "unchanged".
        matched.push({ ...entry, changes: [], change_error: error instanceof Error ? `${error.name}: ${error.message}` : String(error) });
        continue;
      }
      const changes = patch.filter((operation) => touches(operation, pointer));
      if (changes.length > 0) matched.push({ ...entry, changes });
    }
    next = page.next_cursor;
  } while (next !== null && matched.length < limit && scanned < FILTER_SCAN);
  return { ...page, entries: matched, next_cursor: next, scanned, filter: pointer };
}

/** A redacted debug bundle of a thread: its timeline, and the state, writes and change of one step. */
async function debugBundle(source: InspectSource, ref: ThreadRef, params: URLSearchParams): Promise<ApiResponse> {
  const split = (name: string) => (params.get(name) ?? '').split(',').map((s) => s.trim()).filter((s) => s !== '');
  const rules = { redact: split('redact'), keep: split('keep') };
  const steps: TimelineEntry[] = [];
  let cursor: string | null = null;
  do {
    const page: Timeline = await source.timeline(ref, { cursor: cursor ?? undefined, limit: Math.min(MAX_PAGE, BUNDLE_STEPS - steps.length) });
    steps.push(...page.entries);
    cursor = page.next_cursor;
  } while (cursor !== null && steps.length < BUNDLE_STEPS);
  const id = params.get('checkpoint') ?? steps.find((step) => step.status !== 'failed')?.checkpoint_id;
  const chosen = steps.find((step) => step.checkpoint_id === id);
  const settle = async <T>(work: () => Promise<T>): Promise<T | { error: string }> => {
    try {
      return await work();
    } catch (error) {
      return { error: error instanceof Error ? `${error.name}: ${error.message}` : String(error) };
    }
  };
  const selected =
    id === undefined
      ? null
      : {
          id,
          state: await settle(() => source.state(ref, id)),
          writes: await settle(() => source.writes(ref, id)),
          change_from_parent: chosen === undefined ? null : await settle(() => source.change(ref, chosen)),
        };
  const bundle = {
    format: 'session-checkpoint-inspect-debug-bundle',
    version: 1,
    created_at: new Date().toISOString(),
    redaction: {
      note: 'message contents, prompts, tool arguments and outputs, secret-looking fields, e-mail addresses and phone-like numbers are masked; keys, ids, types, channels, sizes and verification results are kept',
      extra_rules: rules,
    },
    thread: { family: ref.family, thread_id: ref.threadId, namespace: ref.namespace, checkpoint_ns: ref.checkpointNs ?? '' },
    steps_included: steps.length,
    timeline: redact(steps, rules),
    selected: redact(selected, rules),
  };
  const name = `session-checkpoint-debug-${`${ref.threadId}-${id ?? 'latest'}`.replace(/[^\w.-]+/g, '_').slice(0, 80)}.json`;
  return { status: 200, body: `${JSON.stringify(bundle, null, 2)}\n`, type: JSON_TYPE, headers: { 'Content-Disposition': `attachment; filename="${name}"` } };
}

/**
 * Answers one API request (`/api/...`). Failures are JSON too: 400 for a bad request, 404 for an
 * unknown endpoint, 500 with the error's class and message (never a stack) otherwise; a row that
 * fails verification comes back as an error naming it, the page shows it.
 *
 * @example
 * ```ts
 * const response = await answerApi(new URL('http://127.0.0.1:1/api/threads'), source);
 * ```
 */
export async function answerApi(url: URL, source: InspectSource): Promise<ApiResponse> {
  const params = url.searchParams;
  try {
    switch (url.pathname) {
      case '/api/threads':
        return json({ threads: await source.threads() });
      case '/api/timeline': {
        const ref = threadRef(params);
        const cursor = params.get('cursor') ?? undefined;
        const changed = params.get('changed');
        if (changed !== null && changed !== '') return json(await changedTimeline(source, ref, changed, cursor, pageSize(params)));
        return json(await source.timeline(ref, { cursor, limit: pageSize(params) }));
      }
      case '/api/story': {
        // The story of a timeline page (nodes, messages added, interrupts), asked for after the
        // page is drawn: it rebuilds a state per step, the timeline itself never does. Children
        // are counted over the whole thread (rows only): a step's children may sit on a newer
        // page, and counting this page alone would show a resumed interrupt as still waiting.
        const ref = threadRef(params);
        const page = await source.timeline(ref, { cursor: params.get('cursor') ?? undefined, limit: pageSize(params) });
        const lines = await threadLines(source, ref);
        const stories = await storyOf(source, ref, page.entries, (id) => lines.children.get(id)?.length ?? 0);
        return json({ stories: Object.fromEntries(page.entries.map((entry, i) => [entry.checkpoint_id, stories[i]])) });
      }
      case '/api/state': {
        const state = await source.state(threadRef(params), params.get('checkpoint') ?? undefined);
        return json(params.get('internal') === '1' ? state : hideInternalChannels(state));
      }
      case '/api/writes':
        return json({ writes: await source.writes(threadRef(params), required(params, 'checkpoint')) });
      case '/api/diff': {
        const ref = threadRef(params);
        const patch = await source.diff(ref, required(params, 'from'), required(params, 'to'));
        if (params.get('internal') === '1' || ref.family !== 'langgraph') return json({ patch });
        const shown = hideInternalOperations(patch);
        return json({ patch: shown.patch, internal_hidden: shown.hidden });
      }
      case '/api/stats':
        if (!source.stats) return json({ ok: false, error: 'this store gives no sizes', type: 'NotFound' }, 404);
        return json(await source.stats());
      case '/api/bundle':
        return await debugBundle(source, threadRef(params), params);
      default:
        return json({ ok: false, error: `no such endpoint: ${url.pathname}`, type: 'NotFound' }, 404);
    }
  } catch (error) {
    if (error instanceof BadRequest) return json({ ok: false, error: error.message, type: 'BadRequest' }, 400);
    const e = error instanceof Error ? error : new Error(String(error));
    return json({ ok: false, error: e.message, type: e.name }, 500);
  }
}
