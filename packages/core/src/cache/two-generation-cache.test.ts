import { describe, expect, it } from 'vitest';
import { TwoGenerationCache } from './two-generation-cache.js';

describe('TwoGenerationCache', () => {
  it('keeps at most its capacity and always the entries used within the last half of it', () => {
    const cache = new TwoGenerationCache<string, number>(8);
    for (let i = 0; i < 100; i++) {
      cache.set(`k${i}`, i);
      expect(cache.size).toBeLessThanOrEqual(8);
      for (let j = Math.max(0, i - 3); j <= i; j++) expect(cache.get(`k${j}`)).toBe(j);
    }
    expect(cache.get('k0')).toBeUndefined();
    expect(cache.has('k0')).toBe(false);
  });

  it('keeps an entry that is read, however old', () => {
    const cache = new TwoGenerationCache<string, number>(4);
    cache.set('kept', 1);
    for (let i = 0; i < 50; i++) {
      cache.set(`k${i}`, i);
      expect(cache.get('kept')).toBe(1);
    }
  });

  it('weighs values: the total stays within the capacity, and a value over half of it is not kept', () => {
    const cache = new TwoGenerationCache<string, string>(10, (text) => text.length);
    cache.set('a', 'aaaa');
    cache.set('b', 'bbbb');
    expect(cache.get('a')).toBe('aaaa'); // a is now the most recently used
    cache.set('c', 'cccc');
    expect([cache.has('a'), cache.has('b'), cache.has('c')]).toEqual([true, false, true]);
    expect(cache.weight).toBe(8);
    cache.set('d', 'dddddd');
    expect(cache.has('d')).toBe(false);
    cache.set('a', 'aaaaaa'); // too heavy now: the key goes
    expect(cache.has('a')).toBe(false);
    expect(cache.weight).toBe(4);
  });

  it('replaces a value in either generation, and deletes by key and by predicate', () => {
    const cache = new TwoGenerationCache<string, number>(4);
    cache.set('t1/a', 1);
    cache.set('t1/b', 2);
    cache.set('t2/a', 3); // 't1/a' and 't1/b' are now the old generation
    cache.set('t1/a', 10);
    expect(cache.get('t1/a')).toBe(10);
    expect(cache.size).toBe(3);
    cache.deleteKeys((key) => key.startsWith('t1/'));
    expect([cache.get('t1/a'), cache.get('t1/b'), cache.get('t2/a')]).toEqual([undefined, undefined, 3]);
    expect(cache.delete('t2/a')).toBe(true);
    expect(cache.delete('t2/a')).toBe(false);
    expect([cache.size, cache.weight]).toEqual([0, 0]);
  });
});
