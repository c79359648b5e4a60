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
import { SHARED_STRING_MIN, sameAsKept } from './kept-json.js';

/*
 * A LangChain message compared with the JSON the saver kept of it without calling its toJSON()
 * (docs/decisions/0050). A put stores what it is given (docs/decisions/0014), so every message of
 * the list is compared at every put; toJSON() builds a fresh object graph per message (its kwargs
 * copied and escaped, every key put through a snake_case mapping, the id array) only for the saver
 * to walk it and throw it away. Here the same reads are made on the message itself, in toJSON's
 * order, and compared with the kept JSON as they are read:
 *
 * - `toJSON` is read and must be @langchain/core's own `Serializable.prototype.toJSON` (a class with
 *   its own, an instance with its own, or another copy of @langchain/core: the plain path);
 * - `lc_serializable` truthy, `lc_kwargs` a plain-enough object (as toJSON tests it);
 * - each own key of `lc_kwargs`, its value `key in message ? message[key] : lc_kwargs[key]`;
 * - along the prototype chain, the `lc_aliases`, `lc_secrets` and `lc_attributes` getters, called
 *   with the message as receiver (instance-dependent getters are called, not trusted); any secret
 *   or attribute, and the plain path. On a chain of @langchain/core's own prototypes holding the
 *   getters they held at load, checked at every message, their answer as found before
 *   ({@link chainAliases}, docs/decisions/0055);
 * - each key's JSON name: its alias, or LangChain's own snake_case name of it, learnt once per key
 *   from LangChain itself (a Serializable of ours with that one key, see {@link jsonKeyOf});
 * - the values as toJSON's escaping leaves them (an object copied as its own enumerable entries,
 *   whatever its class; an array item by item), compared with the kept JSON as `sameAsKept` compares
 *   toJSON's result; anything escaping changes (an object with an `lc` key, a Serializable inside) is
 *   the plain path;
 * - `lc_id` last, compared with the kept `id`.
 *
 * A `false` claims nothing: the caller takes the plain path (toJSON() and the comparison). A
 * getter that throws here throws out of the put, as it would out of toJSON() (the reads are
 * toJSON's own; catching it would store what a second read gives). A `true` means toJSON() now
 * would have given JSON that `sameAsKept` finds equal to `kept`.
 * kept-message.test.ts holds this against the plain path and MemorySaver with in-place edits of
 * every field above.
 */

/** Most kwargs keys a message is checked with here. */
const KEYS_MAX = 32;

/** @langchain/core's toJSON, the only one this stands for. */
const serializableToJSON: unknown = Serializable.prototype.toJSON;

/**
 * True when `item` is a LangChain message (any Serializable with the stock toJSON) whose JSON now
 * equals `kept` as {@link sameAsKept} tells it, found without calling its toJSON(). Long strings
 * found equal are shared into `kept` as kept-json.ts's `sameMember` does (docs/decisions/0046).
 */
