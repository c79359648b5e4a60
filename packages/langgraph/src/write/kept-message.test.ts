import { Serializable } from '@langchain/core/load/serializable';
import {
  AIMessage,
  AIMessageChunk,
  BaseMessage,
  BaseMessageChunk,
  ChatMessage,
  ChatMessageChunk,
  FunctionMessage,
  FunctionMessageChunk,
  HumanMessage,
  HumanMessageChunk,
  RemoveMessage,
  SystemMessage,
  SystemMessageChunk,
  ToolMessage,
  ToolMessageChunk,
} from '@langchain/core/messages';
import { MemorySaver } from '@langchain/langgraph';
import { JsonPlusSerializer } from '@langchain/langgraph-checkpoint';
import { canonicalize, type JsonValue } from '@session-checkpoint/core';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { SessionCheckpointSaver } from '../index.js';
import { backends } from '../test-support/backends.js';
import { cfg, checkpointWith, meta } from '../test-support/checkpoints.js';
import { captureValue, isList } from './capture.js';
import { sameMessageAsKept } from './kept-message.js';

/*
 * A message is compared with its kept JSON without its toJSON() (docs/decisions/0050). Generated
 * lists of messages are put in rounds, edited in place between the rounds in every field toJSON()
 * reads: content (a string, array parts), additional_kwargs (deep), response_metadata, tool_calls,
 * id, name, lc_kwargs itself (replaced, a key added, deleted, undefined), an own property that
 * shadows an lc_kwargs key, an own toJSON (instance and subclass), an instance getter, an instance
 * lc_id, lc_namespace, lc_serializable, the prototype (Object.setPrototypeOf to classes whose alias,
 * secret or attribute getters differ, one of them reading the instance, one reading state a test
 * flips), a static lc_name. Each round the capture against the kept JSON must give exactly what the
 * plain path gives (every message through toJSON(), no kept list) and what the serializer writes
 * (MemorySaver's bytes), and the same count of unchanged items. A check dropped from
 * sameMessageAsKept makes one of these fail (each was dropped once when this was written).
 */

const serde = new JsonPlusSerializer();
const text = (v: unknown) => canonicalize(v as JsonValue);

/** State some getters read; reset at each run. */
const state = { text: 'from a getter', aliasOn: false, name: 'Named' };

class Aliased extends HumanMessage {
  override get lc_aliases(): Record<string, string> {
    return { ...super.lc_aliases, content: 'body' };
  }
}
class Secret extends HumanMessage {
  override get lc_secrets(): Record<string, string> {
    return { 'additional_kwargs.token': 'TOKEN' };
  }
}
class Attributed extends HumanMessage {
  override get lc_attributes(): Record<string, unknown> {
    return { extra_attr: state.text };
  }
}
/** Secrets that follow state the test flips. */
class SecretSwitch extends HumanMessage {
  override get lc_secrets(): Record<string, string> | undefined {
    return state.aliasOn ? { 'additional_kwargs.token': 'TOKEN' } : undefined;
  }
}
/** An attribute over a key of lc_kwargs: the JSON shows the attribute, whatever the field holds. */
class AttrOverride extends HumanMessage {
  override get lc_attributes(): Record<string, unknown> {
    return { content: state.text };
  }
}
/** Aliases that follow state the test flips: a class getter is not trusted to be constant. */
class Switch extends AIMessage {
  override get lc_aliases(): Record<string, string> {
    return state.aliasOn ? { ...super.lc_aliases, content: 'switched' } : super.lc_aliases;
  }
}
/** An alias that, once state flips, names content as another lc_kwargs key is named: two keys, one name. */
class ClashSwitch extends HumanMessage {
  override get lc_aliases(): Record<string, string> {
    return state.aliasOn ? { ...super.lc_aliases, content: 'body' } : super.lc_aliases;
  }
}
/** An lc_kwargs key the prototype answers (a getter of state): toJSON reads the getter, not lc_kwargs. */
class ProtoGetter extends HumanMessage {
  get extra(): string {
    return state.text;
  }
  set extra(v: string) {
    state.text = v;
  }
}
/** Aliases that follow the instance: getters are called with the message as receiver. */
class PerInstance extends HumanMessage {
  override get lc_aliases(): Record<string, string> {
    return (this as unknown as { flag?: boolean }).flag ? { ...super.lc_aliases, content: 'flagged' } : super.lc_aliases;
  }
}
class OwnToJSON extends HumanMessage {
  override toJSON() {
    const shown = super.toJSON() as unknown as { kwargs: Record<string, unknown> };
    return { ...shown, kwargs: { ...shown.kwargs, content: `own:${String(this.content)}` } } as unknown as ReturnType<HumanMessage['toJSON']>;
  }
}
class Named extends HumanMessage {
  static override lc_name(): string {
    return state.name;
  }
}
class Box {
  constructor(readonly v: unknown) {}
}
/** An array whose JSON is its toJSON's, not its items (toJSON's map builds one of these too). */
class Rev<T> extends Array<T> {
  toJSON(): T[] {
    return Array.from(this).reverse();
  }
}
/** A base whose alias follows state, under a class that overrides lc_aliases without super: toJSON merges both, the base's last. */
class BaseSwitch extends HumanMessage {
  override get lc_aliases(): Record<string, string> {
    return state.aliasOn ? { content: 'based' } : {};
  }
}
class OverridesBase extends BaseSwitch {
  override get lc_aliases(): Record<string, string> {
    return {};
  }
}

