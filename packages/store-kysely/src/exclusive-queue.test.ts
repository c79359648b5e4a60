import { describe, expect, it } from 'vitest';
import { ExclusiveQueue } from './exclusive-queue.js';

describe('ExclusiveQueue', () => {
  it('starts a task at once when idle, and queues tasks behind a pending one in call order', async () => {
    const queue = new ExclusiveQueue();
    const log: string[] = [];
    let release!: () => void;
    const first = queue.run(async () => {
      log.push('first start');
      await new Promise<void>((resolve) => (release = resolve));
      log.push('first end');
    });
    // Started synchronously: nothing was ahead of it.
    expect(log).toEqual(['first start']);
    const second = queue.run(() => log.push('second'));
    const third = queue.run(() => log.push('third'));
    await Promise.resolve();
    expect(log).toEqual(['first start']);
    release();
    await Promise.all([first, second, third]);
    expect(log).toEqual(['first start', 'first end', 'second', 'third']);
  });

  it('keeps going after a task fails, and reports the failure to its caller only', async () => {
    const queue = new ExclusiveQueue();
    const failed = queue.run(() => {
      throw new Error('boom');
    });
    const next = queue.run(() => 'ok');
    await expect(failed).rejects.toThrow('boom');
    await expect(next).resolves.toBe('ok');
    await expect(queue.run(async () => 'idle again')).resolves.toBe('idle again');
  });
});