export function sameMessageAsKept(item: unknown, kept: unknown): boolean {
  if (typeof item !== 'object' || item === null || typeof kept !== 'object' || kept === null || Array.isArray(kept)) return false;
  const self = item as Record<string, unknown>;
  if (self.toJSON !== serializableToJSON) return false;
  const k = kept as Record<string, unknown>;
  // toJSON's result has these four keys; the kept JSON is the saver's own, checked when captured.
  if (k.lc !== 1 || k.type !== 'constructor' || !Array.isArray(k.id) || typeof k.kwargs !== 'object' || k.kwargs === null || Array.isArray(k.kwargs) || countKeys(k) !== 4) return false;
  const keptKwargs = k.kwargs as Record<string, unknown>;
  if (!self.lc_serializable) return false;
  const kwargs = self.lc_kwargs;
  if (typeof kwargs !== 'object' || kwargs === null || Array.isArray(kwargs) || kwargs instanceof Serializable) return false;
  const keys = Object.keys(kwargs);
  // Names are told distinct pairwise below: a message's few fields; more, and the plain path.
  if (keys.length > KEYS_MAX || keys.length !== countKeys(keptKwargs)) return false;
  // The values, read as toJSON reads them and before the getters (as toJSON does).
  const values = new Array<unknown>(keys.length);
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i] as string;
    // A key Object.prototype has would be looked up there by the alias map: the plain path.
    if (key in Object.prototype) return false;
    // toJSON reads `this.lc_kwargs` again for every key (a getter before may have replaced it).
    values[i] = key in self ? self[key] : (self.lc_kwargs as Record<string, unknown>)[key];
  }
  // The getters along the prototype chain, with the message as receiver, merged as toJSON merges
  // them; for a chain of LangChain's own prototypes as loaded, their answer as found before.
  const aliases = chainAliases(self);
  if (aliases === undefined) return false;
  const names = new Array<string>(keys.length);
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i] as string;
    const alias = aliases[key];
    // A truthy alias is the name (one that is not a string, which a property key would convert: the plain path).
    const name = alias ? (typeof alias === 'string' ? alias : undefined) : jsonKeyOf(key);
    // (An undefined value, which the JSON leaves out, is told by sameEscaped.)
    // toJSON assigns each name onto a plain object: a name Object.prototype has (`__proto__`, or a
    // setter or read-only property put there) might not land as a key: the plain path.
    if (name === undefined || name in Object.prototype || !Object.hasOwn(keptKwargs, name)) return false;
    // Two keys of one name are one key of toJSON's result, so fewer than the kept: the plain path.
    for (let j = 0; j < i; j++) if (names[j] === name) return false;
    names[i] = name;
    if (!sameEscapedMember(values[i], keptKwargs, name)) return false;
  }
  // A getter read above may have put a setter of a key or a name on Object.prototype since it was
  // tested: toJSON's later assignment would run it. Tested again, once every value is read.
  for (let i = 0; i < keys.length; i++) if ((keys[i] as string) in Object.prototype || (names[i] as string) in Object.prototype) return false;
  // As many distinct names as the kept kwargs has keys, each one of them: the same key set.
  return sameAsKept(self.lc_id, k.id);
}

/** The names toJSON() reads on every prototype of the chain, with the message as receiver. */
const CHAIN_NAMES = ['lc_aliases', 'lc_secrets', 'lc_attributes'] as const;

/**
 * @langchain/core's own prototypes (its message classes', Serializable's, Object's), each with what
 * it held of {@link CHAIN_NAMES} when this module was loaded: per name, the getter of its own
 * accessor, or `undefined` for no own property of that name (one that held anything else is left out).
 */
const asLoaded = new Map<object, readonly unknown[]>();
for (const proto of [
  Object.prototype,
  Serializable.prototype,
  ...[AIMessage, AIMessageChunk, BaseMessage, BaseMessageChunk, ChatMessage, ChatMessageChunk, FunctionMessage, FunctionMessageChunk, HumanMessage, HumanMessageChunk, RemoveMessage, SystemMessage, SystemMessageChunk, ToolMessage, ToolMessageChunk].map((c) => c.prototype as object),
]) {
  const getters = CHAIN_NAMES.map((name) => {
    const d = Object.getOwnPropertyDescriptor(proto, name);
    return d === undefined ? undefined : typeof d.get === 'function' && returnsNamesOnly(d.get, name) ? d.get : null;
  });
  if (!getters.includes(null)) asLoaded.set(proto, getters);
}

/**
 * True when `get` is a getter of `name` whose source returns nothing or an object literal of names
 * (and `super`'s answer), as @langchain/core's are: it reads no instance and no state, so its
 * answer is a constant of the chain. A getter patched in before this module loaded, or one of a
 * later @langchain/core that reads the instance, is not kept (its chain takes the walk).
 */
function returnsNamesOnly(get: (...args: never[]) => unknown, name: string): boolean {
  const entry = String.raw`\s*(\.\.\.super\.${name}|\w+: "\w+"),?`;
  return new RegExp(String.raw`^get ${name}\(\) \{\s*(return \{(${entry})*\s*\};)?\s*\}$`).test(Function.prototype.toString.call(get));
}

