import { describe, expect, it } from 'vitest';
import * as hash from './hash.js';

describe('@session-checkpoint/core/hash', () => {
  it('exports exactly the canonical JSON and hashing API', () => {
    expect(Object.keys(hash).sort()).toEqual([
      'canonicalPayloadFromJson',
      'canonicalPayloadFromValue',
      'canonicalize',
      'canonicalizeJson',
      'checkStoredPayload',
      'sha256Hex',
      'utf8ByteLength',
    ]);
  });

  it('sha256Hex hashes the UTF-8 bytes, lowercase hex', () => {
    expect(hash.sha256Hex('')).toBe('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
    expect(hash.sha256Hex('{}')).toBe('44136fa355b3678a1146ad16f7e8649e94fb4fc21fe77e8310c060f61caaff8a');
    expect(hash.sha256Hex('ä😀')).toBe(hash.sha256Hex(new TextEncoder().encode('ä😀')));
    expect(hash.sha256Hex(new Uint8Array([0xc3, 0xa4]))).toBe(hash.sha256Hex('ä'));
  });

  it('utf8ByteLength counts UTF-8 bytes', () => {
    expect(hash.utf8ByteLength('')).toBe(0);
    expect(hash.utf8ByteLength('a')).toBe(1);
    expect(hash.utf8ByteLength('ä')).toBe(2);
    expect(hash.utf8ByteLength('€')).toBe(3);
    expect(hash.utf8ByteLength('😀')).toBe(4);
  });

  it('works end to end', () => {
    const payload = hash.canonicalPayloadFromValue({ b: 1, a: [1.5, 'x'] });
    expect(payload.json).toBe('{"a":[1.5,"x"],"b":1}');
    expect(hash.canonicalPayloadFromJson('{"b":1,"a":[1.5,"x"]}')).toEqual(payload);
    expect(hash.checkStoredPayload(payload.json, payload.sha256)).toBeUndefined();
    expect(hash.canonicalize([2, 1])).toBe('[2,1]');
    expect(hash.canonicalizeJson('[2, 1.0]')).toBe('[2,1.0]');
  });
});
