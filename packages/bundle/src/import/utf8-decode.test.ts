import { describe, expect, it } from 'vitest';
import { CheckpointValidationError } from '@session-checkpoint/core';
import { decodeUtf8Strict, utf8ErrorMessage } from './utf8-decode.js';

/** `bytes.decode('utf-8')` messages from CPython 3.11.7. */
const CASES: Array<[number[], string]> = [
  [[0x61, 0x62, 0xff], "'utf-8' codec can't decode byte 0xff in position 2: invalid start byte"],
  [[0xc0, 0x80], "'utf-8' codec can't decode byte 0xc0 in position 0: invalid start byte"],
  [[0xe2, 0x82], "'utf-8' codec can't decode bytes in position 0-1: unexpected end of data"],
  [[0xe2, 0x82, 0x61], "'utf-8' codec can't decode bytes in position 0-1: invalid continuation byte"],
  [[0xed, 0xa0, 0x80], "'utf-8' codec can't decode byte 0xed in position 0: invalid continuation byte"],
  [[0xf4, 0x90, 0x80, 0x80], "'utf-8' codec can't decode byte 0xf4 in position 0: invalid continuation byte"],
  [[0xf0, 0x9f, 0x98], "'utf-8' codec can't decode bytes in position 0-2: unexpected end of data"],
  [[0x78, 0xf0, 0x9f, 0x98, 0x79], "'utf-8' codec can't decode bytes in position 1-3: invalid continuation byte"],
  [[0x80], "'utf-8' codec can't decode byte 0x80 in position 0: invalid start byte"],
  [[0xc2], "'utf-8' codec can't decode byte 0xc2 in position 0: unexpected end of data"],
  [[0xe0, 0x80, 0x80], "'utf-8' codec can't decode byte 0xe0 in position 0: invalid continuation byte"],
  [[0xf5], "'utf-8' codec can't decode byte 0xf5 in position 0: invalid start byte"],
  [[...Buffer.from('{"a":"'), 0xc3, 0x28, ...Buffer.from('"}')], "'utf-8' codec can't decode byte 0xc3 in position 6: invalid continuation byte"],
];

describe('strict UTF-8 with Python messages', () => {
  it.each(CASES)('%j', (bytes, message) => {
    expect(utf8ErrorMessage(Uint8Array.from(bytes))).toBe(message);
    expect(() => decodeUtf8Strict(Uint8Array.from(bytes))).toThrow(new CheckpointValidationError(message));
  });

  it('accepts valid text and keeps a BOM for the JSON reader to refuse', () => {
    const text = '{"k": "Grüße 😀 \u{10ffff}"}';
    expect(utf8ErrorMessage(Buffer.from(text))).toBeUndefined();
    expect(decodeUtf8Strict(Buffer.from(text))).toBe(text);
    expect(decodeUtf8Strict(Buffer.from('\ufeff{}'))).toBe('\ufeff{}');
  });
});
