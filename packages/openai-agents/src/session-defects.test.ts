import { Agent, MemorySession, run, tool, UserError, type AgentInputItem } from '@openai/agents';
import { CheckpointIntegrityError, CheckpointStore, CheckpointValidationError, MemoryAdapter } from '@session-checkpoint/core';
import { openSqliteStore } from '@session-checkpoint/store-kysely';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { CheckpointSession, ITEM_KIND, PART_KIND } from './index.js';
import { itemRef, partRef } from './format/source-refs.js';
import { backends, tempDir } from './test-support/backends.js';
import { comparable } from './test-support/comparable.js';
import { ScriptedModel } from './test-support/scripted-model.js';

process.env.OPENAI_AGENTS_DISABLE_TRACING = '1';

/*
 * The outside test of CheckpointSession (issue 28, items 4 and 5): every value and row that broke
 * it, on every backend, next to what the SDK's MemorySession does with the same call.
 */

const MiB = 1024 * 1024;
const msg = (text: string): AgentInputItem => ({ role: 'user', content: text });
const call = (id: string, type = 'function_call'): AgentInputItem =>
  (type === 'shell_call' ? { type, callId: id, status: 'completed', action: { commands: ['ls'] } } : { type, callId: id, name: 'f', arguments: '{}', status: 'completed' }) as AgentInputItem;
const result = (id: string, type = 'function_call_result'): AgentInputItem =>
  (type === 'shell_call_output' ? { type, callId: id, output: [{ stdout: 'x', stderr: '', outcome: { type: 'exit', exitCode: 0 } }] } : { type, callId: id, name: 'f', status: 'completed', output: 'ok' }) as AgentInputItem;

/** Large items as tools and users make them: a 2 MiB tool output, a 1.6 MB screenshot data URL, 5 MB with binary. */
function largeItems(): AgentInputItem[] {
  const bytes = new Uint8Array(1_500_000).map((_, i) => (i * 7) % 256);
  return [
    { type: 'function_call_result', callId: 'big', name: 'dump', status: 'completed', output: 'x'.repeat(2 * MiB) },
    { type: 'message', role: 'user', content: [{ type: 'input_image', image: `data:image/png;base64,${'iVBORw0K'.repeat(200_000)}` }] },
    { type: 'function_call_result', callId: 'huge', name: 'snap', status: 'completed', output: [{ type: 'image', image: { data: bytes, mediaType: 'image/png' } }, { type: 'text', text: 'é🧭"\\\n'.repeat(500_000) }] },
  ] as AgentInputItem[];
}

const all = backends();
const tmp = tempDir();
afterAll(async () => {
  for (const b of all) await b.cleanup();
  tmp.remove();
});