/** The answer of a chain of prototypes as loaded (see {@link chainAliases}). */
interface ChainAnswer {
  /** The prototypes, from the message's first one to the last, */
  chain: readonly object[];
  /** what each of them held of each of {@link CHAIN_NAMES} (as in {@link asLoaded}; three a prototype), */
  getters: readonly unknown[];
  /** the aliases their getters gave, merged as toJSON merges them (never written: shared by the chain's messages), */
  aliases: Record<string, unknown>;
  /** and their keys, which that merge sets on a new plain object. */
  keys: readonly string[];
}

/** Per first prototype (one of {@link asLoaded}'s), the answer of its chain. */
const answers = new Map<object, ChainAnswer>();

/**
 * The aliases toJSON() would merge from the `lc_aliases` getters along `self`'s prototype chain now,
 * or `undefined` when a getter gives a secret or an attribute (the plain path).
 *
 * The getters are called with the message as receiver, as toJSON calls them, except on a chain
 * made only of @langchain/core's own prototypes each holding exactly the getters it held when this
 * module was loaded: LangChain's own getters of these names read no instance and no state (1.4.0:
 * literals, and `super`'s, which is the next prototype of the same chain), so their answer is the
 * chain's, kept in {@link answers} from the first call. That is checked here for every message, at
 * the point where toJSON would call the getters: the same prototypes in the same order, the same
 * own getter or none of each name on each (a getter patched, added, removed or put back, a prototype
 * changed, at any time before, by the message's own getters included, is seen), and no property on
 * Object.prototype by the name of an alias (the merge sets each on a plain object, which would run a
 * setter there). The check reads own properties of LangChain's prototypes only, never a proxy (a
 * prototype not among them ends the check first): it runs no code of anyone's.
 */
function chainAliases(self: object): Record<string, unknown> | undefined {
  const first = Object.getPrototypeOf(self) as object | null;
  const known = first === null ? undefined : answers.get(first);
  if (known !== undefined && holds(known)) return known.aliases;
  // Found before any getter is called: on a chain as loaded they are all LangChain's, and their
  // answer is merged where no setter can run (no prototype), then kept if no alias is on
  // Object.prototype (else merged again below, as toJSON merges: onto a plain object).
  const stock = first === null ? undefined : stockChain(first);
  if (stock !== undefined) {
    const aliases = mergeAliases(first, self, Object.create(null) as Record<string, unknown>);
    if (aliases === undefined) return undefined;
    const answer = { ...stock, aliases, keys: Object.keys(aliases) };
    if (holds(answer)) {
      answers.set(first as object, answer);
      return aliases;
    }
  }
  return mergeAliases(first, self, {});
}

/** The `lc_aliases` along the chain from `first` merged into `aliases`, as toJSON merges them; `undefined` on a secret or an attribute. */
function mergeAliases(first: object | null, self: object, aliases: Record<string, unknown>): Record<string, unknown> | undefined {
  for (let proto = first; proto !== null; proto = Object.getPrototypeOf(proto) as object | null) {
    Object.assign(aliases, Reflect.get(proto, 'lc_aliases', self));
    if (Reflect.get(proto, 'lc_secrets', self) != null || Reflect.get(proto, 'lc_attributes', self) != null) return undefined;
  }
  return aliases;
}

/** The chain from `first` when every prototype on it is one of {@link asLoaded}'s and holds what it held then. */
function stockChain(first: object): { chain: object[]; getters: unknown[] } | undefined {
  const chain: object[] = [];
  const getters: unknown[] = [];
  for (let proto: object | null = first; proto !== null; proto = Object.getPrototypeOf(proto) as object | null) {
    const loaded = asLoaded.get(proto);
    if (loaded === undefined) return undefined;
    chain.push(proto);
    getters.push(...loaded);
  }
  return holds({ chain, getters, aliases: {}, keys: [] }) ? { chain, getters } : undefined;
}

