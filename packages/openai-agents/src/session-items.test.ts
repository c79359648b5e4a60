import { MemorySession, UserError, type AgentInputItem } from '@openai/agents';
import { afterAll, describe, expect, it } from 'vitest';
import { CheckpointSession } from './index.js';
import { backends } from './test-support/backends.js';

const PNG = 'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';

/** One item of every kind the SDK stores, with the awkward values (unicode, nesting, binary, big numbers). */
const EVERY_KIND: AgentInputItem[] = [
  { role: 'user', content: 'plain user text, no type field' },
  { type: 'message', role: 'system', content: 'system prompt' },
  { type: 'message', role: 'developer', content: 'developer note', providerData: { weight: 0.5, tags: ['a', 'b'] } },
  {
    type: 'message',
    role: 'user',
    content: [
      { type: 'input_text', text: 'what is in this image? ü → 🧭 "quoted" \\ back\u0001slash' },
      { type: 'input_image', image: PNG, detail: 'high' },
      { type: 'input_file', file: 'data:application/pdf;base64,JVBERi0xLjQK', filename: 'a.pdf' },
    ],
  },
  {
    type: 'message',
    role: 'assistant',
    id: 'msg_1',
    status: 'completed',
    content: [
      { type: 'output_text', text: 'Answer', providerData: { annotations: [{ type: 'url_citation', start: 0, end: 6 }] } },
      { type: 'refusal', refusal: 'no' },
    ],
  },
  { type: 'reasoning', id: 'rs_1', content: [{ type: 'input_text', text: 'thinking' }], providerData: { encrypted_content: 'gAAAA==' } },
  { type: 'function_call', id: 'fc_1', callId: 'call_1', name: 'lookup', status: 'completed', arguments: '{"q":"x","n":12345678901}' },
  { type: 'function_call_result', callId: 'call_1', name: 'lookup', status: 'completed', output: { type: 'text', text: 'found' } },
  {
    type: 'function_call_result',
    callId: 'call_2',
    name: 'snap',
    status: 'completed',
    output: [{ type: 'image', image: { data: new Uint8Array([0, 1, 2, 250, 255]), mediaType: 'image/png' } }],
  },
  { type: 'hosted_tool_call', id: 'ws_1', name: 'web_search_call', status: 'completed', arguments: '{"query":"news"}', output: 'results' },
  { type: 'computer_call', id: 'cc_1', callId: 'call_3', status: 'completed', action: { type: 'click', x: 1, y: 2, button: 'left' } },
  { type: 'computer_call_result', callId: 'call_3', output: { type: 'computer_screenshot', data: PNG } },
  { type: 'shell_call', callId: 'call_4', status: 'completed', action: { commands: ['ls -la'], timeoutMs: 1000 } },
  { type: 'shell_call_output', callId: 'call_4', output: [{ stdout: 'a\nb', stderr: '', outcome: { type: 'exit', exitCode: 0 } }] },
  { type: 'apply_patch_call', callId: 'call_5', status: 'completed', operation: { type: 'create_file', path: 'x.txt', diff: '+hi' } },
  { type: 'apply_patch_call_output', callId: 'call_5', status: 'completed', output: 'done' },
  { type: 'compaction', encrypted_content: 'opaque-compaction' },
  { type: 'unknown', providerData: { anything: [1, null, true, { deep: { er: 'x' } }] } },
] as AgentInputItem[];

const all = backends();
afterAll(async () => {
  for (const b of all) await b.cleanup();
});

