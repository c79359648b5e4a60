import { AIMessage, HumanMessage } from '@langchain/core/messages';
import { JsonPlusSerializer } from '@langchain/langgraph-checkpoint';
import { canonicalize, type JsonValue } from '@session-checkpoint/core';
import fc from 'fast-check';
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

/*
 * The fast path of captureValue (an unchanged item taken as the kept JSON after one strict
 * comparison, without the walk) against the simple path (every item walked and copied): on
 * generated lists, edited in place between two puts, both give the same JSON, the same refusal,
 * and the same count of unchanged leading items.
 */
describe('captureValue against the kept list: the fast path equals the full walk', () => {
  class Box {
    constructor(readonly v: unknown) {}
  }
  const leaf = fc.oneof(
    fc.jsonValue({ maxDepth: 2 }),
    fc.constantFrom<unknown>(-0, 0, NaN, Infinity, undefined, null, '', 'x', new Date(0), new Date(Number.NaN)),
    fc.integer().map((n) => new Map([[String(n), n]])),
    fc.integer().map((n) => new Set([n])),
    fc.integer().map((n) => new Uint8Array([n & 255])),
    fc.integer().map((n) => new Int16Array([n])),
    fc.integer().map((n) => new Box(n)),
    fc.integer().map((n) => ({ toJSON: () => ({ n }) })),
    fc.string().map((content) => new HumanMessage({ id: 'h', content })),
    fc.string().map((content) => new AIMessage({ id: 'a', content, tool_calls: [{ id: 'c', name: 't', args: { q: content } }] })),
  );
  // Values whose JSON looks alike ({} for a Map, a Box, an empty Set; 0 for -0; null for NaN):
  // the fast path must tell them apart exactly as the full walk and the serializer do.
  const confusable = fc.constantFrom<() => unknown>(
    () => ({}),
    () => [],
    () => Object.create(null) as object,
    () => new Box({}),
    () => new Map(),
    () => new Set(),
    () => ({ toJSON: () => ({}) }),
    () => new Date(Number.NaN),
    () => 0,
    () => -0,
    () => NaN,
    () => null,
    () => undefined,
    () => ({ a: {} }),
    () => [{}],
  ).map((make) => make());
  const value = fc.letrec<{ v: unknown }>((tie) => ({
    v: fc.oneof({ depthSize: 'small' }, leaf, confusable, fc.record({ a: confusable, b: confusable }), fc.array(tie('v'), { maxLength: 3 }), fc.dictionary(fc.constantFrom('a', 'b', 'content', '__proto__', 'toJSON'), tie('v'), { maxKeys: 3 })),
  })).v;
  /** An edit in place: a key set (or deleted) on an object item or a message's content changed. */
  const edit = fc.record({ at: fc.nat(), key: fc.constantFrom('a', 'b', 'content'), to: fc.oneof(confusable, value), remove: fc.boolean() });
  // As stored: rows are canonical JSON, keys sorted (docs/langgraph.md, "Values").
  const text = (v: unknown) => canonicalize(v as JsonValue);
  const outcome = async (list: unknown[], previous?: readonly unknown[]) => {
    try {
      const c = await captureValue(serde, list, "channel 'messages'", previous);
      return isList(c) ? { json: text(c.items), same: c.same } : { json: text(c.stored) };
    } catch (error) {
      return { error: (error as Error).message };
    }
  };

  const pair = fc.record({ a: confusable, b: confusable });
  const pairEdit = fc.record({ at: fc.nat(), key: fc.constantFrom('a', 'b'), to: confusable, remove: fc.boolean() });
  for (const [name, items, edits, numRuns] of [
    ['generated lists', fc.array(value, { maxLength: 6 }), fc.array(edit, { maxLength: 3 }), 300],
    ['look-alike values', fc.array(pair, { minLength: 1, maxLength: 3 }), fc.array(pairEdit, { minLength: 1, maxLength: 3 }), 6000],
  ] as const) {
  it(`gives the same JSON, refusals and unchanged count on ${name} edited in place`, async () => {
    await fc.assert(
      fc.asyncProperty(items as fc.Arbitrary<unknown[]>, edits as fc.Arbitrary<{ at: number; key: string; to: unknown; remove: boolean }[]>, fc.array(value, { maxLength: 2 }), async (list, edits, appended) => {
        const items = list.map((v) => (typeof v === 'object' && v !== null ? v : { v }));
        const first = await captureValue(serde, items, "channel 'messages'").catch(() => undefined);
        if (first === undefined || !isList(first)) return; // refused at the first put: nothing kept
        for (const e of edits) {
          const target = items[e.at % Math.max(1, items.length)] as Record<string, unknown> | undefined;
          if (target === undefined || Object.isFrozen(target) || ArrayBuffer.isView(target)) continue;
          if (e.remove) delete target[e.key];
          else target[e.key] = e.to;
        }
        const next = [...items, ...appended];
        const fast = await outcome(next, first.items);
        const simple = await outcome(next);
        expect('error' in fast).toBe('error' in simple);
        if ('json' in fast && 'json' in simple) {
          expect(fast.json).toBe(simple.json);
          // The unchanged count is what a comparison of the full walk's items with the kept ones gives.
          const reference = await captureValue(serde, next, "channel 'messages'");
          if (isList(reference)) {
            let same = 0;
            while (same < first.items.length && same < reference.items.length && text(reference.items[same]) === text(first.items[same])) same++;
            expect(fast.same).toBe(same);
          }
        }
      }),
      { numRuns },
    );
  });
  }
});

