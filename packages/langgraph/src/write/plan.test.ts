import { describe, expect, it } from 'vitest';
import { ListStates, type KnownList } from './plan.js';

/*
 * The list states a saver keeps for its next puts are bounded in checkpoints and in bytes: a long
 * chat's list is megabytes, and 256 of them must not be kept whatever their size.
 */

/** The lists of one checkpoint: one list whose serialized JSON is `bytes` long. */
function lists(bytes: number): Map<string, KnownList> {
  return new Map([['messages', { stored: ['x'.repeat(Math.max(bytes - 4, 0))], holder: 'c', sha: 'h', since: 'c', d: 0, s: bytes, c: 0 }]]);
}

describe('ListStates', () => {
  it('keeps at most maxBytes of lists, evicting the least recently used', () => {
    const states = new ListStates(256, 10_000);
    for (let i = 0; i < 20; i++) {
      states.set(`k${i}`, lists(3_000));
      expect(states.weight).toBeLessThanOrEqual(10_000);
    }
    // 3 KB each: at most three of 10 KB, and the newest is always among them.
    expect(states.size).toBeLessThanOrEqual(3);
    expect(states.size).toBeGreaterThan(0);
    expect(states.get('k19')).toBeDefined();
    expect(states.get('k0')).toBeUndefined();
  });

  it('keeps at most maxEntries checkpoints, however small their lists', () => {
    const states = new ListStates(4, 1_000_000);
    for (let i = 0; i < 50; i++) states.set(`k${i}`, lists(10));
    expect(states.size).toBeLessThanOrEqual(4);
    expect(states.get('k49')).toBeDefined();
  });

  it('does not keep a checkpoint whose lists are over half the bytes; 0 bytes keeps none', () => {
    const states = new ListStates(256, 10_000);
    states.set('small', lists(1_000));
    states.set('big', lists(6_000));
    expect(states.get('big')).toBeUndefined();
    expect(states.get('small')).toBeDefined();
    const none = new ListStates(256, 0);
    none.set('k', lists(10));
    none.set('empty', new Map());
    expect(none.size).toBe(0);
  });
});
