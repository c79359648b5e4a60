import { describe, expect, it } from 'vitest';
import { MASKED_SCALAR, maskedString, redact, scrubString } from './redact.js';

describe('redact', () => {
  it('masks message contents and keeps ids, roles, types and channels', () => {
    const langchain = {
      channel: 'messages',
      value: [
        { lc: 1, type: 'constructor', id: ['langchain_core', 'messages', 'HumanMessage'], kwargs: { content: 'hello, I am Ann', id: 'm-1', additional_kwargs: {} } },
        { lc: 1, type: 'constructor', id: ['langchain_core', 'messages', 'AIMessage'], kwargs: { content: [{ type: 'text', text: 'hi Ann' }], tool_calls: [{ id: 'call-1', name: 'lookup', args: { city: 'Berlin' } }] } },
      ],
    };
    expect(redact(langchain)).toEqual({
      channel: 'messages',
      value: [
        { lc: 1, type: 'constructor', id: ['langchain_core', 'messages', 'HumanMessage'], kwargs: { content: maskedString('hello, I am Ann'), id: 'm-1', additional_kwargs: {} } },
        { lc: 1, type: 'constructor', id: ['langchain_core', 'messages', 'AIMessage'], kwargs: { content: [{ type: 'text', text: maskedString('hi Ann') }], tool_calls: [{ id: 'call-1', name: 'lookup', args: { city: maskedString('Berlin') } }] } },
      ],
    });
  });

  it('masks OpenAI Agents items: input text, function arguments and outputs', () => {
    const items = [
      { role: 'user', content: [{ type: 'input_text', text: 'call me' }] },
      { type: 'function_call', call_id: 'c1', name: 'weather', arguments: '{"city":"Paris"}' },
      { type: 'function_call_result', call_id: 'c1', output: { type: 'text', text: 'sunny' } },
    ];
    expect(redact(items)).toEqual([
      { role: 'user', content: [{ type: 'input_text', text: maskedString('call me') }] },
      { type: 'function_call', call_id: 'c1', name: 'weather', arguments: maskedString('{"city":"Paris"}') },
      { type: 'function_call_result', call_id: 'c1', output: { type: 'text', text: maskedString('sunny') } },
    ]);
  });

  it('masks every scalar under secret-looking keys, whatever the case or prefix', () => {
    expect(redact({ config: { OPENAI_API_KEY: 'sk-abc', 'x-auth-token': 'abc', db_password: 1234, nested: { secret: { a: 'b', on: true } }, Authorization: 'Bearer x' } })).toEqual({
      config: { OPENAI_API_KEY: MASKED_SCALAR, 'x-auth-token': MASKED_SCALAR, db_password: MASKED_SCALAR, nested: { secret: { a: MASKED_SCALAR, on: MASKED_SCALAR } }, Authorization: MASKED_SCALAR },
    });
  });

  it('keeps counters that only look like secrets and numbers outside secret keys', () => {
    const usage = { total_tokens: 12, token_count: 3, step: 4, count: 2.5, ok: true, none: null };
    expect(redact(usage)).toEqual(usage);
  });

  it('replaces e-mail addresses and phone-like numbers in any other string, and in keys', () => {
    expect(scrubString('write to ann.lee+x@example.co.uk or call +49 (30) 123-4567, ref 2026')).toBe('write to [email] or call [phone], ref 2026');
    expect(redact({ note: 'bob@example.com', 'ann@example.com': 1, ids: ['thread-1'] })).toEqual({ note: '[email]', '[email]': 1, ids: ['thread-1'] });
  });

  it('never mistakes ids, UUIDs, dates or times for phone numbers', () => {
    const entry = { checkpoint_id: '1f1ef1e1-5141-6110-8002-ce764316bd6b', created_at: '2026-12-03T13:32:03Z', note: 'at 2026-12-03 13:32:03 run 1f1ef1e1-4e6e-6690-8003-06c6c2a26452', id: 'user-ann@example.com' };
    expect(redact(entry)).toEqual(entry);
    expect(scrubString('call 030 1234567 or (030) 123-4567')).toBe('call [phone] or [phone]');
  });

  it('takes extra path rules to mask and to keep, with * for one segment', () => {
    const state = { values: { notes: { plan: 'secret plan' }, messages: [{ content: 'public' }, { content: 'also' }] } };
    expect(redact(state, { redact: ['/values/notes'], keep: ['/values/messages/*/content'] })).toEqual({
      values: { notes: { plan: MASKED_SCALAR }, messages: [{ content: 'public' }, { content: 'also' }] },
    });
    expect(() => redact(state, { keep: ['values'] })).toThrow(/JSON pointer/);
  });

  it('keeps structure: keys, array lengths and JSON types other than strings under content', () => {
    const value = { content: [1, null, { text: 'x', n: 2 }], list: [] };
    expect(redact(value)).toEqual({ content: [1, null, { text: maskedString('x'), n: 2 }], list: [] });
  });

  it('keeps a "__proto__" key as data', () => {
    const value = JSON.parse('{"__proto__": {"token": "t"}}') as unknown;
    const out = redact(value) as Record<string, unknown>;
    expect(Object.getPrototypeOf(out)).toBe(Object.prototype);
    expect(JSON.stringify(out)).toBe('{"__proto__":{"token":"[redacted]"}}');
  });
});
