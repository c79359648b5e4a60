import { HumanMessage } from '@langchain/core/messages';
import { JsonPlusSerializer } from '@langchain/langgraph-checkpoint';
import { describe, expect, it } from 'vitest';
import { captureValue, isList } from './capture.js';

/*
 * Capturing a list against the parent's JSON: an item equal by content is the parent's object
 * again (the next check is an identity), an item edited in place is captured edited, and nothing
 * captured aliases the caller's objects.
 */

const serde = new JsonPlusSerializer();

async function items(value: unknown[], previous?: readonly unknown[]): Promise<unknown[]> {
  const captured = await captureValue(serde, value, "channel 'messages'", previous);
  if (!isList(captured)) throw new Error('not captured as a list');
  return captured.items;
}

describe('captureValue with the parent list', () => {
  it('reuses the parent JSON of an unchanged item, captures an edited one anew', async () => {
    const a = new HumanMessage({ id: 'a', content: 'my card is 1234-5678' });
    const b = { id: 'b', tags: ['x'] };
    const first = await items([a, b]);
    a.content = '[REDACTED]';
    const c = new HumanMessage({ id: 'c', content: 'next' });
    const second = await items([a, b, c], first);
    expect(second[1]).toBe(first[1]);
    expect(second[0]).not.toBe(first[0]);
    expect((second[0] as { kwargs: { content: string } }).kwargs.content).toBe('[REDACTED]');
    expect((first[0] as { kwargs: { content: string } }).kwargs.content).toBe('my card is 1234-5678');
    // Nothing aliases the caller: an edit after the call changes nothing captured.
    b.tags.push('later');
    expect(second[1]).toEqual({ id: 'b', tags: ['x'] });
    expect(second[2]).not.toBe(c);
  });

  it('captures an item edited in place at the same position, nested', async () => {
    const b = { id: 'b', nested: { n: 1 } };
    const first = await items([b]);
    b.nested.n = 2;
    const second = await items([b], first);
    expect(second[0]).toEqual({ id: 'b', nested: { n: 2 } });
    expect(first[0]).toEqual({ id: 'b', nested: { n: 1 } });
  });
});
