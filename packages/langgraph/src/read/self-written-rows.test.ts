import { sha256Hex, type Checkpoint, type CheckpointStore, type CreateCheckpointInput } from '@session-checkpoint/core';
import { openSqliteStore } from '@session-checkpoint/store-kysely';
import Database from 'better-sqlite3';
import fc from 'fast-check';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { tempDir } from '../test-support/backends.js';

/*
 * The store keeps the text of each row it writes in its verified-text memo at the write (core,
 * VerifiedPayloads.written; docs/decisions/0040-self-written-rows.md), so that this process's
 * first read of its own row is a full comparison instead of SHA-256 and the canonical scan.
 * Generated programs of writes (every write path of the store, a conditional insert that drops an
 * earlier row's text from the memo, transactions rolled back, and
 * prepared rows a caller altered after `prepare`), edits of the file behind the process's back
 * (a second connection: one character, the hash, another row's valid pair, the original back) and
 * reads (every read call), on a real SQLite file. Each read goes through the stores that wrote,
 * one with the default memo and one with a memo small enough to evict, and through a store
 * without a memo (`verifiedTextCache: 0`) opened on the same file: their answers (records or
 * errors) must be the same. A memo that kept a caller's pair, or answered by hash without the
 * text, fails it.
 */

const tmp = tempDir();
afterAll(() => tmp.remove());

type Value = null | boolean | number | string | Value[] | { [key: string]: Value };

const valueArb: fc.Arbitrary<Value> = fc.letrec<{ value: Value }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.constant(null),
    fc.boolean(),
    fc.integer(),
    fc.double({ noNaN: true, noDefaultInfinity: true }),
    fc.string({ unit: 'grapheme', maxLength: 12 }),
    fc.array(tie('value'), { maxLength: 4 }),
    fc.dictionary(fc.string({ maxLength: 5 }), tie('value'), { maxKeys: 4 }),
  ),
})).value;

const payloadArb = fc.dictionary(fc.string({ unit: 'grapheme', maxLength: 6 }), valueArb, { minKeys: 1, maxKeys: 5 }) as fc.Arbitrary<Record<string, Value>>;

type Op =
  | { t: 'write'; writer: number; via: 'create' | 'ifPresent' | 'ifPresentForget' | 'tx' | 'rollback' | 'spaced' | 'rehashed' | 'wrongHash' | 'spread'; payload: Record<string, Value> }
  | { t: 'edit'; pick: number; how: 'char' | 'hash' | 'swap' | 'restore'; other: number }
  | { t: 'read'; pick: number; how: 'get' | 'bySource' | 'bySources' | 'list' };

const opArb: fc.Arbitrary<Op> = fc.oneof(
  { arbitrary: fc.record({ t: fc.constant('write' as const), writer: fc.integer({ min: 0, max: 1 }), via: fc.constantFrom('create', 'ifPresent', 'ifPresentForget', 'tx', 'rollback', 'spaced', 'rehashed', 'wrongHash', 'spread'), payload: payloadArb }), weight: 3 },
  { arbitrary: fc.record({ t: fc.constant('edit' as const), pick: fc.nat(40), how: fc.constantFrom('char', 'hash', 'swap', 'restore'), other: fc.nat(40) }), weight: 2 },
  { arbitrary: fc.record({ t: fc.constant('read' as const), pick: fc.nat(40), how: fc.constantFrom('get', 'bySource', 'bySources', 'list') }), weight: 4 },
);

/** What a read answered: the records as plain data, or the error's class and message. */
async function outcome(read: Promise<Checkpoint | Checkpoint[] | undefined>): Promise<unknown> {
  try {
    const got = await read;
    const records = got === undefined ? [] : Array.isArray(got) ? got : [got];
    return records.map((r) => ({ ...r, payload: r.payload }));
  } catch (error) {
    return { error: (error as Error).constructor.name, message: (error as Error).message };
  }
}

/** One character of `text` changed, or `text` longer by one. */
function changed(text: string): string {
  const at = text.search(/[a-z0-9]/u);
  if (at < 0) return `${text.slice(0, -1)} }`;
  const c = text[at] as string;
  return text.slice(0, at) + (c === '0' ? '1' : /[0-9]/u.test(c) ? '0' : c.toUpperCase()) + text.slice(at + 1);
}

