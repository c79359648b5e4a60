/**
 * A corpus of broken bundles, each read from a file and imported with apply into a SQLite store:
 * every one must fail with the right error class and message, and leave the store files
 * byte-identical. Caps are tested with small configured limits, plus one real 32 MiB + 1 file.
 */
import { readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  canonicalPayloadFromValue,
  CheckpointConflictError,
  CheckpointValidationError,
  DEFAULT_LIMITS,
  type CheckpointLimits,
} from '@session-checkpoint/core';
import { openSqliteStore } from '@session-checkpoint/store-kysely';
import { importBundle } from './import-bundle.js';
import { readBundleFile } from './read-bundle-file.js';
import { tempDir } from '../test-support/stores.js';

type Item = Record<string, unknown>;

function item(id: number, payload: Record<string, unknown>, extra: Item = {}): Item {
  return {
    id,
    namespace: 'corp',
    session_id: `s-${id}`,
    kind: 'manual',
    name: `n-${id}`,
    payload,
    payload_sha256: canonicalPayloadFromValue(payload).sha256,
    created_at: '2026-08-08T07:00:00Z',
    source_ref: `ref:${id}`,
    ...extra,
  };
}

function bundle(items: unknown[], top: Record<string, unknown> = {}): string {
  return JSON.stringify(
    { schema: 'ellmos.session-checkpoint-export.v1', store_schema_version: 1, exported_at: '2026-11-29T08:00:00Z', namespace: null, checkpoints: items, ...top },
    null,
    2,
  );
}

const BASE_ITEMS = [101, 102, 103, 104].map((id) => item(id, { id, text: 'x'.repeat(50), list: [1, 2, { k: id }] }));
const BASE = bundle(BASE_ITEMS);

/** Replaces one field of one base item. */
function withField(index: number, field: string, value: unknown): string {
  return bundle(BASE_ITEMS.map((it, i) => (i === index ? { ...it, [field]: value } : it)));
}

/** Position text of Python's JSONDecodeError for ASCII text. */
function at(text: string, index: number): string {
  const before = text.slice(0, index);
  const line = before.split('\n').length;
  const column = index - before.lastIndexOf('\n');
  return `line ${line} column ${column} (char ${index})`;
}

function deepPayload(depth: number): string {
  return '{"d":' + '['.repeat(depth - 1) + ']'.repeat(depth - 1) + '}';
}

interface Case {
  name: string;
  content: string | Buffer;
  type: new (...args: never[]) => Error;
  message: string | RegExp;
  limits?: Partial<CheckpointLimits>;
}

const TRUNCATE_AT = BASE.indexOf('"checkpoints": [') + '"checkpoints": [\n'.length;
const lexemeId = (lexeme: string) => BASE.replace('"id": 101,', `"id": ${lexeme},`);
const payloadText = (text: string) => {
  const b = BASE_ITEMS[0] as Item;
  return bundle([{ ...b, payload: '@@P@@' }, ...BASE_ITEMS.slice(1)]).replace('"@@P@@"', text);
};