describe.each(all)('CheckpointSession items ($name)', (backend) => {
  it.skipIf(!backend.available)('round-trips every AgentInputItem kind exactly (binary data comes back as Uint8Array)', async () => {
    const store = await backend.open(backend.target());
    try {
      const session = new CheckpointSession(store, { sessionId: 'kinds' });
      const reference = new MemorySession();
      await session.addItems(EVERY_KIND);
      await reference.addItems(EVERY_KIND);
      const back = await new CheckpointSession(store, { sessionId: 'kinds' }).getItems();
      expect(back).toEqual(await reference.getItems());
      expect(back).toEqual(EVERY_KIND);
      const image = (back[8] as unknown as { output: { image: { data: unknown } }[] }).output[0]?.image.data;
      expect(image).toBeInstanceOf(Uint8Array);
      expect(Array.from(image as Uint8Array)).toEqual([0, 1, 2, 250, 255]);
      // One row for the batch, in the session's namespace, visible to the store's own tools.
      const sessions = await store.sessions({ namespace: 'openai-agents' });
      expect(sessions).toEqual([expect.objectContaining({ sessionId: 'kinds', count: 1 })]);
      expect((await store.verify({ namespace: 'openai-agents' })).failures).toEqual([]);
    } finally {
      await store.close();
    }
  });

  it.skipIf(!backend.available)('keeps sessions apart whatever their ids, and pages long histories in order', async () => {
    const store = await backend.open(backend.target());
    try {
      const ids = ['a', 'a/b', 'a%2Fb', '~a', 'x'.repeat(300), 'x'.repeat(299) + 'y'];
      for (const [n, sessionId] of ids.entries()) await new CheckpointSession(store, { sessionId }).addItems([{ role: 'user', content: `only ${n}` }]);
      for (const [n, sessionId] of ids.entries()) {
        expect(await new CheckpointSession(store, { sessionId }).getItems()).toEqual([{ role: 'user', content: `only ${n}` }]);
      }
      const long = new CheckpointSession(store, { sessionId: 'long' });
      const items: AgentInputItem[] = Array.from({ length: 1_100 }, (_, i) => ({ role: 'user', content: `m${i}` }));
      for (let i = 0; i < items.length; i += 275) await long.addItems(items.slice(i, i + 275));
      expect(await long.getItems()).toEqual(items);
      expect(await long.getItems(550)).toEqual(items.slice(550));
      expect(await long.getItems(501)).toEqual(items.slice(-501));
      expect(await long.getItems(5_000)).toEqual(items);
    } finally {
      await store.close();
    }
  });

  it.skipIf(!backend.available)('applyHistoryTransaction is idempotent by operation id and all or nothing', async () => {
    const store = await backend.open(backend.target());
    try {
      const session = new CheckpointSession(store, { sessionId: 'tx' });
      const [a, b, c, d] = EVERY_KIND.slice(4, 8) as AgentInputItem[];
      await session.addItems([a!]);
      const append = { type: 'append_items' as const, items: [b!, c!] };
      await session.applyHistoryTransaction({ operationId: 'op-1', transaction: append });
      await session.applyHistoryTransaction({ operationId: 'op-1', transaction: structuredClone(append) });
      expect(await session.getItems()).toEqual([a, b, c]);

      // The same id with another transaction: refused, nothing changes.
      await expect(session.applyHistoryTransaction({ operationId: 'op-1', transaction: { type: 'append_items', items: [d!] } })).rejects.toThrow(UserError);
      // A suffix that does not match: refused, nothing changes, the id stays free.
      const wrong = { type: 'replace_suffix' as const, expectedSuffix: [a!, c!], replacement: [d!] };
      await expect(session.applyHistoryTransaction({ operationId: 'op-2', transaction: wrong })).rejects.toThrow(/no longer matches/);
      const longer = { type: 'replace_suffix' as const, expectedSuffix: [d!, a!, b!, c!], replacement: [] };
      await expect(session.applyHistoryTransaction({ operationId: 'op-2', transaction: longer })).rejects.toThrow(/no longer matches/);
      expect(await session.getItems()).toEqual([a, b, c]);

      const replace = { type: 'replace_suffix' as const, expectedSuffix: [b!, c!], replacement: [d!, b!, d!] };
      await session.applyHistoryTransaction({ operationId: 'op-2', transaction: replace });
      expect(await session.getItems()).toEqual([a, d, b, d]);
      // Repeating op-2 after the history moved on is still a no-op success (its record wins over the suffix).
      await session.applyHistoryTransaction({ operationId: 'op-2', transaction: replace });
      expect(await session.getItems()).toEqual([a, d, b, d]);
      await session.addItems([c!]);
      expect(await session.getItems(2)).toEqual([d, c]);

      // Malformed arguments are refused before anything is written.
      await expect(session.applyHistoryTransaction({ operationId: ' ', transaction: append })).rejects.toThrow(/operationId/);
      await expect(
        session.applyHistoryTransaction({ operationId: 'op-3', transaction: { type: 'append_items', items: [{ role: 'user', content: 'x', f: () => 1 } as unknown as AgentInputItem] } }),
      ).rejects.toThrow(/unsupported data/);
      expect(await session.getItems()).toEqual([a, d, b, d, c]);
    } finally {
      await store.close();
    }
  });

  it.skipIf(!backend.available)('one row per batch: pop and suffix replacement rewrite the rest of a row; big batches split; old single-item rows read', async () => {
    const store = await backend.open(backend.target());
    try {
      const msg = (text: string): AgentInputItem => ({ role: 'user', content: text });
      const rowsOf = async (sessionId: string) => (await store.listBySourceRefPrefix({ namespace: 'openai-agents', prefix: `oa/${sessionId}/i/`, limit: 100 })).length;
      const session = new CheckpointSession(store, { sessionId: 'batches' });
      await session.addItems([msg('1'), msg('2'), msg('3')]);
      await session.addItems([msg('4'), msg('5'), msg('6')]);
      expect(await rowsOf('batches')).toBe(2);
      expect(await session.getItems(4)).toEqual([msg('3'), msg('4'), msg('5'), msg('6')]);
      expect(await session.popItem()).toEqual(msg('6'));
      expect(await session.getItems()).toEqual(['1', '2', '3', '4', '5'].map(msg));
      // The suffix starts inside the first row: its head stays, the replacement follows.
      const replace_suffix = { type: 'replace_suffix' as const, expectedSuffix: ['3', '4', '5'].map(msg), replacement: [msg('r')] };
      await session.applyHistoryTransaction({ operationId: 'inside', transaction: replace_suffix });
      expect(await session.getItems()).toEqual(['1', '2', 'r'].map(msg));
      await session.addItems([msg('7')]);
      expect(await session.getItems(2)).toEqual([msg('r'), msg('7')]);
      expect(await session.popItem()).toEqual(msg('7'));
      expect(await session.popItem()).toEqual(msg('r'));
      expect(await session.getItems()).toEqual([msg('1'), msg('2')]);
      expect(await rowsOf('batches')).toBe(1);

      // A batch larger than a row may be goes into several rows, in order.
      const big = Array.from({ length: 4 }, (_, i) => msg(`${i}`.padEnd(400_000, 'x')));
      const large = new CheckpointSession(store, { sessionId: 'large' });
      await large.addItems(big);
      expect(await rowsOf('large')).toBe(2);
      expect(await large.getItems()).toEqual(big);
      expect(await large.getItems(3)).toEqual(big.slice(1));

      // Rows of the unbatched layout (kind openai-agents.item, one item each) are read and continued.
      for (const [seq, text] of [[1, 'old 1'], [2, 'old 2']] as const) {
        await store.create({ namespace: 'openai-agents', sessionId: 'legacy', kind: 'openai-agents.item', name: 'message', payload: { item: msg(text) }, sourceRef: `oa/legacy/i/${String(seq).padStart(16, '0')}` });
      }
      const legacy = new CheckpointSession(store, { sessionId: 'legacy' });
      await legacy.addItems([msg('new 3'), msg('new 4')]);
      expect(await legacy.getItems()).toEqual(['old 1', 'old 2', 'new 3', 'new 4'].map(msg));
      expect(await legacy.getItems(3)).toEqual(['old 2', 'new 3', 'new 4'].map(msg));
    } finally {
      await store.close();
    }
  });

  it.skipIf(!backend.available)('maxItems keeps the newest items and never separates a tool call from its result', async () => {
    const store = await backend.open(backend.target());
    try {
      const session = new CheckpointSession(store, { sessionId: 'kept', maxItems: 3 });
      const msg = (text: string): AgentInputItem => ({ role: 'user', content: text });
      const call = (id: string): AgentInputItem => ({ type: 'function_call', callId: id, name: 'f', arguments: '{}', status: 'completed' });
      const result = (id: string): AgentInputItem => ({ type: 'function_call_result', callId: id, name: 'f', status: 'completed', output: 'ok' });
      await session.addItems([msg('1'), msg('2')]);
      await session.addItems([msg('3'), msg('4')]);
      expect(await session.getItems()).toEqual([msg('2'), msg('3'), msg('4')]);
      // Parallel calls: the nominal cut falls between call a and call b; a's result comes after b,
      // so the cut moves past it, and b's result then has no call: it goes too.
      await session.addItems([call('a'), call('b'), result('a'), result('b')]);
      expect(await session.getItems()).toEqual([]);
      await session.addItems([msg('5'), call('c'), result('c')]);
      expect(await session.getItems()).toEqual([msg('5'), call('c'), result('c')]);
      await session.addItems([msg('6')]);
      // Dropping msg 5 alone would leave 3; the pair stays whole.
      expect(await session.getItems()).toEqual([call('c'), result('c'), msg('6')]);
      await session.addItems([msg('7')]);
      expect(await session.getItems()).toEqual([msg('6'), msg('7')]);
      // A call still waiting for its result holds the cut: more than maxItems stay until it is answered.
      await session.addItems([call('late'), msg('8'), msg('9')]);
      expect(await new CheckpointSession(store, { sessionId: 'kept' }).getItems()).toEqual([call('late'), msg('8'), msg('9')]);
      await session.addItems([msg('10')]);
      expect(await session.getItems()).toEqual([call('late'), msg('8'), msg('9'), msg('10')]);
      // Answered: the call is doomed, so its result goes with it, and the cut moves past the result.
      await session.addItems([result('late'), msg('11')]);
      expect(await session.getItems()).toEqual([msg('11')]);
    } finally {
      await store.close();
    }
  });
});