/** True when `answer` still stands: its chain unchanged, each getter as it was, no alias on Object.prototype. */
function holds(answer: ChainAnswer): boolean {
  const { chain, getters, keys } = answer;
  let proto: object | null = chain[0] as object;
  for (let i = 0; i < chain.length; i++) {
    if (proto !== chain[i]) return false;
    for (let j = 0; j < CHAIN_NAMES.length; j++) if (!ownGetterIs(proto, CHAIN_NAMES[j] as string, getters[i * CHAIN_NAMES.length + j])) return false;
    proto = Object.getPrototypeOf(proto) as object | null;
  }
  if (proto !== null) return false;
  for (const key of keys) if (Object.hasOwn(Object.prototype, key)) return false;
  return true;
}

/** True when `proto`'s own property `name` is an accessor with `getter`, or (`getter` undefined) absent. */
function ownGetterIs(proto: object, name: string, getter: unknown): boolean {
  if (getter === undefined) return !Object.hasOwn(proto, name);
  return Object.getOwnPropertyDescriptor(proto, name)?.get === getter;
}

/** Own enumerable string keys of a saver-owned JSON object (plain prototype, no enumerable inherited keys). */
function countKeys(o: object): number {
  let n = 0;
  for (const key in o) if (Object.hasOwn(o, key)) n++;
  return n;
}

/**
 * The member `key` of `kept` compared with `value` as toJSON's escaping leaves it: strings as
 * kept-json.ts's `sameMember` compares them (long ones shared into `kept`), the rest by {@link sameEscaped}.
 */
function sameEscapedMember(value: unknown, kept: Record<string | number, unknown>, key: string | number): boolean {
  if (typeof value !== 'string') return sameEscaped(value, kept[key]);
  if (value !== kept[key]) return false;
  if (value.length >= SHARED_STRING_MIN && key !== '__proto__') kept[key] = value;
  return true;
}

/**
 * True when `value`, escaped as toJSON escapes a kwargs value (a plain copy of an object's own
 * enumerable entries, whatever its prototype; an array item by item), is JSON equal to `kept` by
 * {@link sameAsKept}'s rules. What escaping wraps or keeps as it is (an object with an `lc` key,
 * one whose only key is `__lc_escaped__`, a Serializable) and a key Object.prototype has: `false`.
 */
function sameEscaped(value: unknown, kept: unknown): boolean {
  // Undefined, a function, a symbol: never equal to kept JSON (every caller has found `kept` an own
  // member of kept JSON, so it is not undefined either).
  if (typeof value !== 'object' || value === null) return value === kept;
  if (typeof kept !== 'object' || kept === null) return false;
  return Array.isArray(value) ? sameEscapedArray(value, kept) : !Array.isArray(kept) && sameEscapedObject(value, kept);
}

/** {@link sameEscaped} of an array. */
function sameEscapedArray(value: unknown[], kept: object): boolean {
  // toJSON copies an array with its `map`, which builds the copy by the array's species: another
  // map, another constructor or species, or a toJSON the copy inherits could give other JSON.
  if (!plainArray(value) || !Array.isArray(kept) || value.length !== kept.length) return false;
  for (let i = 0; i < value.length; i++) if (!sameEscapedMember(value[i], kept as unknown as Record<number, unknown>, i)) return false;
  return true;
}

/** {@link sameEscaped} of an object that is not an array, `kept` not an array either. */
function sameEscapedObject(value: object, kept: object): boolean {
  if (('lc_serializable' in value && typeof (value as { toJSON?: unknown }).toJSON === 'function') || 'lc' in value) return false;
  const keys = Object.keys(value);
  if (keys.length !== countKeys(kept) || (keys.length === 1 && '__lc_escaped__' in value)) return false;
  // Escaping reads every entry (`Object.entries`) before it escapes any: the values first here too,
  // so a getter deeper down that changes a sibling changes it after it was read, as for toJSON.
  const values = new Array<unknown>(keys.length);
  for (let i = 0; i < keys.length; i++) values[i] = (value as Record<string, unknown>)[keys[i] as string];
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i] as string;
    // Escaping assigns each key onto a plain object, as toJSON assigns the names (above).
    if (key in Object.prototype || !Object.hasOwn(kept, key)) return false;
    if (!sameEscapedMember(values[i], kept as Record<string, unknown>, key)) return false;
  }
  // And again once every getter below has run (a setter put on Object.prototype meanwhile).
  for (const key of keys) if (key in Object.prototype) return false;
  return true;
}

