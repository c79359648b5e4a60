import { UserError, type AgentInputItem, type SessionHistoryTransaction, type SessionHistoryTransactionArgs } from '@openai/agents-core';
import { canonicalize, sha256Hex } from '@session-checkpoint/core';
import { encodeItem } from './item-codec.js';

/** An item as the transaction hash covers it (the shape of the 0.1.0 item rows, so hashes stay put). */
function hashed(item: AgentInputItem): Record<string, unknown> {
  const { item: json, binary } = encodeItem(item);
  return binary.length === 0 ? { item: json } : { item: json, binary };
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
export function checkTransaction(args: SessionHistoryTransactionArgs): CheckedTransaction {
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
  let encoded: unknown;
  try {
    encoded =
      checked.type === 'append_items'
        ? { type: checked.type, items: checked.items.map(hashed) }
        : { type: checked.type, expectedSuffix: checked.expectedSuffix.map(hashed), replacement: checked.replacement.map(hashed) };
    return { operationId, transaction: checked, sha256: sha256Hex(canonicalize(encoded)) };
  } catch (error) {
    throw new UserError(`Session history transaction items contain invalid or unsupported data: ${(error as Error).message}`);
  }
}

/** True when two item lists are the same once stored (canonical JSON of their encodings). */
export function sameItems(left: readonly AgentInputItem[], right: readonly AgentInputItem[]): boolean {
  if (left.length !== right.length) return false;
  try {
    return canonicalize(left.map(hashed)) === canonicalize(right.map(hashed));
  } catch {
    return false;
  }
}