describe.each(all)('CheckpointSession against the outside test ($name)', (backend) => {
  const open = (): Promise<CheckpointStore> => backend.open(backend.target());

  it.skipIf(!backend.available)('stores items over 1 MiB in part rows and gives them back exactly, verified', async () => {
    const store = await open();
    try {
      const session = new CheckpointSession(store, { sessionId: 'large' });
      const items = [msg('before'), ...largeItems(), msg('after')];
      await session.addItems(items);
      const fresh = new CheckpointSession(store, { sessionId: 'large' });
      expect(comparable(await fresh.getItems())).toEqual(comparable(items));
      expect(comparable(await fresh.getItems(2))).toEqual(comparable(items.slice(-2)));
      expect(comparable(await fresh.getItems(4))).toEqual(comparable(items.slice(-4)));
      const parts = await store.listBySourceRefPrefix({ namespace: 'openai-agents', prefix: 'oa/large/p/', limit: 100 });
      expect(parts.length).toBeGreaterThanOrEqual(2 + 2 + 5);
      expect(parts.every((row) => row.kind === PART_KIND && row.payloadJson.length <= store.limits.maxPayloadBytes)).toBe(true);
      expect((await store.verify({ namespace: 'openai-agents' })).failures).toEqual([]);
      // pop takes the small item, then a large one with its parts.
      expect(await session.popItem()).toEqual(msg('after'));
      expect(comparable(await session.popItem())).toEqual(comparable(items[3]));
      expect(comparable(await session.getItems())).toEqual(comparable(items.slice(0, 3)));
      await session.clearSession();
      expect(await store.listBySourceRefPrefix({ namespace: 'openai-agents', prefix: 'oa/large/', limit: 100 })).toEqual([]);
    } finally {
      await store.close();
    }
  });

  it.skipIf(!backend.available)('a missing, altered or swapped part fails closed with CheckpointIntegrityError naming the session and item', async () => {
    const store = await open();
    try {
      const session = new CheckpointSession(store, { sessionId: 'parts' });
      await session.addItems([largeItems()[0] as AgentInputItem]);
      const part1 = await store.findBySourceRef('openai-agents', partRef('parts', 1, 1));
      expect(part1).toBeDefined();
      await store.adapter.deleteRows([part1?.id ?? 0], 'openai-agents');
      await expect(session.getItems()).rejects.toThrow(/session "parts": the item at position 1 .*part 1 is missing/);
      // Another text under the same ref: its hash is not the one recorded.
      await store.create({ namespace: 'openai-agents', sessionId: 'parts', kind: PART_KIND, payload: { part: 1, text: 'y'.repeat(10) }, sourceRef: partRef('parts', 1, 1) });
      await expect(session.getItems(1)).rejects.toThrow(CheckpointIntegrityError);
      await expect(session.getItems(1)).rejects.toThrow(/part 1 is not the one stored/);
    } finally {
      await store.close();
    }
  });

  it.skipIf(!backend.available)('keeps own __proto__ keys as data, at the top and nested', async () => {
    const store = await open();
    try {
      const item = JSON.parse('{"type":"message","role":"user","content":"x","__proto__":{"polluted":true},"providerData":{"__proto__":[1,{"__proto__":null}]}}') as AgentInputItem;
      const session = new CheckpointSession(store, { sessionId: 'proto' });
      await session.addItems([item]);
      const [back] = await new CheckpointSession(store, { sessionId: 'proto' }).getItems();
      expect(Object.getPrototypeOf(back)).toBe(Object.prototype);
      const own = (o: unknown, key: string): unknown => Object.getOwnPropertyDescriptor(o, key)?.value;
      expect(own(back, '__proto__')).toEqual({ polluted: true });
      expect(JSON.stringify(own(own(back, 'providerData'), '__proto__'))).toBe('[1,{"__proto__":null}]');
      expect(comparable(back)).toEqual(comparable(item));
      expect(({} as { polluted?: boolean }).polluted).toBeUndefined();
    } finally {
      await store.close();
    }
  });

  it.skipIf(!backend.available)('stores array holes and undefined entries as null, as the docs say', async () => {
    const store = await open();
    try {
      const session = new CheckpointSession(store, { sessionId: 'holes' });
      await session.addItems([{ type: 'unknown', providerData: { list: [1, , 3, undefined] } } as unknown as AgentInputItem]);
      expect(await session.getItems()).toEqual([{ type: 'unknown', providerData: { list: [1, null, 3, null] } }]);
    } finally {
      await store.close();
    }
  });

  it.skipIf(!backend.available)('accepts the text MemorySession accepts: lone surrogates, control characters, NUL, in items, types, ids', async () => {
    const store = await open();
    try {
      const cut = '🧭'.slice(0, 1);
      const items = [
        { type: 'function_call_result', callId: 'c', name: 'f', status: 'completed', output: `cut mid-emoji ${cut}` },
        { type: 'message\u0001odd', role: 'user', content: 'a control character in the type' },
        { role: 'user', content: `low ${'🧭'.slice(1)} and key`, providerData: { [`k${cut}`]: 'v' } },
      ] as AgentInputItem[];
      for (const sessionId of ['plain', `nul\u0000id`, `lone${cut}id`, 'x'.repeat(600)]) {
        const session = new CheckpointSession(store, { sessionId });
        const reference = new MemorySession({ sessionId });
        await session.addItems(items);
        await reference.addItems(items);
        for (const operationId of [`op${cut}`, 'op\u0000nul', 'op/~%']) {
          const args = { operationId, transaction: { type: 'append_items' as const, items: [msg(operationId)] } };
          await session.applyHistoryTransaction(args);
          await session.applyHistoryTransaction(args);
          await reference.applyHistoryTransaction(args);
          await reference.applyHistoryTransaction(args);
        }
        const back = await new CheckpointSession(store, { sessionId }).getItems();
        expect(back).toEqual(await reference.getItems());
        expect((back[0] as { output: string }).output.endsWith(cut)).toBe(true);
      }
      expect((await store.verify({ namespace: 'openai-agents' })).failures).toEqual([]);
    } finally {
      await store.close();
    }
  });

  it.skipIf(!backend.available)('refuses in applyHistoryTransaction the items MemorySession refuses, with its UserError', async () => {
    const store = await open();
    try {
      const session = new CheckpointSession(store, { sessionId: 'refuse' });
      const reference = new MemorySession();
      for (const items of [[{}], [{ type: 'bogus' }], [msg('ok'), { type: 'message' }]] as unknown as AgentInputItem[][]) {
        const args = { operationId: 'op', transaction: { type: 'append_items' as const, items } };
        await expect(reference.applyHistoryTransaction(args)).rejects.toThrow(UserError);
        await expect(session.applyHistoryTransaction(args)).rejects.toThrow(UserError);
      }
      const holes = { operationId: 'op', transaction: { type: 'append_items' as const, items: [{ type: 'unknown', providerData: [1, , 2] }] as unknown as AgentInputItem[] } };
      await expect(reference.applyHistoryTransaction(holes)).rejects.toThrow(UserError);
      await expect(session.applyHistoryTransaction(holes)).rejects.toThrow(UserError);
      expect(await session.getItems()).toEqual([]);
    } finally {
      await store.close();
    }
  });

  it.skipIf(!backend.available)('refuses an item nested 100,000 levels deep with a CheckpointValidationError naming the option', async () => {
    const store = await open();
    try {
      const root: Record<string, unknown> = { type: 'unknown' };
      let at = root;
      for (let i = 0; i < 100_000; i++) at = at.providerData = {};
      const session = new CheckpointSession(store, { sessionId: 'deep' });
      const error = await session.addItems([msg('kept out'), root as AgentInputItem]).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(CheckpointValidationError);
      expect((error as Error).message).toMatch(/session "deep", item 1 of the batch: .*limits\.maxDepth/);
      expect(await session.getItems()).toEqual([]);
    } finally {
      await store.close();
    }
  });

  it.skipIf(!backend.available)('clearSession deletes the session rows and nothing else with the same session id', async () => {
    const store = await open();
    try {
      const session = new CheckpointSession(store, { sessionId: 'shared-id' });
      await session.addItems([msg('a'), largeItems()[0] as AgentInputItem]);
      await session.applyHistoryTransaction({ operationId: 'op', transaction: { type: 'append_items', items: [msg('b')] } });
      const cli = await store.create({ namespace: 'openai-agents', sessionId: 'shared-id', payload: { step: 1 } });
      const graph = await store.create({ namespace: 'openai-agents', sessionId: 'shared-id', kind: 'langgraph.checkpoint', payload: { v: 1 }, sourceRef: 'lg/shared-id/x' });
      await session.clearSession();
      expect(await session.getItems()).toEqual([]);
      const left = await store.history('shared-id', { namespace: 'openai-agents', limit: 100 });
      expect(left.map((row) => row.id).sort()).toEqual([cli.id, graph.id].sort());
      // The operation record went too: the same id applies again, as on a cleared MemorySession.
      await session.applyHistoryTransaction({ operationId: 'op', transaction: { type: 'append_items', items: [msg('c')] } });
      expect(await session.getItems()).toEqual([msg('c')]);
    } finally {
      await store.close();
    }
  });

  it.skipIf(!backend.available)('fails closed on tampered rows: binary paths, empty batches, positions at 2^53-1', async () => {
    const store = await open();
    try {
      const put = (sessionId: string, seq: number, payload: object): Promise<unknown> =>
        store.create({ namespace: 'openai-agents', sessionId, kind: ITEM_KIND, payload, sourceRef: itemRef(sessionId, seq) });
      await put('bin-missing', 1, { items: [{ type: 'unknown' }], binary: [[0, 'providerData', 'data']] });
      await put('bin-proto', 1, { items: [{ type: 'unknown', providerData: [] }], binary: [[0, 'providerData', '__proto__']] });
      await put('bin-text', 1, { items: [{ type: 'unknown', providerData: 'not base64!' }], binary: [[0, 'providerData']] });
      for (const sessionId of ['bin-missing', 'bin-proto', 'bin-text']) {
        await expect(new CheckpointSession(store, { sessionId }).getItems()).rejects.toThrow(CheckpointIntegrityError);
      }
      await put('empty', 1, { items: [msg('one')] });
      await put('empty', 2, { items: [] });
      const empty = new CheckpointSession(store, { sessionId: 'empty' });
      // Fails closed at once (an integrity error is no lost race to retry), and writes nothing.
      await expect(empty.addItems([msg('two')])).rejects.toThrow(/item row \d+ .* payload\.items must be a non-empty array/);
      expect(await store.findBySourceRef('openai-agents', itemRef('empty', 2))).toBeDefined();
      expect(await store.findBySourceRef('openai-agents', itemRef('empty', 3))).toBeUndefined();
      await put('far', Number.MAX_SAFE_INTEGER, { items: [msg('last')] });
      const far = new CheckpointSession(store, { sessionId: 'far' });
      expect(await far.getItems()).toEqual([msg('last')]);
      await expect(far.addItems([msg('past')])).rejects.toThrow(CheckpointIntegrityError);
      expect(await far.getItems()).toEqual([msg('last')]);
    } finally {
      await store.close();
    }
  });

  it.skipIf(!backend.available)('maxItems never separates a call from its output, answered out of order or in a later batch', async () => {
    const store = await open();
    try {
      for (const [callType, resultType] of [['function_call', 'function_call_result'], ['shell_call', 'shell_call_output']] as const) {
        const session = new CheckpointSession(store, { sessionId: `order-${callType}`, maxItems: 2 });
        await session.addItems([msg('q'), call('a', callType), call('b', callType)]);
        await session.addItems([result('b', resultType)]);
        await session.addItems([msg('thinking')]);
        await session.addItems([result('a', resultType)]);
        await session.addItems([msg('done')]);
        for (const snapshot of [await session.getItems()]) {
          const calls = new Set(snapshot.filter((i) => i.type === callType).map((i) => (i as { callId: string }).callId));
          for (const r of snapshot.filter((i) => i.type === resultType)) expect(calls.has((r as { callId: string }).callId)).toBe(true);
        }
      }
    } finally {
      await store.close();
    }
  });

  it.skipIf(!backend.available)('initialItems start an empty session once; logger gets the debug lines', async () => {
    const store = await open();
    try {
      const lines: string[] = [];
      const logger = { namespace: 't', debug: (m: string) => void lines.push(m), error: () => undefined, warn: () => undefined, dontLogModelData: false, dontLogToolData: false };
      const initialItems = [msg('system says hi')];
      const session = new CheckpointSession(store, { sessionId: 'seeded', initialItems, logger });
      const reference = new MemorySession({ sessionId: 'seeded', initialItems });
      initialItems.push(msg('too late'));
      await session.addItems([msg('user')]);
      await reference.addItems([msg('user')]);
      expect(await session.getItems()).toEqual(await reference.getItems());
      // A second object on the same session finds a history and keeps it.
      expect(await new CheckpointSession(store, { sessionId: 'seeded', initialItems: [msg('again')] }).getItems()).toEqual([msg('system says hi'), msg('user')]);
      expect(lines.some((line) => line.includes('Adding items') && line.includes('"user"'))).toBe(true);
      const quiet: string[] = [];
      const redacting = { ...logger, debug: (m: string) => void quiet.push(m), dontLogModelData: true };
      await new CheckpointSession(store, { sessionId: 'seeded', logger: redacting }).getItems();
      expect(quiet.length).toBe(1);
      expect(quiet[0]).not.toContain('system says hi');
    } finally {
      await store.close();
    }
  });

  it.skipIf(!backend.available)('runs a turn whose tool returns 2 MiB to the end and keeps the whole turn', async () => {
    const store = await open();
    try {
      const dump = tool({ name: 'get_weather', description: 'Big', parameters: z.object({ city: z.string() }), execute: async () => 'w'.repeat(2 * MiB) });
      const agent = new Agent({ name: 'big', instructions: 'Be brief.', model: new ScriptedModel(), tools: [dump] });
      const session = new CheckpointSession(store, { sessionId: 'turn' });
      const out = await run(agent, 'What is the weather?', { session });
      expect(String(out.finalOutput)).toContain('w'.repeat(1000));
      const items = await new CheckpointSession(store, { sessionId: 'turn' }).getItems();
      expect(items.map((i) => i.type ?? 'message')).toEqual(['message', 'reasoning', 'function_call', 'function_call_result', 'message']);
      expect(JSON.stringify(items).length).toBeGreaterThan(4 * MiB);
    } finally {
      await store.close();
    }
  });
});

describe('the CheckpointSession constructor', () => {
  it('checks its store at once: a pending store, a path, an adapter', async () => {
    const pending = openSqliteStore(join(tmp.dir, 'pending.db'));
    expect(() => new CheckpointSession(pending as unknown as CheckpointStore)).toThrow(/got a Promise .*await it first/);
    expect(() => new CheckpointSession(join(tmp.dir, 'x.db') as unknown as CheckpointStore)).toThrow(/got a string/);
    expect(() => new CheckpointSession(new MemoryAdapter() as unknown as CheckpointStore)).toThrow(CheckpointValidationError);
    await (await pending).close();
  });
});