/*
 * LangChain's own prototypes patched (docs/decisions/0055): the check keeps the alias answer of a
 * chain of LangChain's prototypes as loaded, so every way of changing one is an edit here, applied
 * between rounds and, by a getter of a message (read by the check and by toJSON), during a capture.
 * `patches` is the whole state; `setPatches` makes the prototypes match it, putting LangChain's own
 * descriptors back (the same getter functions) where a patch is off.
 */
interface Patches {
  /** AIMessage.prototype's lc_aliases replaced: content named this. */
  ai?: string;
  /** BaseMessage.prototype's lc_aliases replaced: content named this. */
  base?: string;
  /** An lc_aliases getter added on HumanMessage.prototype (which has none of its own): content named this. */
  human?: string;
  /** lc_secrets added on BaseMessage.prototype. */
  secret?: boolean;
  /** lc_attributes added on BaseMessage.prototype. */
  attr?: boolean;
  /** HumanMessage.prototype's prototype set to an object of ours (with lc_aliases) over BaseMessage.prototype. */
  humanChain?: boolean;
  /** AIMessage.prototype's prototype set to another such object. */
  aiChain?: boolean;
}
const patches: Patches = {};
const aiAliases = Object.getOwnPropertyDescriptor(AIMessage.prototype, 'lc_aliases') as PropertyDescriptor;
const baseAliases = Object.getOwnPropertyDescriptor(BaseMessage.prototype, 'lc_aliases') as PropertyDescriptor;
const chainedProto = (content: string) => Object.create(BaseMessage.prototype, { lc_aliases: { get: () => ({ content }), configurable: true } }) as object;
const humanChained = chainedProto('chained');
const aiChained = chainedProto('ai_chained');
function setPatches(next: Patches): void {
  Object.assign(patches, { ai: undefined, base: undefined, human: undefined, secret: false, attr: false, humanChain: false, aiChain: false }, next);
  const aliasOver = (original: PropertyDescriptor, content: string | undefined): PropertyDescriptor =>
    content === undefined
      ? original
      : {
          get(this: unknown) {
            return { ...(original.get?.call(this) as object), content };
          },
          configurable: true,
        };
  Object.defineProperty(AIMessage.prototype, 'lc_aliases', aliasOver(aiAliases, patches.ai));
  Object.defineProperty(BaseMessage.prototype, 'lc_aliases', aliasOver(baseAliases, patches.base));
  const own = (proto: object, name: string, get: (() => unknown) | undefined) => void (get ? Object.defineProperty(proto, name, { get, configurable: true }) : delete (proto as Record<string, unknown>)[name]);
  const human = patches.human;
  own(HumanMessage.prototype, 'lc_aliases', human === undefined ? undefined : () => ({ content: human }));
  own(BaseMessage.prototype, 'lc_secrets', patches.secret ? () => ({ 'additional_kwargs.token': 'TOKEN' }) : undefined);
  own(BaseMessage.prototype, 'lc_attributes', patches.attr ? () => ({ extra_attr: 'attr' }) : undefined);
  Object.setPrototypeOf(HumanMessage.prototype, patches.humanChain ? humanChained : BaseMessage.prototype);
  Object.setPrototypeOf(AIMessage.prototype, patches.aiChain ? aiChained : BaseMessage.prototype);
}
/** The patches a getter of a message makes when read (`s` picks which): the same state at every read. */
const duringPatch = (s: string): ((now: Patches) => Patches) =>
  [(now: Patches) => ({ ...now, ai: `during${s}` }), () => ({}), (now: Patches) => ({ ...now, humanChain: true }), (now: Patches) => ({ ...now, secret: true }), (now: Patches) => ({ ...now, base: 'during' })][s.length % 5] as (now: Patches) => Patches;

type Message = Record<string, unknown> & { content: unknown; additional_kwargs: Record<string, unknown>; response_metadata: Record<string, unknown>; lc_kwargs: Record<string, unknown> };

const str = fc.string({ maxLength: 6 });
const id = fc.option(fc.constantFrom('a', 'b', 'c'), { nil: undefined });
/** A message of LangChain's classes or of the subclasses above, some with an lc_kwargs key the instance does not have. */
const message: fc.Arbitrary<BaseMessage> = fc.oneof(
  fc.record({ content: str, id }).map((f) => new HumanMessage(f)),
  fc.record({ content: str, id, name: str }).map((f) => new HumanMessage(f)),
  fc.record({ content: str, id }).map((f) => new HumanMessage({ ...f, extra: 'kw' } as ConstructorParameters<typeof HumanMessage>[0])),
  // A key of lc_kwargs that Aliased's alias of content names too, holding the same text.
  str.map((content) => new HumanMessage({ content, body: content } as ConstructorParameters<typeof HumanMessage>[0])),
  fc.record({ content: str, id }).map((f) => new HumanMessage({ ...f, additional_kwargs: { token: 'sk' } })),
  fc.record({ t: str, id }).map((f) => new HumanMessage({ id: f.id, content: [{ type: 'text', text: f.t }] })),
  fc.record({ content: str, q: str, id }).map((f) => new AIMessage({ id: f.id, content: f.content, tool_calls: [{ id: 'c', name: 't', args: { q: f.q } }] })),
  fc.record({ content: str, id }).map((f) => new AIMessage({ ...f, response_metadata: { model: 'm', usage: { n: 1 } }, additional_kwargs: { deep: { a: [1, { b: 'x' }] } } })),
  fc.record({ content: str, id }).map((f) => new ToolMessage({ ...f, tool_call_id: 'c' })),
  str.map((content) => new SystemMessage(content)),
  str.map((content) => new Aliased({ content })),
  str.map((content) => new Secret({ content, additional_kwargs: { token: 'sk' } })),
  str.map((content) => new Attributed({ content })),
  str.map((content) => new ProtoGetter({ content, extra: state.text } as ConstructorParameters<typeof HumanMessage>[0])),
  str.map((content) => new ClashSwitch({ content, body: content } as ConstructorParameters<typeof HumanMessage>[0])),
  fc.constant(0).map(() => new SecretSwitch({ content: 'c', additional_kwargs: { token: 'sk' } })),
  fc.constant(0).map(() => new AttrOverride({ content: state.text })),
  str.map((content) => new Switch({ content })),
  str.map((content) => new PerInstance({ content })),
  str.map((content) => new OwnToJSON({ content })),
  str.map((content) => new Named({ content })),
  str.map((content) => new OverridesBase({ content })),
  str.map((t) => new HumanMessage({ content: 'r', additional_kwargs: { tags: Rev.from(['x', t]) } })),
);

