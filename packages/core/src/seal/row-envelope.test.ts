import { describe, expect, it } from 'vitest';
import { deflateRawSync } from 'node:zlib';
import { sha256Hex } from '../sha256.js';
import type { CheckpointRow } from '../types.js';
import { derivedKey, Keyring, type DerivedKey } from './keyring.js';
import { openRow, parseEnvelope, sealRow } from './row-envelope.js';

/*
 * sealRow and openRow size zlib's output buffer to the payload (deflate) and to four times the
 * compressed bytes (inflate) instead of zlib's 16 KiB default, for speed. Generated payloads of
 * sizes on both sides of every buffer size (compressible or not, so the output takes one chunk
 * or several), compared with the reference: raw deflate at zlib's defaults must give the same
 * plaintext, and every row must open to exactly the text sealed.
 */
describe('row envelopes across zlib output chunk sizes', () => {
  const keys = new Keyring([{ id: 'k1', secret: new Uint8Array(32).fill(9) }]);
  const key = derivedKey(keys, 'k1') as DerivedKey;
  let seed = 12345;
  const random = () => ((seed = (seed * 1103515245 + 12345) >>> 0) / 2 ** 32);
  /** JSON text of about `bytes` UTF-8 bytes: repetitive (deflates about 4:1 or better) or not. */
  const payload = (bytes: number, repetitive: boolean): string => {
    const words = ['alpha', 'beta', 'gamma', 'delta', 'épsilon', '日本'];
    let s = '';
    while (s.length < bytes) s += repetitive ? words[Math.floor(random() * words.length)] + ' ' : String.fromCharCode(0x21 + Math.floor(random() * 90)).replace(/["\\]/, '_');
    return JSON.stringify({ v: s.slice(0, Math.max(0, bytes - 8)) });
  };
  const sizes = [200, 256, 1000, 1024, 1100, 4000, 4096, 4200, 16 * 1024 - 64, 16 * 1024, 16 * 1024 + 100, 70_000];
  for (let i = 0; i < 12; i++) sizes.push(Math.floor(random() * 90_000));

  for (const repetitive of [true, false]) {
    it(`${repetitive ? 'compressible' : 'barely compressible'} payloads of ${sizes.length} sizes open to the text sealed`, () => {
      for (const [i, size] of sizes.entries()) {
        const text = payload(size, repetitive);
        const identity = { id: i + 1, namespace: 'n', sessionId: 's', kind: 'checkpoint', name: 'default', createdAt: '2026-12-06T07:00:00Z', sourceRef: null };
        const sealed = sealRow(key, identity, text, { link: 'AAAAAAAAAAAAAAAA', prev: null }, true);
        const row: CheckpointRow = { ...identity, ...sealed };
        expect(sealed.payloadSha256).toBe(sha256Hex(sealed.payloadJson));
        const envelope = parseEnvelope(row.payloadJson);
        expect(envelope).toBeDefined();
        // Compressed exactly when raw deflate at zlib's defaults (the reference) is smaller too.
        const reference = deflateRawSync(Buffer.from(text, 'utf8'), { level: 1 }).length;
        if (Buffer.byteLength(text) >= 256 && reference < Buffer.byteLength(text) * 0.9) expect(envelope?.zip).toBe(true);
        const opened = openRow(keys, row);
        if (typeof opened === 'string') throw new Error(`size ${size}: ${opened}`);
        expect(opened.payloadJson).toBe(text);
        expect(opened.payloadSha256).toBe(sha256Hex(text));
      }
    });
  }
});
