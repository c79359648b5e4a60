import type { AgentInputItem } from '@openai/agents';
import { afterAll, describe, expect, it } from 'vitest';
import { CheckpointSession } from './index.js';
import { backends } from './test-support/backends.js';
import { runSessionChild, startSessionChild } from './test-support/children.js';

/*
 * Real processes on one SQLite file or one PostgreSQL schema: a history written by one process is
 * read whole by the next; several processes adding and popping at once lose nothing and never pop
 * the same item twice; a process killed with SIGKILL inside addItems leaves whole turns only.
 */

const all = backends().filter((b) => b.name !== 'memory');
afterAll(async () => {
  for (const b of all) await b.cleanup();
});

const WORKERS = 4;
const TURNS = 12;

/** The text of the user item of a turn ("<worker>:<i>:q"), or undefined for other items. */
function userText(item: AgentInputItem): string | undefined {
  return 'role' in item && item.role === 'user' && typeof item.content === 'string' ? item.content : undefined;
}

describe.each(all)('CheckpointSession across processes ($name)', (backend) => {
  it.skipIf(!backend.available)('a history written here is read whole by another process, and the other way round', async () => {
    const target = backend.target() as string;
    const store = await backend.open(target);
    const items: AgentInputItem[] = [
      { role: 'user', content: 'first' },
      { type: 'function_call', callId: 'c1', name: 'f', arguments: '{"x":[1,2.5,"é"]}', status: 'completed' },
    ];
    try {
      await new CheckpointSession(store, { sessionId: 'reopen' }).addItems(items);
    } finally {
      await store.close();
    }
    const [line] = await runSessionChild(target, 'reopen', 'read');
    expect(JSON.parse(line ?? 'null')).toEqual(items);
    await runSessionChild(target, 'reopen', 'add', 'child', '1');
    const again = await backend.open(target);
    try {
      const back = await new CheckpointSession(again, { sessionId: 'reopen' }).getItems();
      expect(back.slice(0, 2)).toEqual(items);
      expect(back.slice(2).map(userText)).toEqual(['child:0:q', undefined, undefined]);
    } finally {
      await again.close();
    }
  });

  it.skipIf(!backend.available)('concurrent addItems of items over 1 MiB from several processes: every item whole, its parts its own', async () => {
    const target = backend.target() as string;
    await (await backend.open(target)).close();
    await Promise.all(['a', 'b', 'c'].map((w) => runSessionChild(target, 'large', 'addlarge', w, '3')));
    const store = await backend.open(target);
    try {
      const items = await new CheckpointSession(store, { sessionId: 'large' }).getItems();
      expect(items).toHaveLength(3 * 3 * 3);
      for (let t = 0; t < items.length; t += 3) {
        const [user, , big] = items.slice(t, t + 3) as [AgentInputItem, AgentInputItem, { providerData: { worker: string; padding: string } }];
        const worker = (userText(user) ?? '').split(':')[0] ?? '';
        expect(big.providerData.worker).toBe(worker);
        // Each padding is its worker's letter only: no part of another process's item was joined in.
        expect(big.providerData.padding).toBe(worker.repeat(1_300_000));
      }
      expect((await store.verify({ namespace: 'openai-agents' })).failures).toEqual([]);
    } finally {
      await store.close();
    }
  });

  it.skipIf(!backend.available)('concurrent addItems from several processes: every turn kept whole, in each worker\'s order', async () => {
    const target = backend.target() as string;
    await (await backend.open(target)).close();
    await Promise.all(Array.from({ length: WORKERS }, (_, w) => runSessionChild(target, 'shared', 'add', `w${w}`, String(TURNS))));
    const store = await backend.open(target);
    try {
      const items = await new CheckpointSession(store, { sessionId: 'shared' }).getItems();
      expect(items).toHaveLength(WORKERS * TURNS * 3);
      // addItems is atomic: each turn's three items are adjacent; each worker's turns are in order.
      const seen = new Map<string, number>();
      for (let i = 0; i < items.length; i += 3) {
        const [worker, turn] = (userText(items[i] as AgentInputItem) ?? '?:?').split(':');
        expect((items[i + 1] as { content: { text: string }[] }).content[0]?.text).toBe(`${worker}:${turn}:a`);
        expect((items[i + 2] as unknown as { providerData: { worker: string; i: number } }).providerData).toMatchObject({ worker, i: Number(turn) });
        expect(Number(turn)).toBe((seen.get(worker as string) ?? -1) + 1);
        seen.set(worker as string, Number(turn));
      }
      expect([...seen.values()]).toEqual(Array(WORKERS).fill(TURNS - 1));
      expect((await store.verify()).failures).toEqual([]);
    } finally {
      await store.close();
    }
  });

  it.skipIf(!backend.available)('concurrent popItem from several processes: every item popped exactly once', async () => {
    const target = backend.target() as string;
    const store = await backend.open(target);
    const session = new CheckpointSession(store, { sessionId: 'popped' });
    const items: AgentInputItem[] = Array.from({ length: 120 }, (_, i) => ({ role: 'user', content: `item ${i}` }));
    try {
      await session.addItems(items);
    } finally {
      await store.close();
    }
    const outputs = await Promise.all(Array.from({ length: WORKERS }, () => runSessionChild(target, 'popped', 'pop')));
    const popped = outputs.flat().map((line) => userText(JSON.parse(line) as AgentInputItem));
    expect(popped).toHaveLength(items.length);
    expect(new Set(popped).size).toBe(items.length);
    expect([...popped].sort()).toEqual(items.map(userText).sort());
    // Each process popped newest first.
    for (const out of outputs) {
      const numbers = out.map((line) => Number((userText(JSON.parse(line) as AgentInputItem) ?? '').split(' ')[1]));
      expect(numbers).toEqual([...numbers].sort((a, b) => b - a));
    }
    const after = await backend.open(target);
    try {
      expect(await new CheckpointSession(after, { sessionId: 'popped' }).getItems()).toEqual([]);
    } finally {
      await after.close();
    }
  });

  it.skipIf(!backend.available)('history transactions from several processes: one operation id applies once; competing suffix replacements, one wins', async () => {
    const target = backend.target() as string;
    const store = await backend.open(target);
    try {
      await new CheckpointSession(store, { sessionId: 'same-op' }).addItems([{ role: 'user', content: 'first' }, { role: 'user', content: 'base' }]);
      await new CheckpointSession(store, { sessionId: 'rivals' }).addItems([{ role: 'user', content: 'first' }, { role: 'user', content: 'base' }]);
    } finally {
      await store.close();
    }
    const same = await Promise.all(Array.from({ length: WORKERS }, () => runSessionChild(target, 'same-op', 'tx', 'op-shared', 'replaced')));
    expect(same.flat()).toEqual(Array(WORKERS).fill('applied'));
    const rivals = (await Promise.all(Array.from({ length: WORKERS }, (_, w) => runSessionChild(target, 'rivals', 'tx', `op-${w}`, `by ${w}`)))).flat();
    expect(rivals.filter((line) => line === 'applied')).toHaveLength(1);
    expect(rivals.filter((line) => line.startsWith('refused') && line.includes('no longer matches'))).toHaveLength(WORKERS - 1);
    const winner = rivals.indexOf('applied');
    const after = await backend.open(target);
    try {
      expect(await new CheckpointSession(after, { sessionId: 'same-op' }).getItems()).toEqual([{ role: 'user', content: 'first' }, { role: 'user', content: 'replaced' }]);
      expect(await new CheckpointSession(after, { sessionId: 'rivals' }).getItems()).toEqual([{ role: 'user', content: 'first' }, { role: 'user', content: `by ${winner}` }]);
      // One operation record per applied transaction, none for the refused ones.
      const kinds = (await after.list({ namespace: 'openai-agents', limit: 100 })).map((row) => `${row.sessionId} ${row.kind}`);
      expect(kinds.filter((k) => k.endsWith('openai-agents.op')).sort()).toEqual(['rivals openai-agents.op', 'same-op openai-agents.op']);
    } finally {
      await after.close();
    }
  });

  it.skipIf(!backend.available)('SIGKILL during addItems leaves whole turns only, all verified, and the session goes on', async () => {
    const target = backend.target() as string;
    await (await backend.open(target)).close();
    const child = startSessionChild(target, 'killed', 'add', 'k', 'forever');
    await child.waitForLines(15);
    child.process.kill('SIGKILL');
    const result = await child.done;
    expect(result.signal).toBe('SIGKILL');
    const store = await backend.open(target);
    try {
      expect((await store.verify()).failures).toEqual([]);
      const session = new CheckpointSession(store, { sessionId: 'killed' });
      const items = await session.getItems();
      expect(items.length).toBeGreaterThanOrEqual(15 * 3);
      expect(items.length % 3).toBe(0);
      items.forEach((item, index) => {
        if (index % 3 === 0) expect(userText(item)).toBe(`k:${index / 3}:q`);
      });
      await session.addItems([{ role: 'user', content: 'after the crash' }]);
      expect(await session.getItems(1)).toEqual([{ role: 'user', content: 'after the crash' }]);
    } finally {
      await store.close();
    }
  });
});