/** Messages of LangChain's own classes only: the chains whose alias answer the check keeps. */
const stock: fc.Arbitrary<BaseMessage> = fc.oneof(
  fc.record({ content: str, id }).map((f) => new HumanMessage(f)),
  fc.record({ content: str, id }).map((f) => new HumanMessage({ ...f, extra: 'kw' } as ConstructorParameters<typeof HumanMessage>[0])),
  fc.record({ content: str, id }).map((f) => new HumanMessage({ ...f, additional_kwargs: { token: 'sk' } })),
  fc.record({ content: str, q: str, id }).map((f) => new AIMessage({ id: f.id, content: f.content, tool_calls: [{ id: 'c', name: 't', args: { q: f.q } }] })),
  fc.record({ content: str, id }).map((f) => new AIMessage({ ...f, extra: 'kw' } as ConstructorParameters<typeof AIMessage>[0])),
  fc.record({ content: str, id }).map((f) => new AIMessageChunk(f)),
  fc.record({ content: str, id }).map((f) => new ToolMessage({ ...f, tool_call_id: 'c' })),
  str.map((content) => new SystemMessage(content)),
);

/** Edits in place of one message (`s` a generated string), every field toJSON() reads. */
const edits: Record<string, (m: Message, s: string) => void> = {
  contentString: (m, s) => void (m.content = typeof m.content === 'string' ? m.content + s : s),
  contentSameText: (m) => void (typeof m.content === 'string' && (m.content = ` ${m.content}`.slice(1))),
  contentParts: (m, s) => void (m.content = [{ type: 'text', text: s }]),
  contentPartEdit: (m, s) => void (Array.isArray(m.content) && m.content[0] && ((m.content[0] as Record<string, unknown>).text = s)),
  contentPartPush: (m, s) => void (Array.isArray(m.content) && m.content.push({ type: 'text', text: s })),
  kwargsDeep: (m, s) => void ((m.additional_kwargs.deep ??= { a: [1, { b: 'x' }] }) as { a: unknown[] }).a.push(s),
  kwargsDeepEdit: (m, s) => void (((m.additional_kwargs.deep as { a?: [unknown, Record<string, unknown>] } | undefined)?.a?.[1] ?? {}).b = s),
  kwargsDelete: (m) => void delete m.additional_kwargs.deep,
  kwargsLcKey: (m, s) => void (m.additional_kwargs.esc = { lc: 1, s }),
  kwargsEscapedKey: (m, s) => void (m.additional_kwargs.esc = { __lc_escaped__: s }),
  kwargsSerializable: (m, s) => void (m.additional_kwargs.inner = new HumanMessage(s)),
  kwargsHiddenLc: (m) => void Object.defineProperty(m.additional_kwargs, 'lc', { value: 1, enumerable: false, configurable: true }),
  kwargsSerializableLike: (m) => void (m.additional_kwargs.deep !== null && typeof m.additional_kwargs.deep === 'object' && Object.setPrototypeOf(m.additional_kwargs.deep, { lc_serializable: true, toJSON: () => 'serializable' })),
  kwargsInheritedEscapedKey: (m) => void Object.setPrototypeOf(m.additional_kwargs, { __lc_escaped__: 1 }),
  kwargsUndefined: (m) => void (m.additional_kwargs.u = undefined),
  kwargsDate: (m) => void (m.additional_kwargs.when = new Date(0)),
  kwargsClass: (m, s) => void (m.additional_kwargs.box = new Box(s)),
  kwargsSelf: (m) => void (m.additional_kwargs.self = m),
  // Arrays whose JSON is not their items: a subclass with toJSON, an own map (found in review).
  kwargsRev: (m, s) => void (m.additional_kwargs.tags = Rev.from(['x', s])),
  kwargsTagsReverse: (m) => void (Array.isArray(m.additional_kwargs.tags) && m.additional_kwargs.tags.reverse()),
  kwargsOwnMap: (m) => void (Array.isArray(m.additional_kwargs.tags) && Object.defineProperty(m.additional_kwargs.tags, 'map', { value(this: unknown[], f: (x: unknown, i: number, a: unknown[]) => unknown) { return [...this].reverse().map(f); }, configurable: true })),
  // Arrays that shrink, or turn into objects keyed by index.
  contentPartPop: (m) => void (Array.isArray(m.content) && m.content.pop()),
  toolCallsClear: (m) => void (Array.isArray(m.tool_calls) && (m.tool_calls.length = 0)),
  contentPartsAsObject: (m) => void (Array.isArray(m.content) && (m.content = Object.assign({}, m.content) as unknown)),
  kwargsArrayAsObject: (m) => void (Array.isArray(m.additional_kwargs.tags) && (m.additional_kwargs.tags = Object.assign({}, m.additional_kwargs.tags))),
  token: (m, s) => void (m.additional_kwargs.token = s),
  metadata: (m, s) => void (m.response_metadata.model = s),
  metadataReplace: (m, s) => void (m.response_metadata = { other: s }),
  toolCallArgs: (m, s) => void (Array.isArray(m.tool_calls) && m.tool_calls[0] && ((m.tool_calls[0] as { args: Record<string, unknown> }).args.q = s)),
  toolCallPush: (m, s) => void (Array.isArray(m.tool_calls) && m.tool_calls.push({ id: s, name: 't', args: {}, type: 'tool_call' })),
  id: (m, s) => void (m.id = s),
  name: (m, s) => void (m.name = s),
  lcKwargsReplace: (m, s) => void (m.lc_kwargs = { ...m.lc_kwargs, extra: s }),
  lcKwargsAdd: (m, s) => void (m.lc_kwargs.extra = s),
  lcKwargsDelete: (m) => void delete m.lc_kwargs.response_metadata,
  lcKwargsUndefined: (m) => void (m.lc_kwargs.gone = undefined),
  // One key for another, as many keys: the new one undefined (left out of the JSON).
  lcKwargsSwapUndefined: (m) => void (delete m.lc_kwargs.response_metadata, (m.lc_kwargs.gone = undefined)),
  lcKwargsShadowed: (m, s) => void (m.lc_kwargs.content = s),
  lcKwargsAliasClash: (m, s) => void (m.lc_kwargs.body = s),
  // A key the prototype has (BaseMessage's text getter): toJSON reads the getter, not lc_kwargs.
  // (The getter throws once content is neither string nor array: then any string.)
  lcKwargsProtoKey: (m, s) => {
    try {
      m.lc_kwargs.text = m.text;
    } catch {
      m.lc_kwargs.text = s;
    }
  },
  lcKwargsArray: (m) => void (m.lc_kwargs = [] as unknown as Record<string, unknown>),
  shadow: (m, s) => void (m.extra = s),
  ownToJSON: (m, s) => void (m.toJSON = () => ({ lc: 1, type: 'constructor', id: ['x'], kwargs: { s } })),
  instanceGetter: (m) => void Object.defineProperty(m, 'content', { get: () => state.text, set: (v: string) => void (state.text = v), configurable: true, enumerable: true }),
  getterState: (_m, s) => void (state.text = s),
  instanceAliases: (m) => void Object.defineProperty(m, 'lc_aliases', { get: () => ({ content: 'instance' }), configurable: true }),
  instanceLcId: (m, s) => void Object.defineProperty(m, 'lc_id', { value: ['x', s], configurable: true, writable: true }),
  notSerializable: (m) => void (m.lc_serializable = false),
  namespacePush: (m, s) => void (m.lc_namespace as string[]).push(s),
  namespaceReplace: (m, s) => void (m.lc_namespace = ['langchain_core', s]),
  protoAI: (m) => void Object.setPrototypeOf(m, AIMessage.prototype),
  protoHuman: (m) => void Object.setPrototypeOf(m, HumanMessage.prototype),
  protoAliased: (m) => void Object.setPrototypeOf(m, Aliased.prototype),
  protoOverridesBase: (m) => void Object.setPrototypeOf(m, OverridesBase.prototype),
  protoSecret: (m) => void Object.setPrototypeOf(m, Secret.prototype),
  protoSecretSwitch: (m) => void Object.setPrototypeOf(m, SecretSwitch.prototype),
  protoAttributed: (m) => void Object.setPrototypeOf(m, Attributed.prototype),
  protoOwnToJSON: (m) => void Object.setPrototypeOf(m, OwnToJSON.prototype),
  protoPlain: (m) => void Object.setPrototypeOf(m, Object.prototype),
  aliasSwitch: () => void (state.aliasOn = !state.aliasOn),
  flag: (m) => void (m.flag = !m.flag),
  lcName: (_m, s) => void (state.name = s || 'Named'),
  // LangChain's own prototypes patched, put back, their chains changed (see `setPatches`).
  protoPatchAI: (_m, s) => setPatches({ ...patches, ai: `ai${s}` }),
  protoPatchBase: (_m, s) => setPatches({ ...patches, base: `base${s}` }),
  protoAddHuman: (_m, s) => setPatches({ ...patches, human: `human${s}` }),
  protoAddSecret: () => setPatches({ ...patches, secret: !patches.secret }),
  protoAddAttribute: () => setPatches({ ...patches, attr: !patches.attr }),
  protoChainHuman: () => setPatches({ ...patches, humanChain: !patches.humanChain }),
  protoChainAI: () => setPatches({ ...patches, aiChain: !patches.aiChain }),
  protoPutBack: () => setPatches({}),
  protoPatchAIOff: () => setPatches({ ...patches, ai: undefined }),
  // A getter of this message patches (or puts back) LangChain's prototypes when read: during the capture.
  protoDuring: (m, s) => {
    let value = m.content;
    const next = duringPatch(s);
    Object.defineProperty(m, 'content', {
      get: () => (setPatches(next(patches)), value),
      set: (v: unknown) => void (value = v),
      configurable: true,
      enumerable: true,
    });
  },
};

