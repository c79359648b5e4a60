import { isDeepStrictEqual } from 'node:util';
import { isCheckpointIntegrityError, sha256Hex } from '@session-checkpoint/core';
import { ensure, ensureEqual, rejectsWith, show } from '../assert.js';
import { at, ids } from '../context.js';
import type { ConformanceCase } from '../types.js';

const sameBytes = (a: Uint8Array, b: Uint8Array) => a.length === b.length && a.every((byte, i) => byte === b[i]);

/** Tampered rows are stored as the tamper hook wrote them, and every read of them fails closed. */
export const integrity: ConformanceCase[] = [
  {
    name: 'a tampered payload fails closed on get, list, latest and delete, naming the id',
    async run({ store, make, subject }) {
      const good = await make({ createdAt: at(1) });
      const bad = await make({ createdAt: at(2) });
      const elsewhere = await make({ namespace: 'other' });
      await subject.tamper(bad.id, { payloadJson: '{"n":2}' });
      const rule = 'a read that meets a tampered row must fail with CheckpointIntegrityError';
      const e1 = await rejectsWith(store.get(bad.id, { namespace: 'app' }), isCheckpointIntegrityError, `${rule} (get)`);
      ensureEqual(e1.ids, [bad.id], 'the integrity error must name the tampered id');
      ensure(e1.message.includes(`Checkpoint ${bad.id} `), 'the integrity message must name the tampered id', e1.message);
      ensureEqual((await rejectsWith(store.list({ namespace: 'app' }), isCheckpointIntegrityError, `${rule} (list)`)).ids, [bad.id], 'list must name the tampered id');
      await rejectsWith(store.latest('s-1', { namespace: 'app' }), isCheckpointIntegrityError, `${rule} (latest)`);
      await rejectsWith(store.delete(bad.id, { namespace: 'app', apply: true }), isCheckpointIntegrityError, `${rule} (delete)`);
      ensureEqual((await store.get(good.id, { namespace: 'app' })).id, good.id, 'an untampered row must stay readable');
      ensureEqual((await store.list({ namespace: 'other' }))[0]?.id, elsewhere.id, 'another namespace must stay readable');
    },
  },
  {
    name: 'tampered text is stored exactly as given; every kind is caught and verify reports each bad row',
    async run({ store, make, subject, adapter }) {
      const made = [];
      for (let i = 0; i < 6; i++) made.push(await make({ payload: { i } }));
      const [hash, noncanonical, notJson, createdAt, session, fine] = made;
      // Correctly hashed but not canonical: must still fail (the reference does the same).
      const spaced = '{ "i": 1 }';
      await subject.tamper(hash!.id, { payloadSha256: 'a'.repeat(64) });
      await subject.tamper(noncanonical!.id, { payloadJson: spaced, payloadSha256: sha256Hex(spaced) });
      await subject.tamper(notJson!.id, { payloadJson: '{"i":', payloadSha256: sha256Hex('{"i":') });
      await subject.tamper(createdAt!.id, { createdAt: '2026-08-08T09:00:00+02:00' });
      await subject.tamper(session!.id, { sessionId: 'bad\u0001id' });
      const raw = await adapter.getRow(noncanonical!.id, 'app');
      ensureEqual(raw?.payloadJson, spaced, 'the tamper hook must store text exactly as given, and the adapter must return it untouched');
      ensureEqual((await adapter.getRow(notJson!.id, 'app'))?.payloadJson, '{"i":', 'the tamper hook must store text that is not JSON as given');
      const report = await store.verify();
      ensureEqual([report.checked, report.ok], [6, 1], 'verify must check every row and count only the untampered one as ok');
      ensureEqual(report.failures.map((f) => f.id), ids(made.slice(0, 5)), 'verify must report each tampered row (hash, non-canonical, not JSON, created_at, session id)');
      const e = await rejectsWith(store.list({ namespace: 'app' }), isCheckpointIntegrityError, 'list over tampered rows must fail with CheckpointIntegrityError');
      ensureEqual([...e.ids].sort((x, y) => x - y), ids(made.slice(0, 5)), 'list must name every tampered id');
      ensureEqual((await store.get(fine!.id, { namespace: 'app' })).id, fine!.id, 'an untampered row must stay readable');
      ensureEqual((await store.verify({ namespace: 'other' })).checked, 0, 'verify of another namespace must check nothing');
    },
  },
  {
    name: 'a payload tampered to bytes is stored as those bytes, and reads fail closed',
    requires: 'storesBytes',
    async run({ store, make, subject, adapter }) {
      const notUtf8 = await make({ payload: { n: 1 } });
      const utf8 = await make({ payload: { n: 2 } });
      // Invalid UTF-8, and the exact UTF-8 of the stored text (right hash, wrong type): both must fail.
      const invalid = Uint8Array.of(0x7b, 0x22, 0x6e, 0x22, 0x3a, 0xff, 0x7d);
      const valid = new TextEncoder().encode(utf8.payloadJson);
      await subject.tamper(notUtf8.id, { payloadJson: invalid });
      await subject.tamper(utf8.id, { payloadJson: valid });
      for (const [id, bytes] of [[notUtf8.id, invalid], [utf8.id, valid]] as const) {
        const stored = (await adapter.getRow(id, 'app'))?.payloadJson as unknown;
        ensure(
          stored instanceof Uint8Array && sameBytes(stored, bytes),
          'bytes given to the tamper hook must be stored as those bytes and returned by the adapter as bytes, not decoded',
          () => `stored ${show(bytes)}, got ${show(stored)}`,
        );
        const e = await rejectsWith(store.get(id, { namespace: 'app' }), isCheckpointIntegrityError, 'a payload stored as bytes must fail closed on get');
        ensureEqual(e.ids, [id], 'the integrity error must name the id whose payload is bytes');
      }
      ensureEqual((await store.verify()).failures.map((f) => f.id), [notUtf8.id, utf8.id], 'verify must report each payload stored as bytes');
    },
  },
  {
    name: 'delete with force removes a row that fails verification and says so',
    async run({ store, make, subject }) {
      const bad = await make();
      await subject.tamper(bad.id, { payloadSha256: '0'.repeat(64) });
      const dry = await store.delete(bad.id, { namespace: 'app', force: true });
      ensureEqual(dry.checkpoint, null, 'a forced delete of a tampered row must not return it as a checkpoint');
      ensure(/hash/.test(dry.integrityFailure ?? ''), 'a forced delete must say why the row failed verification', () => show(dry.integrityFailure));
      ensureEqual((await store.delete(bad.id, { namespace: 'app', force: true, apply: true })).deleted, [bad.id], 'an applied forced delete must remove the row');
      ensureEqual((await store.verify()).failures.length, 0, 'nothing tampered must remain after a forced delete');
    },
  },
  {
    name: 'verify, scan (export) and list refuse the same rows: ids tampered to 0 or below, or above 2^53 - 1, are reported, never skipped',
    async run({ store, make, subject }) {
      const good = await make({ createdAt: at(1) });
      const zero = await make({ createdAt: at(2) });
      const negative = await make({ createdAt: at(3) });
      const huge = await make({ createdAt: at(4) });
      await subject.tamper(zero.id, { id: 0 });
      await subject.tamper(negative.id, { id: -5 });
      await subject.tamper(huge.id, { id: 2 ** 53 });
      const numeric = (list: readonly number[]) => [...list].sort((x, y) => x - y);
      const bad = [-5, 0, 2 ** 53];
      const listed = await rejectsWith(store.list({ namespace: 'app' }), isCheckpointIntegrityError, 'list over rows with ids outside 1 to 2^53 - 1 must fail with CheckpointIntegrityError');
      ensureEqual(numeric(listed.ids), bad, 'list must name the rows whose ids are outside 1 to 2^53 - 1');
      const report = await store.verify();
      ensureEqual([report.checked, report.ok], [4, 1], 'verify must check the rows list refuses (ids outside 1 to 2^53 - 1) and count them as failures');
      ensureEqual(numeric(report.failures.map((f) => f.id)), bad, 'verify must report the rows whose ids are outside 1 to 2^53 - 1');
      const scanned: number[] = [];
      let scanError: unknown;
      try {
        for await (const checkpoint of store.scan()) scanned.push(checkpoint.id);
      } catch (error) {
        scanError = error;
      }
      ensureEqual(scanned, [good.id], 'scan (what export writes) must yield the verified rows only');
      ensure(
        isCheckpointIntegrityError(scanError) && isDeepStrictEqual(numeric(scanError.ids), bad),
        'scan (export) must end with a CheckpointIntegrityError naming the rows whose ids are outside 1 to 2^53 - 1',
        () => `it ended with ${show(scanError)}`,
      );
    },
  },
];
