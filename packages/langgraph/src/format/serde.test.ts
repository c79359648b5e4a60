import { AIMessage, HumanMessage, SystemMessage, ToolMessage } from '@langchain/core/messages';
import { DeltaSnapshot, JsonPlusSerializer } from '@langchain/langgraph-checkpoint';
import { describe, expect, it } from 'vitest';
import { cloneJson } from './json.js';
import type { StoredValue } from './payloads.js';
import { isThenable, loadValueNow } from './serde.js';

describe('cloneJson', () => {
  it('copies parsed JSON deeply, exactly as a stringify/parse round trip does', () => {
    const text = '{"a":[1,2.5,{"b":null,"c":"x"}],"d":{"e":true,"f":[]},"__proto__":{"polluted":1}}';
    const value = JSON.parse(text) as Record<string, unknown>;
    const copy = cloneJson(value) as Record<string, unknown>;
    expect(copy).toEqual(JSON.parse(text));
    expect(JSON.stringify(copy)).toBe(text);
    expect(copy).not.toBe(value);
    expect(copy.a).not.toBe(value.a);
    // "__proto__" stays an own property and never becomes the prototype.
    expect(Object.getPrototypeOf(copy)).toBe(Object.prototype);
    expect(Object.hasOwn(copy, '__proto__')).toBe(true);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('keeps primitives as they are', () => {
    for (const v of [null, 0, 1.5, 'x', true]) expect(cloneJson(v)).toBe(v);
  });
});

describe('loadValueNow', () => {
  const serde = new JsonPlusSerializer();

  it('returns plain JSON synchronously, a copy when the stored value is not fresh', () => {
    const stored: StoredValue = { t: 'json', j: { a: [1] } };
    const first = loadValueNow(serde, stored, true);
    expect(isThenable(first)).toBe(false);
    expect(first).toBe(stored.j);
    const again = loadValueNow(serde, stored, false);
    expect(again).toEqual(stored.j);
    expect(again).not.toBe(stored.j);
  });

  it('hands values the serializer revives to it, as a promise', async () => {
    const stored: StoredValue = { t: 'json', j: { lc: 2, type: 'constructor', id: ['Set'], method: null, args: [[1, 2]], kwargs: {} } };
    const loaded = loadValueNow(serde, stored);
    expect(isThenable(loaded)).toBe(true);
    expect(await loaded).toEqual(new Set([1, 2]));
  });
});

describe('loadValueNow on a list of LangChain messages (the per-item shortcut)', () => {
  const serde = new JsonPlusSerializer();

  /** The messages as the saver stores them: the serializer's own JSON of the list. */
  async function storedList(items: unknown[]): Promise<StoredValue> {
    const [t, bytes] = await serde.dumpsTyped(items);
    return { t, j: JSON.parse(new TextDecoder().decode(bytes)) };
  }

  /** What the serializer itself revives from the same JSON. */
  const viaSerializer = (stored: StoredValue) => serde.loadsTyped(stored.t, JSON.stringify(stored.j));

  it('revives every message kind exactly as the serializer does: same classes, same fields', async () => {
    const items = [
      new SystemMessage({ content: 'be brief', id: 's1' }),
      new HumanMessage({ content: [{ type: 'text', text: 'hi' }, { type: 'image_url', image_url: { url: 'data:image/png;base64,iVBORw0KGgo=' } }], id: 'h1', name: 'ann' }),
      new AIMessage({
        content: '',
        id: 'a1',
        tool_calls: [{ id: 'c1', name: 'search', args: { q: 'x', n: 2, nested: { deep: [1, null, 'z'] } }, type: 'tool_call' }],
        additional_kwargs: { reasoning: { steps: ['a', 'b'] } },
        response_metadata: { model: 'm', usage: { input: 3 } },
        usage_metadata: { input_tokens: 3, output_tokens: 4, total_tokens: 7 },
      }),
      new ToolMessage({ content: 'result \u2028 "quoted" \\ text', tool_call_id: 'c1', id: 't1', artifact: { rows: [1, 2] }, status: 'success' }),
      new AIMessage({ content: 'done', id: 'a2' }),
    ];
    const stored = await storedList(items);
    const loaded = loadValueNow(serde, stored);
    expect(isThenable(loaded)).toBe(true);
    const ours = (await loaded) as unknown[];
    const theirs = (await viaSerializer(stored)) as unknown[];
    expect(ours.map((m) => (m as object).constructor.name)).toEqual(['SystemMessage', 'HumanMessage', 'AIMessage', 'ToolMessage', 'AIMessage']);
    expect(ours.map((m) => (m as object).constructor)).toEqual(theirs.map((m) => (m as object).constructor));
    expect(ours).toEqual(theirs);
    expect(JSON.stringify(ours)).toBe(JSON.stringify(theirs));
  });

  it('leaves a list with anything revivable inside a message to the serializer (the shortcut would differ)', async () => {
    // An lc:2 record inside a message: the serializer's reviver turns this one into `undefined`
    // (so the key goes); handed to `load` as it is, it would stay an object.
    const stored = await storedList([new AIMessage({ content: 'x', id: 'a', additional_kwargs: { kept: 1 } })]);
    const message = (stored.j as { kwargs: { additional_kwargs: Record<string, unknown> } }[])[0]!;
    message.kwargs.additional_kwargs.gone = { lc: 2, type: 'undefined' };
    const ours = (await loadValueNow(serde, stored)) as AIMessage[];
    const theirs = (await viaSerializer(stored)) as AIMessage[];
    expect(ours).toEqual(theirs);
    expect(ours[0]?.additional_kwargs).toEqual({ kept: 1 });
  });

  it("revives DeltaChannel's snapshot of a message list as the serializer does", async () => {
    const snapshot = new DeltaSnapshot([new HumanMessage({ content: 'q', id: 'h' }), new AIMessage({ content: 'a', id: 'a' })]);
    const [t, bytes] = await serde.dumpsTyped(snapshot);
    const stored: StoredValue = { t, j: JSON.parse(new TextDecoder().decode(bytes)) };
    const ours = await loadValueNow(serde, stored);
    const theirs = await viaSerializer(stored);
    expect(ours).toBeInstanceOf(DeltaSnapshot);
    expect(ours).toEqual(theirs);
    expect(((ours as DeltaSnapshot).value as object[]).map((m) => m.constructor.name)).toEqual(['HumanMessage', 'AIMessage']);
  });

  it('leaves a list mixing messages and other items to the serializer', async () => {
    const stored = await storedList([new HumanMessage({ content: 'a', id: 'h' }), { plain: true }, 'text']);
    expect(await loadValueNow(serde, stored)).toEqual(await viaSerializer(stored));
  });
});
