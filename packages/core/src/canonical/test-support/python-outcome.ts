/**
 * What every JSON entry point of core must answer for an input, given CPython's outcome for it
 * (tools/python-oracle/json_oracle.py). Shared by the corpus table and the randomized comparison.
 */
import { createHash } from 'node:crypto';
import { isCheckpointValidationError } from '../../errors.js';
import type { JsonNode } from '../../lossless/json-node.js';
import { parseJsonTree } from '../../lossless/parse-json-tree.js';
import { isCanonicalObjectText } from '../canonical-validator.js';
import { canonicalizeJson } from '../canonicalize-json.js';
import { OUT_OF_RANGE_MESSAGE } from '../decode-errors.js';
import { canonicalPayloadFromJson, checkStoredPayload } from '../payload.js';

/** One outcome of json_oracle.py; a long canonical text comes as `sha256` and `bytes` instead. */
export interface PythonOutcome {
  stage?: 'parse' | 'parse-limit' | 'recursion' | 'dumps' | 'encode';
  message?: string;
  canonical?: string;
  sha256?: string;
  bytes?: number;
  type?: 'dict' | 'list' | 'str' | 'int' | 'float' | 'bool' | 'NoneType';
  unit?: string;
  position?: number;
}

/** Every entry point this module checks, in the order reported. */
export const ENTRY_POINTS = [
  'parseJsonTree',
  'canonicalizeJson',
  'canonicalPayloadFromJson',
  'checkStoredPayload',
  'isCanonicalObjectText',
  'checkStoredPayload(canonical)',
] as const;
export type EntryPoint = (typeof ENTRY_POINTS)[number];

/** Outcomes that are deliberate differences (DESIGN.md 3.1), checked by vectors.python-parity.test.ts instead. */
export function isDeliberate(outcome: PythonOutcome): boolean {
  return outcome.stage === 'recursion' || outcome.stage === 'parse-limit';
}

const MAX_PAYLOAD_BYTES = 1_048_576;
const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');

/** The message, or the result when nothing was thrown; any non-validation error is a finding. */
function attempt<T>(fn: () => T): { value?: T; error?: string } {
  try {
    return { value: fn() };
  } catch (error) {
    if (!isCheckpointValidationError(error)) return { error: `UNEXPECTED ${String(error)}` };
    return { error: error.message };
  }
}

const PYTHON_TYPE: Record<JsonNode['kind'], string> = { object: 'dict', array: 'list', string: 'str', number: '', true: 'bool', false: 'bool', null: 'NoneType' };

function pythonType(node: JsonNode): string {
  if (node.kind !== 'number') return PYTHON_TYPE[node.kind];
  return /^-?(?:0|[1-9][0-9]*)$/.test(node.lexeme) ? 'int' : 'float';
}

/** Only JSON whitespace (a sticky regex: linear even on a megabyte of spaces). */
function isBlank(text: string): boolean {
  BLANK.lastIndex = 0;
  return BLANK.test(text) && BLANK.lastIndex === text.length;
}
const BLANK = /[ \t\n\r]*/y;

/** The message canonicalisation gives for a value Python parses but cannot write. */
function deferredMessage(outcome: PythonOutcome): string | undefined {
  if (outcome.stage === 'dumps') return OUT_OF_RANGE_MESSAGE;
  if (outcome.stage === 'encode') return `payload is not valid JSON: lone surrogate '${outcome.unit}' at position ${outcome.position}`;
  return undefined;
}

/** `canonical` matches the outcome's canonical text (or its hash and size). */
function sameCanonical(canonical: string, outcome: PythonOutcome): boolean {
  if (outcome.canonical !== undefined) return canonical === outcome.canonical;
  return sha256(canonical) === outcome.sha256 && Buffer.byteLength(canonical) === outcome.bytes;
}

/**
 * Runs `input` through every entry point and returns one line per disagreement with what CPython's
 * `outcome` implies (empty when all agree). Deliberate differences must be filtered out first.
 */
