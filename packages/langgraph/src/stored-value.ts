import type { SerializerProtocol } from '@langchain/langgraph-checkpoint';
import { CheckpointValidationError, type JsonValue } from '@session-checkpoint/core';
import { assertStorable } from './value-guard.js';

/**
 * A value as the saver stores it inside a checkpoint payload: the serializer's type tag with
 * either the parsed JSON it wrote (`j`: readable by the CLI and the Python tool) or, for binary
 * serializations, the bytes in base64 (`b64`).
 */
export interface StoredValue {
  /** The serializer's type tag, e.g. `"json"` or `"bytes"`. */
  t: string;
  j?: JsonValue;
  b64?: string;
}

const decoder = new TextDecoder('utf-8', { fatal: true });

/**
 * Serializes a value with `serde` after refusing what it would mangle (see {@link assertStorable}).
 *
 * @throws CheckpointValidationError naming `where` for a BigInt, NaN, Infinity, invalid Date or cycle.
 */
export async function storeValue(serde: SerializerProtocol, value: unknown, where: string): Promise<StoredValue> {
  assertStorable(value, where);
  const [t, bytes] = await serde.dumpsTyped(value);
  if (t === 'json') {
    try {
      return { t, j: JSON.parse(decoder.decode(bytes)) as JsonValue };
    } catch (error) {
      throw new CheckpointValidationError(`LangGraph value at ${where} did not serialize to JSON`, { cause: error });
    }
  }
  return { t, b64: Buffer.from(bytes).toString('base64') };
}

/** Restores a value written by {@link storeValue}. */
export async function loadValue(serde: SerializerProtocol, stored: StoredValue): Promise<unknown> {
  if (stored.b64 !== undefined) return serde.loadsTyped(stored.t, new Uint8Array(Buffer.from(stored.b64, 'base64')));
  return serde.loadsTyped(stored.t, JSON.stringify(stored.j ?? null));
}
