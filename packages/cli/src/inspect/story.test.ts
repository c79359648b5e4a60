import { describe, expect, it } from 'vitest';
import { hideInternalChannels, hideInternalOperations, isInternalChannel } from './internal.js';
import { messagePreview, PREVIEW_CHARS } from './story.js';
import type { State } from './types.js';

const lc = (cls: string, kwargs: Record<string, unknown>) => ({ lc: 1, type: 'constructor', id: ['langchain_core', 'messages', cls], kwargs });

describe('messagePreview', () => {
  it('reads LangChain serialised messages as role and text', () => {
    expect(messagePreview(lc('HumanMessage', { content: 'hi there' }))).toEqual({ role: 'human', text: 'hi there' });
    expect(messagePreview(lc('AIMessageChunk', { content: [{ type: 'text', text: 'part one' }, { type: 'text', text: 'part two' }] }))).toEqual({ role: 'ai', text: 'part one part two' });
    expect(messagePreview(lc('AIMessage', { content: '', tool_calls: [{ name: 'lookup', args: { q: 1 } }] }))).toEqual({ role: 'ai', text: 'lookup({"q":1})' });
    expect(messagePreview(lc('ToolMessage', { content: 'found', tool_call_id: 'c1' }))).toEqual({ role: 'tool', text: 'found' });
  });

  it('reads role-style messages and OpenAI Agents items', () => {
    expect(messagePreview({ role: 'user', content: 'Book a table' })).toEqual({ role: 'user', text: 'Book a table' });
    expect(messagePreview({ role: 'assistant', content: [{ type: 'output_text', text: 'Booked.' }] })).toEqual({ role: 'assistant', text: 'Booked.' });
    expect(messagePreview({ type: 'function_call', name: 'book', arguments: '{"n":2}' })).toEqual({ role: 'function_call', text: 'book({"n":2})' });
    expect(messagePreview({ type: 'function_call_result', name: 'book', output: { type: 'text', text: 'ok' } })).toEqual({ role: 'function_call_result', text: '{"type":"text","text":"ok"}' });
  });

  it('cuts long text and collapses whitespace; anything else is not a message', () => {
    const long = messagePreview({ role: 'user', content: `a  \n b ${'x'.repeat(200)}` })!;
    expect(long.text.length).toBe(PREVIEW_CHARS);
    expect(long.text.startsWith('a b x')).toBe(true);
    expect(long.text.endsWith('…')).toBe(true);
    for (const value of [null, 3, 'text', [], { step: 1 }]) expect(messagePreview(value)).toBeNull();
  });
});

describe('internal channels', () => {
  it('are the wiring channels, not the ones a person reads', () => {
    for (const name of ['__start__', '__end__', '__pregel_tasks', 'branch:to:agent', 'start:agent', 'join:a+b:c']) expect(isInternalChannel(name), name).toBe(true);
    for (const name of ['messages', '__interrupt__', '__error__', '__resume__', 'branches', 'start']) expect(isInternalChannel(name), name).toBe(false);
  });

  it('are left out of a state and a patch, and counted', () => {
    const state = {
      family: 'langgraph',
      values: { messages: [], '__start__': { messages: [] }, 'branch:to:agent': null },
      pending_writes: [['t', 'branch:to:agent', null], ['t', '__interrupt__', [{ value: 'ok?' }]]],
    } as unknown as State;
    const shown = hideInternalChannels(state) as State & { values: object; pending_writes: unknown[]; internal_hidden: string[] };
    expect(shown.values).toEqual({ messages: [] });
    expect(shown.pending_writes).toEqual([['t', '__interrupt__', [{ value: 'ok?' }]]]);
    expect(shown.internal_hidden).toEqual(['__start__', 'branch:to:agent']);
    expect(hideInternalChannels({ ...state, values: { messages: [] }, pending_writes: [] } as unknown as State)).not.toHaveProperty('internal_hidden');
    const patch = [
      { op: 'remove' as const, path: '/__start__' },
      { op: 'add' as const, path: '/branch:to:agent', value: null },
      { op: 'add' as const, path: '/messages/1', value: {} },
      { op: 'move' as const, path: '/messages/0', from: '/__pregel_tasks/0' },
    ];
    expect(hideInternalOperations(patch)).toEqual({ patch: [patch[2]], hidden: 3 });
  });
});
