import { Buffer } from 'node:buffer';
import { createHash } from 'node:crypto';
import { loadCanonicalVectors } from '@session-checkpoint/fixtures';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { sha256HexPortable, utf8ByteLengthPortable } from './sha256-portable.js';
import { sha256Hex, utf8ByteLength } from './sha256.js';

/** The reference: Node's OpenSSL SHA-256, UTF-8 for strings. */
function nodeSha256(data: string | Uint8Array): string {
  return createHash('sha256').update(data).digest('hex');
}

/** Any UTF-16 code unit, so lone surrogates and every plane appear. */
const anyUnitString = fc.string({ unit: fc.integer({ min: 0, max: 0xffff }).map((unit) => String.fromCharCode(unit)), maxLength: 300 });

describe('sha256HexPortable', () => {
  it('matches the FIPS 180-4 examples', () => {
    expect(sha256HexPortable('')).toBe('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
    expect(sha256HexPortable('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    expect(sha256HexPortable('abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq')).toBe(
      '248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1',
    );
  });

  it('equals Node for every length around the block and padding boundaries', () => {
    const bytes = Uint8Array.from({ length: 1100 }, (_, i) => (i * 131 + 7) & 0xff);
    for (let length = 0; length <= 1100; length++) {
      const slice = bytes.subarray(0, length);
      expect(sha256HexPortable(slice), `length ${length}`).toBe(nodeSha256(slice));
    }
  });

  it('equals Node on random bytes', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 5000 }), (bytes) => sha256HexPortable(bytes) === nodeSha256(bytes)),
      { numRuns: 2000 },
    );
  });

  it('equals Node on random strings, lone surrogates included', () => {
    fc.assert(
      fc.property(fc.oneof(anyUnitString, fc.string({ unit: 'binary', maxLength: 300 })), (text) => sha256HexPortable(text) === nodeSha256(text)),
      { numRuns: 3000 },
    );
  });

  it('equals Node on a multi-megabyte input (a length over 2^24 bits)', () => {
    const text = 'ä€😀{"k":[1.5,"x"]}'.repeat(150_000);
    expect(sha256HexPortable(text)).toBe(nodeSha256(text));
  });

  it('gives every shared canonical vector its Python hash', () => {
    let checked = 0;
    for (const vector of loadCanonicalVectors()) {
      if (typeof vector.canonical !== 'string' || vector.sha256 === null) continue;
      expect(sha256HexPortable(vector.canonical)).toBe(vector.sha256);
      checked++;
    }
    expect(checked).toBeGreaterThanOrEqual(70);
  });
});

describe('utf8ByteLengthPortable', () => {
  it('equals Buffer.byteLength and TextEncoder, lone surrogates included', () => {
    for (const text of ['', 'a', 'ä', '€', '😀', '\ud800', '\udc00', '\udc00\ud800', '\ud83d\ude00\ud83d', 'a\ud800b']) {
      expect(utf8ByteLengthPortable(text), JSON.stringify(text)).toBe(Buffer.byteLength(text, 'utf8'));
    }
    fc.assert(
      fc.property(anyUnitString, (text) => {
        const length = utf8ByteLengthPortable(text);
        return length === Buffer.byteLength(text, 'utf8') && length === new TextEncoder().encode(text).length;
      }),
      { numRuns: 3000 },
    );
  });
});

describe('sha256Hex on Node', () => {
  it('uses the native hash, with the same results as the portable one', () => {
    fc.assert(
      fc.property(anyUnitString, (text) => sha256Hex(text) === sha256HexPortable(text) && utf8ByteLength(text) === utf8ByteLengthPortable(text)),
      { numRuns: 500 },
    );
  });
});
