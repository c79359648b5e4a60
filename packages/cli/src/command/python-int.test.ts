import { describe, expect, it } from 'vitest';
import { parsePythonInt } from './python-int.js';

describe('parsePythonInt', () => {
  it('accepts what Python int() accepts', () => {
    expect(parsePythonInt('0_1', '--id')).toBe(1);
    expect(parsePythonInt(' +7 ', '--id')).toBe(7);
    expect(parsePythonInt('-3', '--id')).toBe(-3);
    expect(Object.is(parsePythonInt('-0', '--id'), 0)).toBe(true);
    expect(parsePythonInt('99999999999999999999', '--id')).toBe(1e20);
  });

  it('rejects the rest with argparse wording', () => {
    for (const bad of ['abc', '1e3', '1.0', '1__0', '_1', '1_', '', '0x10']) {
      expect(() => parsePythonInt(bad, '--id')).toThrow(`argument --id: invalid int value: '${bad}'`);
    }
  });
});
