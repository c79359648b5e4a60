import { describe, expect, it } from 'vitest';
import { decodeCursor, encodeCursor, rowError } from '../internal.js';
import { CheckpointIntegrityError } from '../errors.js';

describe('the cursors and errors of the family readers', () => {
  it('a cursor gives back its source ref, is URL-safe, and is what base64url of the UTF-8 would be', () => {
    for (const ref of ['', 'lg:v2:t/c', 'ä/🧭/x y?&=+', 'a'.repeat(1000), 'oa:v1:s/\u0000/\uffff']) {
      const cursor = encodeCursor(ref);
      expect(cursor).toMatch(/^[A-Za-z0-9_-]*$/);
      expect(cursor).toBe(Buffer.from(ref, 'utf8').toString('base64url'));
      if (ref !== '') expect(decodeCursor(cursor)).toBe(ref);
    }
  });

  it('text it did not write is not a cursor', () => {
    for (const text of ['', 'a', 'ab=', 'a+b', 'a/b', '////', '_w']) expect(decodeCursor(text), text).toBeUndefined();
  });

  it('an entry carries our error code, and anything else as an integrity failure', () => {
    expect(rowError(new CheckpointIntegrityError('bad row 3'))).toEqual({ code: 'INTEGRITY', message: 'bad row 3' });
    expect(rowError(new Error('boom'))).toEqual({ code: 'INTEGRITY', message: 'boom' });
    expect(rowError('text')).toEqual({ code: 'INTEGRITY', message: 'text' });
  });
});