/** `Array.prototype.map` as this module found it (a patched one is not the one toJSON then calls). */
const arrayMap = Array.prototype.map;

/**
 * An array toJSON's `map` copies item by item into a plain array that JSON shows as its items: read
 * as `map` reads it (`map`, then the `constructor` and `Array[Symbol.species]` that choose the
 * copy's class), and no `toJSON` the copy would inherit. The array's own `toJSON` is not read: the
 * copy does not carry it (reading it would run a getter toJSON never runs).
 */
function plainArray(value: unknown[]): boolean {
  return (
    Object.getPrototypeOf(value) === Array.prototype &&
    value.map === arrayMap &&
    value.constructor === Array &&
    Array[Symbol.species] === Array &&
    !('toJSON' in Array.prototype)
  );
}

/** A Serializable of ours: its toJSON() shows the JSON name LangChain gives a kwargs key that has no alias. */
class KeyProbe extends Serializable {
  override lc_serializable = true;
  lc_namespace = ['session_checkpoint', 'key_probe'];
}

/** JSON names learnt per key (field names of messages: few). */
const jsonKeys = new Map<string, string | undefined>();
/** Past this many keys learnt, a new key takes the plain path rather than grow the map for good. */
const JSON_KEYS_MAX = 4096;

/**
 * The name LangChain's toJSON() gives kwargs key `key` without an alias, asked of LangChain itself
 * once per key: the kwargs of a {@link KeyProbe} with that one key. `undefined` when it does not
 * give exactly one name.
 */
function jsonKeyOf(key: string): string | undefined {
  const known = jsonKeys.get(key);
  if (known !== undefined || jsonKeys.has(key)) return known;
  if (jsonKeys.size >= JSON_KEYS_MAX) return undefined;
  const probe = new KeyProbe({ [key]: null });
  // An alias the probe inherits (a patched Serializable.prototype) would show instead of the
  // snake_case name, and stay learnt: such a key is not learnt.
  const aliases: Record<string, unknown> = {};
  for (let proto: unknown = Object.getPrototypeOf(probe); proto !== null; proto = Object.getPrototypeOf(proto)) Object.assign(aliases, Reflect.get(proto as object, 'lc_aliases', probe));
  if (Object.hasOwn(aliases, key)) return undefined;
  const shown = probe.toJSON() as { kwargs?: unknown };
  const names = typeof shown.kwargs === 'object' && shown.kwargs !== null ? Object.keys(shown.kwargs) : [];
  const name = names.length === 1 ? names[0] : undefined;
  // Learnt for good only from a sound toJSON(): a setter or a property put on Object.prototype
  // meanwhile can swallow or rename the probe's key (the name would then stay wrong), so then
  // nothing is learnt and the message takes the plain path.
  if (name === undefined || !objectPrototypeAsLoaded()) return undefined;
  jsonKeys.set(key, name);
  return name;
}

/** Object.prototype's own properties when this module was loaded. */
const objectPrototypeAtLoad = new Map(Reflect.ownKeys(Object.prototype).map((k) => [k, Object.getOwnPropertyDescriptor(Object.prototype, k)]));

/** Whether Object.prototype holds exactly what it held at load (the same values, getters and setters). */
function objectPrototypeAsLoaded(): boolean {
  const keys = Reflect.ownKeys(Object.prototype);
  if (keys.length !== objectPrototypeAtLoad.size) return false;
  for (const k of keys) {
    const now = Object.getOwnPropertyDescriptor(Object.prototype, k);
    const then = objectPrototypeAtLoad.get(k);
    if (now === undefined || then === undefined || now.value !== then.value || now.get !== then.get || now.set !== then.set) return false;
  }
  return true;
}