const CASES: Case[] = [
  { name: 'empty file', content: '', type: CheckpointValidationError, message: 'Expecting value: line 1 column 1 (char 0)' },
  { name: 'truncated', content: BASE.slice(0, TRUNCATE_AT), type: CheckpointValidationError, message: `Expecting value: ${at(BASE, TRUNCATE_AT)}` },
  { name: 'truncated mid-string', content: BASE.slice(0, BASE.indexOf('ellmos') + 3), type: CheckpointValidationError, message: `Unterminated string starting at: ${at(BASE, BASE.indexOf('ellmos') - 1)}` },
  { name: 'trailing garbage', content: BASE + ' x', type: CheckpointValidationError, message: `Extra data: ${at(BASE + ' x', BASE.length + 1)}` },
  { name: 'BOM', content: '\ufeff' + BASE, type: CheckpointValidationError, message: 'Unexpected UTF-8 BOM (decode using utf-8-sig): line 1 column 1 (char 0)' },
  { name: 'invalid UTF-8', content: Buffer.concat([Buffer.from('{"a": "'), Buffer.from([0xff]), Buffer.from('"}')]), type: CheckpointValidationError, message: "'utf-8' codec can't decode byte 0xff in position 7: invalid start byte" },
  { name: 'top-level array', content: '[]', type: CheckpointValidationError, message: 'input must contain a JSON object' },
  { name: 'wrong schema', content: bundle(BASE_ITEMS, { schema: 'ellmos.session-checkpoint-export.v2' }), type: CheckpointValidationError, message: 'Unsupported checkpoint export schema' },
  { name: 'missing schema', content: bundle(BASE_ITEMS, { schema: undefined }), type: CheckpointValidationError, message: 'Unsupported checkpoint export schema' },
  { name: 'store_schema_version true', content: bundle(BASE_ITEMS, { store_schema_version: true }), type: CheckpointValidationError, message: 'Unsupported checkpoint store schema version' },
  { name: 'store_schema_version 1.0', content: BASE.replace('"store_schema_version": 1', '"store_schema_version": 1.0'), type: CheckpointValidationError, message: 'Unsupported checkpoint store schema version' },
  { name: 'store_schema_version 2', content: bundle(BASE_ITEMS, { store_schema_version: 2 }), type: CheckpointValidationError, message: 'Unsupported checkpoint store schema version' },
  { name: 'checkpoints not an array', content: bundle(BASE_ITEMS, { checkpoints: {} }), type: CheckpointValidationError, message: 'Import bundle checkpoints must be an array' },
  { name: 'checkpoints missing', content: bundle(BASE_ITEMS, { checkpoints: undefined }), type: CheckpointValidationError, message: 'Import bundle checkpoints must be an array' },
  { name: 'item not an object', content: bundle([...BASE_ITEMS, 5]), type: CheckpointValidationError, message: 'Every imported checkpoint must be an object' },
  { name: 'extra field', content: withField(1, 'extra', 1), type: CheckpointValidationError, message: /^Imported checkpoint fields must be exactly \['created_at', 'id', 'kind', 'name', 'namespace', 'payload', 'payload_sha256', 'session_id', 'source_ref'\]$/ },
  { name: 'missing field', content: bundle(BASE_ITEMS.map((it, i) => (i === 2 ? { ...it, source_ref: undefined } : it))), type: CheckpointValidationError, message: /^Imported checkpoint fields must be exactly/ },
  { name: 'created_at null', content: withField(0, 'created_at', null), type: CheckpointValidationError, message: 'created_at must be an ISO-8601 string' },
  { name: 'created_at number', content: withField(0, 'created_at', 5), type: CheckpointValidationError, message: 'created_at must be an ISO-8601 string' },
  { name: 'created_at garbage', content: withField(0, 'created_at', 'yesterday'), type: CheckpointValidationError, message: 'created_at must be a valid ISO-8601 timestamp' },
  { name: 'created_at naive', content: withField(0, 'created_at', '2026-08-08T07:00:00'), type: CheckpointValidationError, message: 'created_at must include a timezone' },
  { name: 'namespace null', content: withField(0, 'namespace', null), type: CheckpointValidationError, message: /^namespace must match/ },
  { name: 'namespace bad token', content: withField(0, 'namespace', 'a b'), type: CheckpointValidationError, message: /^namespace must match/ },
  { name: 'session_id number', content: withField(0, 'session_id', 5), type: CheckpointValidationError, message: 'session_id must be a non-empty string of at most 512 characters' },
  { name: 'session_id control char', content: withField(0, 'session_id', 'a\u0001'), type: CheckpointValidationError, message: 'session_id must not contain control characters' },
  { name: 'kind null', content: withField(0, 'kind', null), type: CheckpointValidationError, message: /^kind must match/ },
  { name: 'name number', content: withField(0, 'name', 5), type: CheckpointValidationError, message: 'name must be a non-empty string of at most 256 characters' },
  { name: 'source_ref empty', content: withField(0, 'source_ref', ''), type: CheckpointValidationError, message: 'source_ref must be a non-empty string of at most 256 characters' },
  { name: 'payload array', content: withField(0, 'payload', [1]), type: CheckpointValidationError, message: 'payload must be a JSON object' },
  { name: 'payload NaN', content: payloadText('{"x": NaN}'), type: CheckpointValidationError, message: 'payload is not valid JSON: Out of range float values are not JSON compliant' },
  { name: 'payload 1E400', content: payloadText('{"x": 1E400}'), type: CheckpointValidationError, message: 'payload is not valid JSON: Out of range float values are not JSON compliant' },
  { name: 'payload lone surrogate', content: payloadText('{"x": "\\ud800"}'), type: CheckpointValidationError, message: /^payload is not valid JSON: lone surrogate/ },
  { name: 'payload depth 1001', content: payloadText(deepPayload(1001)), type: CheckpointValidationError, message: 'payload nesting exceeds the maximum depth of 1000' },
  { name: 'payload depth 100000', content: payloadText(deepPayload(100_000)), type: CheckpointValidationError, message: 'payload nesting exceeds the maximum depth of 1000' },
  { name: 'deep non-payload field', content: withField(0, 'name', 'x').replace('"name": "x"', `"name": ${'['.repeat(5000)}${']'.repeat(5000)}`), type: CheckpointValidationError, message: 'payload nesting exceeds the maximum depth of 1000' },
  { name: 'hash mismatch', content: withField(0, 'payload_sha256', '0'.repeat(64)), type: CheckpointValidationError, message: 'Imported checkpoint 101 has a payload hash mismatch' },
  { name: 'uppercase hash', content: withField(0, 'payload_sha256', String(BASE_ITEMS[0]?.payload_sha256).toUpperCase()), type: CheckpointValidationError, message: 'Imported checkpoint 101 has a payload hash mismatch' },
  { name: 'hash null', content: withField(0, 'payload_sha256', null), type: CheckpointValidationError, message: 'Imported checkpoint 101 has a payload hash mismatch' },
  { name: 'id string', content: withField(0, 'id', '101'), type: CheckpointValidationError, message: 'id must be a positive integer' },
  { name: 'id 1.0', content: lexemeId('101.0'), type: CheckpointValidationError, message: 'id must be a positive integer' },
  { name: 'id 1e2', content: lexemeId('1e2'), type: CheckpointValidationError, message: 'id must be a positive integer' },
  { name: 'id true', content: lexemeId('true'), type: CheckpointValidationError, message: 'id must be a positive integer' },
  { name: 'id 0', content: lexemeId('0'), type: CheckpointValidationError, message: 'id must be a positive integer' },
  { name: 'id -0', content: lexemeId('-0'), type: CheckpointValidationError, message: 'id must be a positive integer' },
  { name: 'id negative', content: lexemeId('-5'), type: CheckpointValidationError, message: 'id must be a positive integer' },
  { name: 'id 2^53', content: lexemeId('9007199254740992'), type: CheckpointValidationError, message: 'id must not exceed 9007199254740991' },
  { name: 'id huge', content: lexemeId('1' + '0'.repeat(400)), type: CheckpointValidationError, message: 'id must not exceed 9007199254740991' },
  { name: 'duplicate ids', content: bundle([...BASE_ITEMS, { ...BASE_ITEMS[0], source_ref: 'other' }]), type: CheckpointConflictError, message: 'Import bundle contains duplicate checkpoint ids' },
  { name: 'duplicate source refs', content: withField(1, 'source_ref', 'ref:101'), type: CheckpointConflictError, message: 'Import bundle contains duplicate namespace/source_ref pairs' },
  { name: 'id conflicts with store', content: bundle([item(1, { changed: true }, { source_ref: null })]), type: CheckpointConflictError, message: 'Checkpoint id 1 conflicts with existing state' },
  { name: 'source_ref conflicts with store', content: bundle([item(500, { a: 1 }, { source_ref: "seed:it's" })]), type: CheckpointConflictError, message: `source_ref "seed:it's" conflicts in namespace 'corp'` },
  { name: 'conflict after valid items', content: bundle([...BASE_ITEMS, item(2, { changed: true })]), type: CheckpointConflictError, message: 'Checkpoint id 2 conflicts with existing state' },
  { name: 'count cap', content: BASE, limits: { maxImportCheckpoints: 3 }, type: CheckpointValidationError, message: 'Import bundle contains more than 3 checkpoints' },
  { name: 'count cap before items', content: bundle([...BASE_ITEMS, 5]), limits: { maxImportCheckpoints: 4 }, type: CheckpointValidationError, message: 'Import bundle contains more than 4 checkpoints' },
  { name: 'aggregate cap', content: BASE, limits: { maxImportPayloadBytes: 200 }, type: CheckpointValidationError, message: 'Import bundle aggregate payload exceeds the 200-byte carrier limit' },
  { name: 'payload cap', content: BASE, limits: { maxPayloadBytes: 50 }, type: CheckpointValidationError, message: 'payload exceeds the 50-byte carrier limit' },
  { name: 'file cap', content: BASE, limits: { maxImportFileBytes: Buffer.byteLength(BASE) - 1 }, type: CheckpointValidationError, message: `input exceeds the ${Buffer.byteLength(BASE) - 1}-byte input limit` },
  { name: 'depth cap', content: payloadText(deepPayload(11)), limits: { maxDepth: 10 }, type: CheckpointValidationError, message: 'payload nesting exceeds the maximum depth of 10' },
];

