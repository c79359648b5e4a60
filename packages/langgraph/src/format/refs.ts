import { CheckpointValidationError, sha256Hex } from '@session-checkpoint/core';

/*
 * Every row's source ref says where it belongs, so that each lookup is one exact match or one
 * prefix range of the store's (namespace, source_ref) index: `lg/<thread>/<ns>/<checkpoint_id>` a
 * checkpoint, `.../<task_id>` its writes from one task, which sort right after it. Thread,
 * namespace and task parts are escaped ("%" "/" "~") or, when too long, hashed. The id part must
 * also sort like the ids in MemorySaver's order (UTF-16 units) while the store compares by code
 * point, so it is encoded order-preserving and refused when too long (docs/langgraph.md).
 */

/** Longest escaped part kept readable, per part; the sum stays within the 256-character cap. */
const MAX_PART = { thread: 80, ns: 60, task: 40 } as const;
/** Longest source ref the store takes, in code points. */
const MAX_REF = 256;
/** What the longest ref built on a checkpoint's ref (a write part's) adds to it, at most. */
const WRITE_SUFFIX = 1 + (1 + MAX_PART.task) + (1 + 6);

function part(value: unknown, max: number, field: string): string {
  if (typeof value !== 'string') throw new CheckpointValidationError(`${field} must be a string`);
  const escaped = /[%/~]/.test(value) ? value.replace(/%/g, '%25').replace(/\//g, '%2F').replace(/~/g, '%7E') : value;
  return escaped.length <= max ? escaped : `~${sha256Hex(value).slice(0, 32)}`;
}

/** The highest code point: after an escape's lead character it sorts above anything that follows a plain one. */
const HIGH = '\u{10FFFF}';
/** Ids made only of these characters are their own encoding (every uuid6 id is). */
const PLAIN_ID = /^[\u0020-\u0024\u0026-\u002e\u0030-\ud7ff]*$/;

/**
 * The encoding of one id character that cannot stand for itself ("/", "%", U+E000..U+FFFF which
 * JavaScript orders above astral characters, U+10FFFF), or `undefined`: the plain character just
 * below it, U+10FFFF (which no encoding starts with), and a tag, so it sorts right above its lead.
 */
function escapeIdChar(cp: number, field: string): string | undefined {
  if (cp === 0x25) return `$${HIGH}25`;
  if (cp === 0x2f) return `.${HIGH}2F`;
  if (cp === 0x10ffff) return `\u{10FFFE}${HIGH}0`;
  if (cp >= 0xe000 && cp <= 0xffff) return `\u{10FFFE}${HIGH}${String.fromCharCode(cp)}`;
  if (cp < 0x20) throw new CheckpointValidationError(`LangGraph ${field} must not contain control characters (U+0000 to U+001F)`);
  if (cp >= 0xd800 && cp <= 0xdfff) throw new CheckpointValidationError(`LangGraph ${field} must not contain lone surrogates`);
  return undefined;
}

/**
 * Encodes a checkpoint id so that the store's code point order of the encodings is JavaScript's
 * order of the ids (`a < b` exactly when `encode(a) < encode(b)`, and a prefix stays a prefix).
 * Most characters stand for themselves; see {@link escapeIdChar} for the rest.
 */
export function encodeCheckpointId(id: string, field = 'checkpoint_id'): string {
  if (PLAIN_ID.test(id)) return id;
  let out = '';
  for (const ch of id) {
    const cp = ch.codePointAt(0) ?? 0;
    out += escapeIdChar(cp, field) ?? ch;
  }
  return out;
}

/** Code points of a string: UTF-16 units less the second unit of each pair. */
function codePoints(text: string): number {
  let n = text.length;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c >= 0xdc00 && c <= 0xdfff) n--;
  }
  return n;
}

/** Prefix of every row: of the whole namespace, of one thread, or of one (thread, checkpoint_ns). */
export function checkpointPrefix(threadId?: string, checkpointNs?: string): string {
  if (threadId === undefined) return 'lg/';
  const thread = part(threadId, MAX_PART.thread, 'thread_id');
  return checkpointNs === undefined ? `lg/${thread}/` : `lg/${thread}/${part(checkpointNs, MAX_PART.ns, 'checkpoint_ns')}/`;
}

/**
 * The ref of one checkpoint; its writes' refs continue it with "/<task_id>".
 *
 * @throws CheckpointValidationError when the id is not a string, holds control characters or
 *   lone surrogates, or is too long to be encoded whole (its order would be lost).
 */
export function checkpointRef(threadId: string, checkpointNs: string, checkpointId: string): string {
  const prefix = checkpointPrefix(threadId, checkpointNs);
  if (typeof checkpointId !== 'string') throw new CheckpointValidationError('checkpoint_id must be a string');
  const id = encodeCheckpointId(checkpointId);
  // UTF-16 length bounds code points from above: count only when it matters.
  if (prefix.length + id.length + WRITE_SUFFIX > MAX_REF) {
    const room = MAX_REF - WRITE_SUFFIX - codePoints(prefix);
    if (codePoints(id) > room) {
      throw new CheckpointValidationError(
        `LangGraph checkpoint_id must be at most ${room} characters here (it was ${codePoints(checkpointId)}; "/", "%", U+E000 to U+FFFF and U+10FFFF count 3): ` +
          'the source ref that keeps checkpoints in id order holds the thread, namespace and id in 256 characters',
      );
    }
  }
  return `${prefix}${id}`;
}

