import { describe, expect, it } from 'vitest';
import { MemoryAdapter } from '../memory/memory-adapter.js';
import { CheckpointStore } from '../store/checkpoint-store.js';
import { Checkpointer } from './checkpointer.js';

describe('Checkpointer', () => {
  const make = (options = {}) => new Checkpointer(new CheckpointStore(new MemoryAdapter()), options);

  it('keeps 50 states per thread by default and returns 20 by default, newest first', async () => {
    const threads = make();
    expect(threads.maxHistory).toBe(50);
    for (let i = 0; i < 55; i++) await threads.put('t', { i });
    const history = await threads.history('t');
    expect(history).toHaveLength(20);
    expect(history[0]?.state).toEqual({ i: 54 });
    expect(history.every((entry) => entry.threadId === 't')).toBe(true);
    expect(await threads.history('t', 100)).toHaveLength(50);
    expect(await threads.get('t')).toEqual({ i: 54 });
  });

  it('returns undefined for an unknown thread and lists threads', async () => {
    const threads = make({ namespace: 'agents' });
    expect(await threads.get('nobody')).toBeUndefined();
    expect(await threads.threads()).toEqual([]);
    await threads.put('a', { x: 1 });
    expect(await threads.threads()).toEqual(['a']);
    expect(await threads.delete('a')).toBe(1);
    expect(await threads.delete('a')).toBe(0);
  });

  it('isolates checkpointers by namespace', async () => {
    const store = new CheckpointStore(new MemoryAdapter());
    const one = new Checkpointer(store, { namespace: 'one' });
    const two = new Checkpointer(store, { namespace: 'two' });
    await one.put('t', { who: 'one' });
    expect(await two.get('t')).toBeUndefined();
  });

  it('rejects a non-positive maxHistory', () => {
    expect(() => make({ maxHistory: 0 })).toThrow('maxHistory must be a positive integer');
  });
});
