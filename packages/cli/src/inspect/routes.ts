import { redact } from './redact.js';
import type { InspectSource, PatchOperation, ThreadRef, TimelineEntry } from './source.js';

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
  const ns = params.get('checkpoint_ns');
  return { family: required(params, 'family'), thread: required(params, 'thread'), namespace: required(params, 'namespace'), ...(ns === null ? {} : { checkpointNs: ns }) };
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

/** Steps of the timeline whose change from their parent touches `pointer`, looking at up to FILTER_SCAN steps. */
async function changedTimeline(source: InspectSource, ref: ThreadRef, pointer: string, before: string | undefined, limit: number): Promise<unknown> {
  if (!pointer.startsWith('/')) throw new BadRequest('the changed path is a JSON pointer starting with "/" (for example /messages)');
  const matched: (TimelineEntry & { changes: PatchOperation[] })[] = [];
  let cursor = before;
  let scanned = 0;
  let total: number | undefined;
  while (matched.length < limit && scanned < FILTER_SCAN) {
    const page = await source.timeline(ref, { before: cursor, limit: Math.min(limit, FILTER_SCAN - scanned) });
    total = page.total;
    for (const entry of page.entries) {
      scanned++;
      // A step that failed verification has no state to compare; it is kept, marked, never hidden.
      if (!entry.verified) {
        matched.push({ ...entry, changes: [] });
        continue;
      }
      const patch = entry.parent === null ? await firstPatch(source, ref, entry.id) : await source.diff(ref, entry.parent, entry.id).catch(() => null);
      const changes = patch === null ? [] : patch.filter((operation) => touches(operation, pointer));
      if (patch === null || changes.length > 0) matched.push({ ...entry, changes });
    }
    cursor = page.next ?? undefined;
    if (page.next === null) break;
  }
  return { entries: matched, next: cursor ?? null, scanned, ...(total === undefined ? {} : { total }) };
}

/** The first step's change: everything it holds, as adds to an empty state. */
async function firstPatch(source: InspectSource, ref: ThreadRef, id: string): Promise<PatchOperation[]> {
  const state = await source.state(ref, id);
  const values = (state.values ?? state.items ?? state.payload ?? {}) as Record<string, unknown>;
  return Array.isArray(values) ? values.map((value, i) => ({ op: 'add', path: `/${i}`, value })) : Object.entries(values).map(([key, value]) => ({ op: 'add', path: `/${key.replace(/~/g, '~0').replace(/\//g, '~1')}`, value }));
}

/** A redacted debug bundle of a thread: its timeline, and the state, writes and change of one step. */
async function debugBundle(source: InspectSource, ref: ThreadRef, params: URLSearchParams): Promise<ApiResponse> {
  const split = (name: string) => (params.get(name) ?? '').split(',').map((s) => s.trim()).filter((s) => s !== '');
  const rules = { redact: split('redact'), keep: split('keep') };
  const steps: TimelineEntry[] = [];
  let cursor: string | undefined;
  while (steps.length < BUNDLE_STEPS) {
    const page = await source.timeline(ref, { before: cursor, limit: Math.min(MAX_PAGE, BUNDLE_STEPS - steps.length) });
    steps.push(...page.entries);
    if (page.next === null) break;
    cursor = page.next;
  }
  const id = params.get('checkpoint') ?? steps.find((step) => step.verified)?.id;
  const chosen = steps.find((step) => step.id === id);
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
          change_from_parent: chosen?.parent ? await settle(() => source.diff(ref, chosen.parent!, id)) : null,
        };
  const bundle = {
    format: 'session-checkpoint-inspect-debug-bundle',
    version: 1,
    created_at: new Date().toISOString(),
    redaction: {
      note: 'message contents, prompts, tool arguments and outputs, secret-looking fields, e-mail addresses and phone-like numbers are masked; keys, ids, types, channels, sizes and verification results are kept',
      extra_rules: rules,
    },
    thread: { family: ref.family, thread: ref.thread, namespace: ref.namespace, checkpoint_ns: ref.checkpointNs ?? null },
    steps_included: steps.length,
    timeline: redact(steps, rules),
    selected: redact(selected, rules),
  };
  const name = `session-checkpoint-debug-${`${ref.thread}-${id ?? 'latest'}`.replace(/[^\w.-]+/g, '_').slice(0, 80)}.json`;
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
        const before = params.get('before') ?? undefined;
        const changed = params.get('changed');
        if (changed !== null && changed !== '') return json(await changedTimeline(source, ref, changed, before, pageSize(params)));
        return json(await source.timeline(ref, { before, limit: pageSize(params) }));
      }
      case '/api/state':
        return json(await source.state(threadRef(params), params.get('checkpoint') ?? undefined));
      case '/api/writes':
        return json({ writes: await source.writes(threadRef(params), required(params, 'checkpoint')) });
      case '/api/diff':
        return json({ patch: await source.diff(threadRef(params), required(params, 'from'), required(params, 'to')) });
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