/** The ref a checkpoint with this id would have, of any length: a bound for range reads, never stored. */
export function checkpointBound(threadId: string, checkpointNs: string, checkpointId: string): string {
  return `${checkpointPrefix(threadId, checkpointNs)}${encodeCheckpointId(checkpointId, 'before.checkpoint_id')}`;
}

/**
 * True when the pending writes of the checkpoint at `ref` sort at or above `before` although the
 * checkpoint sorts below it: its id is a proper prefix of the bound's and the bound continues with
 * a character below "/" (e.g. ids "a" and "a-1"). A range read up to `before` misses those writes.
 */
export function writesBeyondBound(ref: string, before: string): boolean {
  return before.length > ref.length && before.startsWith(ref) && before.charCodeAt(ref.length) < 0x2f;
}

/** The ref of the pending writes of one task on one checkpoint. */
export function writeRef(threadId: string, checkpointNs: string, checkpointId: string, taskId: string): string {
  return `${checkpointRef(threadId, checkpointNs, checkpointId)}/${part(taskId, MAX_PART.task, 'task_id')}`;
}

/** The refs of every part row of a checkpoint start with this: `lgp/<thread>/<ns>/<id>/` (its values' parts, its writes' parts, kept copies of its replaced writes). */
export function partsPrefix(threadId: string, checkpointNs: string, checkpointId: string): string {
  return `lgp/${checkpointRef(threadId, checkpointNs, checkpointId).slice('lg/'.length)}/`;
}

/** The ref of part `k` of a split value: `lgp/<thread>/<ns>/<id>/<k>`, outside the `lg/` range checkpoint reads cover. */
export function partRef(threadId: string, checkpointNs: string, checkpointId: string, k: number): string {
  return `${partsPrefix(threadId, checkpointNs, checkpointId)}${k}`;
}

/** The ref of a thread's lock row (inserted and deleted inside one transaction, never committed). */
export function threadLockRef(threadId: string): string {
  return `lgl/${checkpointPrefix(threadId).slice('lg/'.length)}`;
}

/** The ref of part `k` of a split pending write: `lgp/<thread>/<ns>/<id>/<task>/<k>`. */
export function writePartRef(threadId: string, checkpointNs: string, checkpointId: string, taskId: string, k: number): string {
  return `lgp/${writeRef(threadId, checkpointNs, checkpointId, taskId).slice('lg/'.length)}/${k}`;
}

/** What a source ref names, each part as the ref encodes it. */
export interface ParsedRef {
  what: 'checkpoint' | 'writes' | 'part' | 'write-part';
  thread: string;
  ns: string;
  id: string;
  /** The task part, of `writes` and `write-part` refs. */
  task?: string;
  /** The part number, of `part` and `write-part` refs. */
  k?: number;
}

/** Part numbers as refs write them: decimal, no sign, no leading zero. */
const PART_NUMBER = /^(0|[1-9][0-9]{0,15})$/;

/** Parses a source ref built by this module (no part holds a "/"), or `undefined` for any other text. */
export function parseSourceRef(ref: string | null): ParsedRef | undefined {
  if (ref === null) return undefined;
  const [family, thread, ns, id, ...rest] = ref.split('/');
  if (thread === undefined || ns === undefined || id === undefined || thread === '' || id === '') return undefined;
  const at = { thread, ns, id };
  if (family === 'lg') {
    if (rest.length === 0) return { what: 'checkpoint', ...at };
    if (rest.length === 1 && rest[0] !== '') return { what: 'writes', ...at, task: rest[0] as string };
    return undefined;
  }
  if (family !== 'lgp') return undefined;
  const k = rest[rest.length - 1];
  if (k === undefined || !PART_NUMBER.test(k)) return undefined;
  if (rest.length === 1) return { what: 'part', ...at, k: Number(k) };
  if (rest.length === 2 && rest[0] !== '') return { what: 'write-part', ...at, task: rest[0] as string, k: Number(k) };
  return undefined;
}

/** The identity fields a row's payload claims; `task_id` for writes, `k` for parts (checked when present). */
export interface ClaimedIdentity {
  thread_id: unknown;
  checkpoint_ns: unknown;
  checkpoint_id: unknown;
  task_id?: unknown;
  k?: unknown;
}

/**
 * True when `ref` names exactly the checkpoint (and task and part number, when `claimed` has them)
 * that `claimed` holds, each field encoded as the builders above encode it.
 */
export function refNames(ref: ParsedRef, claimed: ClaimedIdentity): boolean {
  const { thread_id: thread, checkpoint_ns: ns, checkpoint_id: id } = claimed;
  if (typeof thread !== 'string' || typeof ns !== 'string' || typeof id !== 'string') return false;
  if (ref.task !== undefined && Object.hasOwn(claimed, 'task_id') && (typeof claimed.task_id !== 'string' || part(claimed.task_id, MAX_PART.task, 'task_id') !== ref.task)) return false;
  if (ref.k !== undefined && Object.hasOwn(claimed, 'k') && claimed.k !== ref.k) return false;
  if (part(thread, MAX_PART.thread, 'thread_id') !== ref.thread || part(ns, MAX_PART.ns, 'checkpoint_ns') !== ref.ns) return false;
  try {
    return encodeCheckpointId(id) === ref.id;
  } catch {
    return false; // control characters, lone surrogates: no ref holds them
  }
}