/*
 * Long strings of the kept JSON found equal to the caller's are replaced by the caller's
 * (docs/decisions/0046), so that the next put compares pointers. Kept lists as a read leaves them
 * (parsed from text: strings of their own), then puts in a row with edits between them that
 * change one character of a long string, keeping its length: every put must give what the plain
 * path gives (the full walk, and the unchanged count by text), and no kept list may change.
 */
describe('captureValue against kept JSON with strings of its own: shared strings change nothing', () => {
  const long = fc.string({ minLength: 40, maxLength: 90, unit: fc.constantFrom('a', 'b', 'é', '"', '\\') });
  const key = fc.constantFrom('a', 'b', 'content', '__proto__');
  const json = fc.letrec<{ v: unknown }>((tie) => ({
    v: fc.oneof(
      { depthSize: 'small' },
      long,
      fc.constantFrom<unknown>(1, null, true, ''),
      fc.array(tie('v'), { maxLength: 3 }),
      // Own keys only (an own "__proto__" too), as JSON.parse makes them.
      fc.array(fc.tuple(key, tie('v')), { maxLength: 3 }).map((entries) => JSON.parse(JSON.stringify(Object.fromEntries(entries.map(([k, v]) => [k === '__proto__' ? '\u0000p' : k, v])))
        .replace(/\\u0000p/g, '__proto__')) as unknown),
    ),
  })).v;
  const item = fc.oneof(
    long.map((content) => new HumanMessage({ id: 'h', content })),
    fc.tuple(long, long).map(([content, q]) => new AIMessage({ id: 'a', content, tool_calls: [{ id: 'c', name: 't', args: { q } }] })),
    fc.array(fc.tuple(key, json), { minLength: 1, maxLength: 3 }).map((entries) => JSON.parse(JSON.stringify(Object.fromEntries(entries.map(([k, v]) => [k === '__proto__' ? '\u0000p' : k, v])))
      .replace(/\\u0000p/g, '__proto__')) as Record<string, unknown>),
  );
  /** An edit before a put: one character of the `nth` long string of an item changed (same length), or none. */
  const edit = fc.record({ at: fc.nat(), nth: fc.nat(), char: fc.constantFrom('a', 'z', 'é') });
  const text = (v: unknown) => canonicalize(v as JsonValue);

  /** Changes one character of the nth long string inside `value` (a message's content and args included), in place. */
  function editString(value: unknown, nth: number, char: string): boolean {
    const slots: [Record<string, unknown>, string][] = [];
    const walk = (v: unknown) => {
      if (typeof v !== 'object' || v === null) return;
      for (const k of Object.keys(v)) {
        const x = (v as Record<string, unknown>)[k];
        if (typeof x === 'string' && x.length >= 40 && k !== '__proto__') slots.push([v as Record<string, unknown>, k]);
        else walk(x);
      }
    };
    walk(value);
    if (value instanceof AIMessage) walk(value.tool_calls);
    const slot = slots[nth % Math.max(1, slots.length)];
    if (slot === undefined) return false;
    const [holder, k] = slot;
    const s = holder[k] as string;
    const i = nth % s.length;
    holder[k] = s.slice(0, i) + (s[i] === char ? 'q' : char) + s.slice(i + 1);
    return true;
  }

  it('gives the plain path\'s JSON and unchanged count, and leaves every kept list as it was', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(item, { minLength: 1, maxLength: 5 }), fc.array(fc.array(edit, { maxLength: 2 }), { minLength: 2, maxLength: 4 }), fc.boolean(), async (items, rounds, reread) => {
        const first = await captureValue(serde, items, "channel 'messages'");
        if (!isList(first)) throw new Error('not a list');
        // As a read leaves it: parsed from the row's text, so its strings are not the caller's.
        let kept: unknown[] = JSON.parse(JSON.stringify(first.items)) as unknown[];
        const seen: [unknown[], string][] = [[kept, text(kept)]];
        for (const [r, edits] of rounds.entries()) {
          for (const e of edits) editString(items[e.at % items.length], e.nth, e.char);
          // Sometimes a read in between: the next put compares with a fresh parse again.
          if (reread && r % 2 === 1) seen.push([(kept = JSON.parse(JSON.stringify(kept)) as unknown[]), text(kept)]);
          const before = kept.map(text);
          const captured = await captureValue(serde, items, "channel 'messages'", kept);
          const plain = await captureValue(serde, items, "channel 'messages'");
          if (!isList(captured) || !isList(plain)) throw new Error('not a list');
          expect(text(captured.items)).toBe(text(plain.items));
          let same = 0;
          while (same < before.length && same < plain.items.length && text(plain.items[same]) === before[same]) same++;
          expect(captured.same).toBe(same);
          for (const [list, was] of seen) expect(text(list)).toBe(was);
          kept = captured.items;
          seen.push([kept, text(kept)]);
        }
      }),
      { numRuns: 400 },
    );
  });
});