export function disagreements(input: string, outcome: PythonOutcome): string[] {
  const found: string[] = [];
  const check = (entry: EntryPoint, ok: boolean, got: unknown, want: unknown) => {
    if (!ok) found.push(`${entry}: got ${JSON.stringify(got)}, want ${JSON.stringify(want)}`);
  };
  const parsed = outcome.stage !== 'parse';
  const deferred = deferredMessage(outcome);
  const isObject = outcome.type === 'dict';

  // The lossless tree: Python's parse error, or a tree whose top-level type is Python's.
  const tree = attempt(() => parseJsonTree(input));
  if (!parsed) check('parseJsonTree', tree.error === outcome.message, tree.error ?? 'accepted', outcome.message);
  else {
    const type = tree.value && pythonType(tree.value);
    const spanOk = tree.value !== undefined && isBlank(input.slice(0, tree.value.start)) && isBlank(input.slice(tree.value.end));
    check('parseJsonTree', type === outcome.type && spanOk, tree.error ?? `${type} spanning ${tree.value?.start}-${tree.value?.end}`, outcome.type);
  }

  // The canonical writer: Python's parse error, its dumps/encode failure, or its exact text.
  const text = attempt(() => canonicalizeJson(input));
  if (!parsed) check('canonicalizeJson', text.error === outcome.message, text.error ?? text.value, outcome.message);
  else if (deferred !== undefined) check('canonicalizeJson', text.error === deferred, text.error ?? text.value, deferred);
  else check('canonicalizeJson', text.value !== undefined && sameCanonical(text.value, outcome), text.error ?? text.value, outcome.canonical ?? outcome.sha256);

  // The payload path: the reference's order of checks (syntax, object, dumps/encode, size).
  const payload = attempt(() => canonicalPayloadFromJson(input));
  let want: string | undefined;
  if (!parsed) want = outcome.message;
  else if (!isObject) want = 'payload must be a JSON object';
  else if (deferred !== undefined) want = deferred;
  else if ((outcome.bytes ?? Buffer.byteLength(outcome.canonical ?? '')) > MAX_PAYLOAD_BYTES) want = `payload exceeds the ${MAX_PAYLOAD_BYTES}-byte carrier limit`;
  if (want !== undefined) check('canonicalPayloadFromJson', payload.error === want, payload.error ?? payload.value?.json, want);
  else {
    const p = payload.value;
    const ok = p !== undefined && sameCanonical(p.json, outcome) && p.sha256 === sha256(p.json) && p.bytes === Buffer.byteLength(p.json);
    check('canonicalPayloadFromJson', ok, payload.error ?? p?.json, outcome.canonical ?? outcome.sha256);
  }

  // The read-path check, on the input as if it were stored with a matching hash.
  let reason: string | undefined;
  if (!parsed) reason = 'invalid JSON';
  else if (!isObject) reason = 'payload is not a JSON object';
  else if (deferred !== undefined) reason = 'invalid JSON';
  else if (!sameCanonical(input, outcome)) reason = 'payload is not canonical';
  else if (Buffer.byteLength(input) > MAX_PAYLOAD_BYTES) reason = `payload exceeds the ${MAX_PAYLOAD_BYTES}-byte carrier limit`;
  const stored = checkStoredPayload(input, sha256(input));
  check('checkStoredPayload', stored === reason, stored, reason);
  const canonicalObject = isCanonicalObjectText(input, 1000);
  check('isCanonicalObjectText', canonicalObject === (reason === undefined || reason.startsWith('payload exceeds')), canonicalObject, !canonicalObject);

  // Python's own canonical text of an object is accepted as stored (when within the size cap).
  if (parsed && isObject && deferred === undefined && outcome.canonical !== undefined) {
    const again = checkStoredPayload(outcome.canonical, sha256(outcome.canonical));
    check('checkStoredPayload(canonical)', again === undefined && isCanonicalObjectText(outcome.canonical, 1000), again, undefined);
  }
  return found;
}