async function program(ops: readonly Op[]): Promise<void> {
  const path = join(tmp.dir, `self-written-${Math.random().toString(36).slice(2)}.db`);
  const writers: CheckpointStore[] = [await openSqliteStore(path), await openSqliteStore(path, { verifiedTextCache: 300 })];
  const plain = await openSqliteStore(path, { verifiedTextCache: 0 });
  const raw = new Database(path);
  const originals = new Map<number, { text: string; sha: string; ref: string }>();
  try {
    let n = 0;
    for (const op of ops) {
      const rows = [...originals.entries()];
      if (op.t === 'write') {
        const store = writers[op.writer] as CheckpointStore;
        const input: CreateCheckpointInput = { namespace: 'app', sessionId: 's', payload: op.payload, sourceRef: `r/${n++}` };
        let record: Checkpoint | undefined;
        try {
          if (op.via === 'create') record = await store.create(input);
          else if (op.via === 'ifPresent') record = await store.insertPreparedIfPresent(store.prepare(input), { present: [] });
          // A write that drops an earlier row's text from the memo (forgetText, the Mastra persist's; decision record 0052).
          else if (op.via === 'ifPresentForget') record = await store.insertPreparedIfPresent(store.prepare(input), { present: [] }, { forgetText: rows.length === 0 ? sha256Hex('{}') : (rows[n % rows.length] as [number, { sha: string }])[1].sha });
          else if (op.via === 'tx') record = await store.transaction((tx) => tx.insertPrepared(tx.prepare(input)));
          else if (op.via === 'rollback') {
            await store
              .transaction(async (tx) => {
                await tx.insertPrepared(tx.prepare(input));
                throw new Error('rolled back');
              })
              .catch(() => undefined);
          } else {
            // A caller alters what `prepare` returned: the store must never take such a pair as verified.
            const prepared = store.prepare(input);
            if (op.via === 'spaced') prepared.payloadJson = prepared.payloadJson.replace('{', '{ ');
            if (op.via === 'rehashed') prepared.payloadJson = '{"other":1}';
            if (op.via === 'spaced' || op.via === 'rehashed') prepared.payloadSha256 = sha256Hex(prepared.payloadJson);
            if (op.via === 'wrongHash') prepared.payloadSha256 = sha256Hex(`${prepared.payloadJson} `);
            record = await store.insertPrepared(op.via === 'spread' ? { ...prepared } : prepared);
          }
        } catch (error) {
          // A payload the canonicaliser refuses is refused by every store alike: nothing written.
          if (!/payload|JSON/u.test((error as Error).message)) throw error;
        }
        if (record !== undefined) {
          const row = raw.prepare('SELECT payload_json AS text, payload_sha256 AS sha FROM checkpoints WHERE id = ?').get(record.id) as { text: string; sha: string };
          originals.set(record.id, { text: row.text, sha: row.sha, ref: String(record.sourceRef) });
        }
        continue;
      }
      if (rows.length === 0) continue;
      const [id, original] = rows[op.pick % rows.length] as [number, { text: string; sha: string; ref: string }];
      if (op.t === 'edit') {
        const update = raw.prepare('UPDATE checkpoints SET payload_json = ?, payload_sha256 = ? WHERE id = ?');
        const [, other] = rows[op.other % rows.length] as [number, { text: string; sha: string }];
        if (op.how === 'char') update.run(changed(original.text), original.sha, id);
        else if (op.how === 'hash') update.run(original.text, sha256Hex(`${original.text}x`), id);
        else if (op.how === 'swap') update.run(other.text, other.sha, id);
        else update.run(original.text, original.sha, id);
        continue;
      }
      const read = (store: CheckpointStore): Promise<Checkpoint | Checkpoint[] | undefined> =>
        op.how === 'get'
          ? store.get(id, { namespace: 'app' })
          : op.how === 'bySource'
            ? store.findBySourceRef('app', original.ref)
            : op.how === 'bySources'
              ? store.findBySourceRefs('app', [original.ref, ...rows.slice(0, 3).map(([, r]) => r.ref)])
              : store.listBySourceRefPrefix({ namespace: 'app', prefix: 'r/', limit: 50 });
      const expected = await outcome(read(plain));
      // Twice each: the second read of a store is the one a memo answers when the first kept it.
      for (const store of writers) for (let i = 0; i < 2; i++) expect(await outcome(read(store))).toEqual(expected);
    }
  } finally {
    raw.close();
    for (const store of [...writers, plain]) await store.close();
  }
}

describe('rows this process wrote, read back through the verified-text memo (SQLite file)', () => {
  it('answer every read as a store without the memo does, edits behind its back included', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(opArb, { minLength: 1, maxLength: 30 }), (ops) => program(ops)),
      { numRuns: 40, seed: 40 },
    );
  });

  it('fail closed on a row edited in the file after the write and before any read', async () => {
    const path = join(tmp.dir, 'edited-before-read.db');
    const store = await openSqliteStore(path);
    const raw = new Database(path);
    try {
      const cp = await store.create({ namespace: 'app', sessionId: 's', payload: { said: 'hello' }, sourceRef: 'r' });
      raw.prepare('UPDATE checkpoints SET payload_json = ? WHERE id = ?').run(cp.payloadJson.replace('hello', 'HELLO'), cp.id);
      await expect(store.get(cp.id, { namespace: 'app' })).rejects.toThrow(/failed payload integrity verification/);
      raw.prepare('UPDATE checkpoints SET payload_json = ? WHERE id = ?').run(cp.payloadJson, cp.id);
      expect((await store.get(cp.id, { namespace: 'app' })).payload).toEqual({ said: 'hello' });
      // A caller's pair is never taken as verified: a non-canonical text under its own hash fails on read.
      const prepared = store.prepare({ namespace: 'app', sessionId: 's', payload: { said: 'hi' }, sourceRef: 'forged' });
      prepared.payloadJson = '{ "said": "hi"}';
      prepared.payloadSha256 = sha256Hex(prepared.payloadJson);
      const forged = await store.insertPrepared(prepared);
      await expect(store.get(forged.id, { namespace: 'app' })).rejects.toThrow(/failed payload integrity verification/);
    } finally {
      raw.close();
      await store.close();
    }
  });
});