/** The list's items as the serializer writes them (what MemorySaver stores), or the error. */
async function oracle(list: unknown[]): Promise<string> {
  try {
    const [, bytes] = await serde.dumpsTyped(list);
    return text(JSON.parse(new TextDecoder().decode(bytes)));
  } catch (error) {
    return `error: ${(error as Error).message}`;
  }
}

/** The items captured (against `kept`, or by the plain path without), as text, and the unchanged count. */
async function captured(list: unknown[], kept?: unknown[]): Promise<{ json: string; items?: unknown[]; same?: number }> {
  try {
    const c = await captureValue(serde, list, "channel 'messages'", kept);
    if (!isList(c)) throw new Error('not a list');
    return { json: text(c.items), items: c.items, same: c.same };
  } catch (error) {
    return { json: `error: ${(error as Error).message}` };
  }
}

describe('a message compared without its toJSON()', () => {
  it('tells an unchanged message of each of LangChain\'s classes without toJSON(), so the property below is not vacuous', async () => {
    const list = [
      new HumanMessage({ id: 'h', content: 'question' }),
      new AIMessage({ id: 'a', content: '', tool_calls: [{ id: 'c', name: 't', args: { q: 'x' } }], response_metadata: { model: 'm' } }),
      new ToolMessage({ id: 't', tool_call_id: 'c', content: 'result' }),
      new SystemMessage('system'),
      new HumanMessage({ content: [{ type: 'text', text: 'part' }], additional_kwargs: { deep: { a: [1, { b: null }] } } }),
    ];
    const first = await captured(list);
    for (const [i, m] of list.entries()) expect(sameMessageAsKept(m, first.items?.[i])).toBe(true);
    // And not once changed, nor against another message's JSON.
    (list[2] as ToolMessage).content = 'edited';
    expect(sameMessageAsKept(list[2], first.items?.[2])).toBe(false);
    expect(sameMessageAsKept(list[0], first.items?.[1])).toBe(false);
    // A getter that throws (LangChain's `text` once content is an object) throws out of the check
    // as out of toJSON(): the put fails as without kept JSON (found by a generated run in CI).
    const odd = list[0] as HumanMessage;
    odd.lc_kwargs.text = odd.text;
    const withText = await captured(list);
    expect(sameMessageAsKept(odd, withText.items?.[0])).toBe(true);
    (odd as { content: unknown }).content = { 0: 'x' };
    expect(() => sameMessageAsKept(odd, withText.items?.[0])).toThrow();
    const again = await captured(list, withText.items);
    expect(again.json).toMatch(/^error: /);
    expect(again.json).toBe((await captured(list)).json);
  });

  it('fails the put as toJSON() does when a getter throws on its first read only (found in review)', async () => {
    const m = new HumanMessage({ id: 'h', content: 'a' });
    const kept = (await captured([m])).items;
    const arm = () => {
      let reads = 0;
      Object.defineProperty(m, 'content', {
        get: () => {
          if (reads++ === 0) throw new Error('first read fails');
          return 'a';
        },
        configurable: true,
        enumerable: true,
      });
    };
    arm();
    const ours = await captured([m], kept);
    arm();
    expect(ours.json).toBe('error: first read fails');
    expect((await captured([m])).json).toBe(ours.json);
  });

  describe('reads as toJSON() reads (found in the second review)', () => {
    /** Ours against `kept` and the plain path, after `edit`, with `undo` run whatever happens. */
    async function samePaths(list: unknown[], edit: () => void, undo: () => void = () => undefined): Promise<string> {
      const kept = (await captured(list)).items;
      try {
        edit();
        const ours = await captured(list, kept);
        expect(ours.json).toBe((await captured(list)).json);
        return ours.json;
      } finally {
        undo();
      }
    }

    it("an array's own toJSON, a getter that throws: the copy toJSON() makes does not carry it", async () => {
      const arr = [1, 2];
      const list = [new HumanMessage({ id: 'h', content: 'a', additional_kwargs: { arr } })];
      const json = await samePaths(list, () =>
        Object.defineProperty(arr, 'toJSON', {
          get() {
            throw new Error('never read by toJSON()');
          },
          configurable: true,
        }),
      );
      expect(json).toContain('"arr":[1,2]');
    });

    it("Array[Symbol.species] patched: map's copy is of another class", async () => {
      class Odd extends Array {
        toJSON(): string {
          return 'ODD';
        }
      }
      const species = Object.getOwnPropertyDescriptor(Array, Symbol.species) as PropertyDescriptor;
      const list = [new HumanMessage({ id: 'h', content: 'a', additional_kwargs: { arr: [1, 2] } })];
      await samePaths(
        list,
        () => Object.defineProperty(Array, Symbol.species, { get: () => Odd, configurable: true }),
        () => Object.defineProperty(Array, Symbol.species, species),
      );
    });

    it('a setter put on Object.prototype by a getter read after its key was tested', async () => {
      const m = new HumanMessage({ id: 'h', content: 'a', fooBar: 1, additional_kwargs: { xy: 1, deep: { z: 1 } } } as never);
      const list = [m];
      for (const name of ['fooBar', 'foo_bar', 'xy']) {
        await samePaths(
          list,
          () => {
            let once = false;
            // Read by toJSON (an own field of the message), and by the check, after the keys before it.
            const kwargs = m.additional_kwargs;
            Object.defineProperty(m, 'additional_kwargs', {
              get() {
                if (!once) Object.defineProperty(Object.prototype, name, { set() {}, configurable: true });
                once = true;
                return kwargs;
              },
              configurable: true,
              enumerable: true,
            });
          },
          () => {
            delete (Object.prototype as Record<string, unknown>)[name];
            delete (m as unknown as Record<string, unknown>).additional_kwargs;
            m.additional_kwargs = { xy: 1, deep: { z: 1 } };
          },
        );
      }
    });

    it('a setter put on Object.prototype by a getter deeper down, for the key or name it is the value of', async () => {
      // toJSON escapes a value before it assigns it to its key (`result[key] = escapeIfNeeded(v)`):
      // a getter inside the value that puts a setter of that key on Object.prototype swallows it.
      for (const [outerKey, name] of [
        ['deep', 'additional_kwargs'],
        ['k', 'k'],
      ] as const) {
        let armed = false;
        const inner = {};
        Object.defineProperty(inner, 'z', {
          get() {
            if (armed) Object.defineProperty(Object.prototype, name, { set() {}, configurable: true });
            armed = false;
            return 1;
          },
          enumerable: true,
          configurable: true,
        });
        const list = [new HumanMessage({ id: 'h', content: 'a', additional_kwargs: { [outerKey]: inner } })];
        const json = await samePaths(
          list,
          () => (armed = true),
          () => delete (Object.prototype as Record<string, unknown>)[name],
        );
        expect(json).not.toContain(`"${name}":`);
      }
    });

    it('lc_kwargs replaced by a getter: toJSON() reads this.lc_kwargs again for every key', async () => {
      const m = new HumanMessage({ id: 'h', content: 'a', extra: 'E' } as never);
      expect('extra' in m).toBe(false);
      const list = [m];
      const json = await samePaths(list, () => {
        const content = m.content;
        Object.defineProperty(m, 'content', {
          get() {
            m.lc_kwargs = { ...m.lc_kwargs, extra: 'F' };
            return content;
          },
          configurable: true,
          enumerable: true,
        });
      });
      expect(json).toContain('"extra":"F"');
    });

    it("an object's entries are all read before any is escaped: the first getter to throw is toJSON()'s", async () => {
      const inner = {};
      Object.defineProperty(inner, 'z', { get: () => 1, enumerable: true, configurable: true });
      const outer: Record<string, unknown> = { a: inner, b: 2 };
      const list = [new HumanMessage({ id: 'h', content: 'a', additional_kwargs: outer })];
      const json = await samePaths(list, () => {
        Object.defineProperty(inner, 'z', {
          get() {
            throw new Error('inner z');
          },
          enumerable: true,
          configurable: true,
        });
        Object.defineProperty(outer, 'b', {
          get() {
            throw new Error('outer b');
          },
          enumerable: true,
          configurable: true,
        });
      });
      expect(json).toBe('error: outer b');
    });
  });

  it('takes the plain path for a JSON name or a nested key that Object.prototype has (a setter there swallows it; found in review)', async () => {
    const list = [new HumanMessage({ id: 'h', content: 'a', fooBar: 1, additional_kwargs: { xy: 1 } } as never)];
    const kept = (await captured(list)).items as unknown[];
    expect(text(kept)).toContain('"foo_bar":1');
    // The key's JSON name learnt (any earlier put of such a message does it), and the check's own answer.
    expect(sameMessageAsKept(list[0], JSON.parse(JSON.stringify(kept[0])))).toBe(true);
    for (const name of ['foo_bar', 'xy']) {
      Object.defineProperty(Object.prototype, name, { set() {}, configurable: true });
      try {
        expect(sameMessageAsKept(list[0], JSON.parse(JSON.stringify(kept[0])))).toBe(false);
        const ours = await captured(list, kept);
        expect(ours.json).not.toContain(`"${name}":1`);
        expect(ours.json).toBe((await captured(list)).json);
      } finally {
        delete (Object.prototype as Record<string, unknown>)[name];
      }
    }
  });

  it('keeps an answer only for LangChain\'s own getters, each returning nothing or a literal of names (and super\'s)', () => {
    // The check keeps the alias answer of a chain of these getters as found at load: they must
    // read no instance and no state. A new @langchain/core whose getters do fails here.
    const classes = [Serializable, AIMessage, AIMessageChunk, BaseMessage, BaseMessageChunk, ChatMessage, ChatMessageChunk, FunctionMessage, FunctionMessageChunk, HumanMessage, HumanMessageChunk, RemoveMessage, SystemMessage, SystemMessageChunk, ToolMessage, ToolMessageChunk];
    let found = 0;
    for (const c of classes) {
      for (const name of ['lc_aliases', 'lc_secrets', 'lc_attributes']) {
        const get = Object.getOwnPropertyDescriptor(c.prototype, name)?.get;
        if (get === undefined) continue;
        found++;
        const entry = String.raw`\s*(\.\.\.super\.${name}|\w+: "\w+"),?`;
        expect(Function.prototype.toString.call(get)).toMatch(new RegExp(String.raw`^get ${name}\(\) \{\s*(return \{(${entry})*\s*\};)?\s*\}$`));
      }
    }
    expect(found).toBeGreaterThanOrEqual(7);
  });

  it('runs a setter on Object.prototype named as an alias, as toJSON()\'s merge of the aliases runs it', async () => {
    // AIMessage's aliases name usage_metadata, which its lc_kwargs lacks here: toJSON's merge sets
    // it on a plain object, and the setter flips the aliases of the Switch message after it.
    const list = [new AIMessage({ id: 'a', content: 'x' }), new Switch({ content: 'y' })];
    state.aliasOn = false;
    const kept = (await captured(list)).items;
    Object.defineProperty(Object.prototype, 'usage_metadata', { set: () => void (state.aliasOn = true), configurable: true });
    try {
      const ours = await captured(list, kept);
      state.aliasOn = false;
      const plain = await captured(list);
      expect(ours.json).toBe(plain.json);
      expect(plain.json).toContain('switched');
    } finally {
      delete (Object.prototype as Record<string, unknown>).usage_metadata;
      state.aliasOn = false;
    }
  });

  it('keeps no answer found by calling a getter that put LangChain\'s back', async () => {
    const list = [new AIMessage({ id: 'a', content: 'x' }), new AIMessage({ id: 'b', content: 'y', extra: 'kw' } as ConstructorParameters<typeof AIMessage>[0])];
    const original = Object.getOwnPropertyDescriptor(AIMessage.prototype, 'lc_aliases') as PropertyDescriptor;
    const patched = (once: boolean): PropertyDescriptor => ({
      get(this: unknown) {
        if (once) Object.defineProperty(AIMessage.prototype, 'lc_aliases', original);
        return { ...(original.get?.call(this) as object), extra: 'EXTRA' };
      },
      configurable: true,
    });
    try {
      Object.defineProperty(AIMessage.prototype, 'lc_aliases', patched(false));
      const kept = (await captured(list)).items;
      expect(text(kept)).toContain('EXTRA');
      // The first message's check calls the getter, which puts LangChain's back: the second is then
      // named as loaded, and its kept JSON (named by the patch) is not it.
      Object.defineProperty(AIMessage.prototype, 'lc_aliases', patched(true));
      const ours = await captured(list, kept);
      Object.defineProperty(AIMessage.prototype, 'lc_aliases', patched(true));
      const plain = await captured(list);
      expect(ours.json).toBe(plain.json);
      expect(plain.json).not.toContain('EXTRA');
    } finally {
      Object.defineProperty(AIMessage.prototype, 'lc_aliases', original);
    }
  });

  it('gives the plain path\'s JSON and the serializer\'s, and the same unchanged count, through rounds of in-place edits', async () => {
    const { fast, checked } = await editRounds(message, Object.keys(edits), 1500);
    // Most items are left unedited: most comparisons must be the check's.
    expect(fast).toBeGreaterThan(checked / 4);
  });

  it('gives the plain path\'s JSON through rounds that patch LangChain\'s own prototypes, between the rounds and during a capture', async () => {
    // LangChain's classes only (the chains whose answer is kept), and edits mostly of prototypes.
    const kinds = Object.keys(edits).filter((k) => k.startsWith('proto') || ['contentString', 'lcKwargsAdd', 'token', 'id', 'instanceGetter'].includes(k));
    const { fast, checked } = await editRounds(stock, kinds, 1000);
    expect(fast).toBeGreaterThan(checked / 4);
  });
});

