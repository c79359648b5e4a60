import { protocol, UserError, type AgentInputItem, type SessionHistoryTransaction, type SessionHistoryTransactionArgs } from '@openai/agents-core';
import { canonicalize, sha256Hex } from '@session-checkpoint/core';
import { encodeItem, type ItemContext } from './format/item-codec.js';

/** Hashing walks deep items with an explicit stack; the item's own depth was checked when encoded. */
const HASH_OPTIONS = { maxDepth: Number.MAX_SAFE_INTEGER };

/** The session and depth limit items are encoded for (the item's own name is filled in per item). */
export type ItemsContext = Omit<ItemContext, 'what'>;

/** An item as the transaction hash covers it (the shape of the 0.1.0 item rows, so hashes stay put). */
function hashed(item: AgentInputItem, context: ItemsContext, index: number): Record<string, unknown> {
  const { entry, binary } = encodeItem(item, { ...context, what: `transaction item ${index}` });
  return binary.length === 0 ? { item: entry } : { item: entry, binary };
}

function isArrayIndex(key: string, length: number): boolean {
  return /^(0|[1-9]\d*)$/.test(key) && Number(key) < length;
}

/**
 * Refuses what the SDK's `MemorySession` refuses in a transaction before it looks at the items:
 * arrays with holes or extra keys, symbol keys, accessors, non-enumerable members, objects that are
 * not plain, cycles, functions, symbols and bigints (its `snapshotSupportedValue`).
 */
function checkSupported(value: unknown, ancestors: Set<object>): void {
  if (value === null || value === undefined || typeof value === 'string' || typeof value === 'boolean' || typeof value === 'number') return;
  if (typeof value !== 'object') throw new Error('Unsupported session history value.');
  if (value instanceof Uint8Array) {
    const keys = Reflect.ownKeys(value);
    if (keys.length !== value.length || keys.some((key) => typeof key !== 'string' || !isArrayIndex(key, value.length))) throw new Error('Unsupported binary property.');
    return;
  }
  if (ancestors.has(value)) throw new Error('Cyclic session history value.');
  ancestors.add(value);
  try {
    if (Array.isArray(value)) {
      const keys = Reflect.ownKeys(value);
      if (keys.length !== value.length + 1 || keys.some((key) => typeof key !== 'string' || (key !== 'length' && !isArrayIndex(key, value.length)))) throw new Error('Unsupported session history array.');
    } else {
      const prototype = Object.getPrototypeOf(value) as unknown;
      if (prototype !== Object.prototype && prototype !== null) throw new Error('Unsupported session history object.');
    }
    for (const key of Reflect.ownKeys(value)) {
      if (typeof key !== 'string') throw new Error('Unsupported session history property.');
      if (Array.isArray(value) && key === 'length') continue;
      const descriptor = Object.getOwnPropertyDescriptor(value, key);
      if (!descriptor?.enumerable || !('value' in descriptor)) throw new Error('Unsupported session history property.');
      checkSupported(descriptor.value, ancestors);
    }
  } finally {
    ancestors.delete(value);
  }
}

/** Items as `MemorySession` takes them in a transaction: supported values, each a valid model item. */
function checkItems(items: readonly unknown[]): void {
  try {
    checkSupported(items, new Set());
    structuredClone(items);
  } catch {
    throw new UserError('Session history transaction items contain invalid or unsupported data.');
  }
  for (const item of items) {
    if (!protocol.ModelItem.safeParse(item).success) throw new UserError('Session history transaction items contain invalid or unsupported data.');
  }
}

/** Row kind of the record of one applied history transaction. */
export const OPERATION_KIND = 'openai-agents.op';

/**
 * The payload of an operation record: the operation id and the canonical hash of its transaction,
 * so a retry with the same transaction is recognised and one with another transaction refused.
 *
 * @example
 * ```ts
 * { operationId: 'turn-3', transactionSha256: '9f2c…', type: 'append_items' }
 * ```
 */
export interface OperationPayload {
  operationId: string;
  transactionSha256: string;
  type: SessionHistoryTransaction['type'];
}

/** A checked transaction: its type, items and hash. */
export interface CheckedTransaction {
  operationId: string;
  transaction: SessionHistoryTransaction;
  sha256: string;
}

function itemsOf(value: unknown, field: string): AgentInputItem[] {
  if (!Array.isArray(value)) throw new UserError(`Session history transaction ${field} must be an array.`);
  return value as AgentInputItem[];
}

function fieldsAre(record: Record<string, unknown>, names: string[]): boolean {
  const keys = Object.keys(record);
  return keys.length === names.length && names.every((name) => Object.hasOwn(record, name));
}

/**
 * Checks the arguments of `applyHistoryTransaction` as the SDK's `MemorySession` does, and hashes
 * the transaction (canonical JSON of its encoded items), before anything is written.
 *
 * @throws UserError (the SDK's) for malformed arguments or items that cannot be stored.
 */
export function checkTransaction(args: SessionHistoryTransactionArgs, context: ItemsContext): CheckedTransaction {
  const operationId: unknown = args?.operationId;
  const transaction: unknown = args?.transaction;
  if (typeof operationId !== 'string' || operationId.trim() === '') {
    throw new UserError('Session history transaction operationId must be a non-empty string.');
  }
  if (transaction === null || typeof transaction !== 'object') throw new UserError('Session history transaction must be an object.');
  const record = transaction as Record<string, unknown>;
  let checked: SessionHistoryTransaction;
  if (record.type === 'append_items') {
    if (!fieldsAre(record, ['type', 'items'])) throw new UserError('Session history append transaction fields are invalid.');
    checked = { type: 'append_items', items: itemsOf(record.items, 'items') };
  } else if (record.type === 'replace_suffix') {
    if (!fieldsAre(record, ['type', 'expectedSuffix', 'replacement'])) throw new UserError('Session history suffix transaction fields are invalid.');
    checked = {
      type: 'replace_suffix',
      expectedSuffix: itemsOf(record.expectedSuffix, 'expectedSuffix'),
      replacement: itemsOf(record.replacement, 'replacement'),
    };
  } else {
    throw new UserError('Unsupported session history transaction type.');
  }
  if (checked.type === 'append_items') checkItems(checked.items);
  else {
    checkItems(checked.expectedSuffix);
    checkItems(checked.replacement);
  }
  const hash = (items: AgentInputItem[]): Record<string, unknown>[] => items.map((item, index) => hashed(item, context, index));
  let encoded: unknown;
  try {
    encoded =
      checked.type === 'append_items'
        ? { type: checked.type, items: hash(checked.items) }
        : { type: checked.type, expectedSuffix: hash(checked.expectedSuffix), replacement: hash(checked.replacement) };
    return { operationId, transaction: checked, sha256: sha256Hex(canonicalize(encoded, HASH_OPTIONS)) };
  } catch (error) {
    throw new UserError(`Session history transaction items contain invalid or unsupported data: ${(error as Error).message}`);
  }
}

/** True when two item lists are the same once stored (canonical JSON of their encodings). */
export function sameItems(left: readonly AgentInputItem[], right: readonly AgentInputItem[], context: ItemsContext): boolean {
  if (left.length !== right.length) return false;
  const hash = (items: readonly AgentInputItem[]): Record<string, unknown>[] => items.map((item, index) => hashed(item, context, index));
  try {
    return canonicalize(hash(left), HASH_OPTIONS) === canonicalize(hash(right), HASH_OPTIONS);
  } catch {
    return false;
  }
}