describe('broken bundles leave a SQLite store byte-identical', () => {
  let dir: string;
  let storePath: string;
  let baseline: Map<string, Buffer>;
  const snapshot = () => new Map(readdirSync(dir).map((n) => [n, readFileSync(join(dir, n))]));

  beforeAll(async () => {
    dir = tempDir();
    storePath = join(dir, 'store.sqlite');
    const store = await openSqliteStore(storePath);
    await store.create({ namespace: 'corp', sessionId: 'seed', payload: { seed: 1 }, sourceRef: 'seed:1', createdAt: '2026-01-01T00:00:00Z' });
    await store.create({ namespace: 'corp', sessionId: 'seed', payload: { seed: 2 }, sourceRef: "seed:it's", createdAt: '2026-01-01T00:00:00Z' });
    await store.close();
    baseline = snapshot();
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('the base bundle itself is valid (dry run)', async () => {
    const store = await openSqliteStore(storePath);
    try {
      expect(await importBundle(store, BASE)).toEqual({ dryRun: true, inserted: [101, 102, 103, 104], unchanged: [] });
    } finally {
      await store.close();
    }
    expect(snapshot()).toEqual(baseline);
  });

  it.each(CASES)('$name', async ({ content, type, message, limits }) => {
    const input = join(dir, '..', `${dir.split('/').pop()}-input.json`);
    writeFileSync(input, content);
    const store = await openSqliteStore(storePath, limits ? { limits } : {});
    let error: unknown;
    try {
      await importBundle(store, await readBundleFile(input, store.limits), { apply: true });
    } catch (e) {
      error = e;
    } finally {
      await store.close();
      rmSync(input, { force: true });
    }
    expect(error).toBeInstanceOf(type);
    if (typeof message === 'string') expect((error as Error).message).toBe(message);
    else expect((error as Error).message).toMatch(message);
    expect(snapshot()).toEqual(baseline);
  });

  it('a real 32 MiB + 1 byte file is refused before parsing', async () => {
    const input = join(dir, '..', `${dir.split('/').pop()}-huge.json`);
    writeFileSync(input, ' '.repeat(DEFAULT_LIMITS.maxImportFileBytes - 1) + '{}');
    try {
      await expect(readBundleFile(input, DEFAULT_LIMITS)).rejects.toThrow(new CheckpointValidationError('input exceeds the 33554432-byte input limit'));
      // Exactly at the cap is fine (and parses: whitespace then an object without checkpoints).
      writeFileSync(input, ' '.repeat(DEFAULT_LIMITS.maxImportFileBytes - 2) + '{}');
      const text = await readBundleFile(input, DEFAULT_LIMITS);
      expect(text.length).toBe(DEFAULT_LIMITS.maxImportFileBytes);
    } finally {
      rmSync(input, { force: true });
    }
  });

  it('control: the snapshot does see an applied import (runs last)', async () => {
    const store = await openSqliteStore(storePath);
    try {
      expect((await importBundle(store, BASE, { apply: true })).inserted).toEqual([101, 102, 103, 104]);
    } finally {
      await store.close();
    }
    expect(snapshot()).not.toEqual(baseline);
  });
});