/**
 * Lists of `messages` put in rounds of `kinds` of edits: each round the capture against the kept
 * JSON gives what the plain path gives and what the serializer writes, with the same unchanged
 * count, and leaves every kept list as it was. LangChain's prototypes are as `patches` says at the
 * start of each of those captures (a getter read in one may patch them), and as loaded after.
 * Returns how many items the check alone told unchanged, of how many compared.
 */
async function editRounds(messages: fc.Arbitrary<BaseMessage>, kinds: string[], numRuns: number): Promise<{ fast: number; checked: number }> {
  let fast = 0;
  let checked = 0;
  const anEdit = fc.record({ at: fc.nat(), kind: fc.constantFrom(...kinds), s: str });
  try {
    await fc.assert(
      fc.asyncProperty(fc.array(messages, { minLength: 1, maxLength: 5 }), fc.array(fc.tuple(fc.array(anEdit, { maxLength: 3 }), fc.array(messages, { maxLength: 2 })), { minLength: 1, maxLength: 4 }), async (items, rounds) => {
        Object.assign(state, { text: 'from a getter', aliasOn: false, name: 'Named' });
        setPatches({});
        const list: unknown[] = [...items];
        const first = await captured(list);
        if (first.items === undefined) return;
        let kept = first.items;
        let serializerApart = false;
        const seen: [unknown[], string][] = [[kept, text(kept)]];
        for (const [roundEdits, appended] of rounds) {
          for (const e of roundEdits) (edits[e.kind] as (m: Message, s: string) => void)(list[e.at % list.length] as Message, e.s);
          list.push(...appended);
          const before = kept.map(text);
          // Each capture below starts from the prototypes as they are now.
          const at = { ...patches };
          // How many items the check alone tells unchanged (it shares strings into a copy, not into `kept`).
          const probe = JSON.parse(JSON.stringify(kept)) as unknown[];
          for (let i = 0; i < probe.length && i < list.length; i++) {
            try {
              if (sameMessageAsKept(list[i], probe[i])) fast++;
            } catch {
              // A getter that throws: toJSON() throws it too (compared through the capture below).
            }
          }
          checked += Math.min(probe.length, list.length);
          setPatches(at);
          const ours = await captured(list, kept);
          setPatches(at);
          const plain = await captured(list);
          expect(ours.json).toBe(plain.json);
          // The serializer writes a cycle its own way before any toJSON() (LangChain's escaping
          // writes it as "not implemented"), and reads every message's fields (getters that patch
          // prototypes included) before any toJSON(): the plain path is the reference there.
          if (roundEdits.some((e) => e.kind === 'kwargsSelf' || e.kind === 'protoDuring')) serializerApart = true;
          setPatches(at);
          const written = await oracle(list);
          if (!ours.json.startsWith('error') && !serializerApart) expect(ours.json).toBe(written);
          if (ours.items === undefined || plain.items === undefined) return;
          let same = 0;
          while (same < before.length && same < plain.items.length && text(plain.items[same]) === before[same]) same++;
          expect(ours.same).toBe(same);
          for (const [l, was] of seen) expect(text(l)).toBe(was);
          kept = ours.items;
          seen.push([kept, text(kept)]);
        }
      }),
      { numRuns },
    );
  } finally {
    setPatches({});
  }
  return { fast, checked };
}

/*
 * The same edits through the saver, on every backend, against MemorySaver (the oracle): a chain of
 * puts of a growing list, each put after edits in place, every checkpoint read back from both.
 * Only edits that leave messages LangChain can revive (its own classes, its own ids).
 */
const list = backends();
afterAll(async () => {
  for (const b of list) await b.cleanup();
});
const revivable = fc.oneof(
  fc.record({ content: str, id }).map((f) => new HumanMessage(f)),
  fc.record({ content: str, id }).map((f) => new HumanMessage({ ...f, extra: 'kw' } as ConstructorParameters<typeof HumanMessage>[0])),
  fc.record({ t: str, id }).map((f) => new HumanMessage({ id: f.id, content: [{ type: 'text', text: f.t }] })),
  fc.record({ content: str, q: str, id }).map((f) => new AIMessage({ id: f.id, content: f.content, tool_calls: [{ id: 'c', name: 't', args: { q: f.q } }] })),
  fc.record({ content: str, id }).map((f) => new ToolMessage({ ...f, tool_call_id: 'c' })),
);
const revivableEdits = ['contentString', 'contentSameText', 'contentParts', 'contentPartEdit', 'kwargsDeep', 'kwargsDeepEdit', 'kwargsDelete', 'kwargsClass', 'metadata', 'toolCallArgs', 'id', 'name', 'lcKwargsAdd', 'lcKwargsReplace', 'lcKwargsShadowed', 'shadow', 'instanceGetter', 'getterState', 'protoAI', 'protoHuman', 'flag', 'kwargsRev', 'kwargsTagsReverse', 'contentPartPop', 'toolCallsClear'];

describe.each(list)('messages edited in place, through the saver on $name, against MemorySaver', (backend) => {
  it.skipIf(!backend.available)('every checkpoint of the chain reads back as MemorySaver gives it', async () => {
    const store = await backend.open();
    let thread = 0;
    try {
      await fc.assert(
        fc.asyncProperty(fc.array(revivable, { minLength: 1, maxLength: 4 }), fc.array(fc.tuple(fc.array(fc.record({ at: fc.nat(), kind: fc.constantFrom(...revivableEdits), s: str }), { maxLength: 3 }), fc.array(revivable, { maxLength: 2 })), { minLength: 1, maxLength: 4 }), async (items, rounds) => {
          Object.assign(state, { text: 'from a getter', aliasOn: false, name: 'Named' });
          const t = `t${thread++}`;
          const memory = new MemorySaver();
          const ours = new SessionCheckpointSaver(store);
          const messages: unknown[] = [...items];
          const ids: string[] = [];
          let parent: string | undefined;
          for (const [r, [roundEdits, appended]] of [[[], []] as [typeof rounds[0][0], BaseMessage[]], ...rounds].entries()) {
            for (const e of roundEdits) (edits[e.kind] as (m: Message, s: string) => void)(messages[e.at % messages.length] as Message, e.s);
            messages.push(...appended);
            const checkpoint = checkpointWith({ messages: [...messages] }, r + 1);
            await memory.put(cfg(t, parent), checkpoint, meta(r));
            await ours.put(cfg(t, parent), checkpoint, meta(r), { messages: r + 1 });
            ids.push((parent = checkpoint.id));
          }
          const fresh = new SessionCheckpointSaver(store);
          for (const c of ids) {
            // As JSON with keys sorted: rows are canonical JSON (docs/langgraph.md, "Values").
            const shown = (v: unknown) => text(JSON.parse(JSON.stringify(v)));
            const expected = shown((await memory.getTuple(cfg(t, c)))?.checkpoint.channel_values);
            expect(shown((await ours.getTuple(cfg(t, c)))?.checkpoint.channel_values)).toBe(expected);
            expect(shown((await fresh.getTuple(cfg(t, c)))?.checkpoint.channel_values)).toBe(expected);
          }
        }),
        { numRuns: backend.name === 'postgres' ? 40 : 80 },
      );
    } finally {
      await store.close();
    }
  });
});
