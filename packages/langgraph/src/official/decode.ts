import { UndecodableValueError } from './errors.js';

/*
 * The official savers store every value through LangGraph's JsonPlusSerializer, whose documented
 * output is a type tag and bytes: `json` (UTF-8 JSON text: plain data, LangChain objects as
 * `{ lc: 1, type: "constructor", id, kwargs }`, and `{ lc: 2, ... }` records for undefined, Set,
 * Map, RegExp, Error and Uint8Array) or `bytes` (a Uint8Array as is). PostgresSaver writes a
 * channel with no value as type `empty`. Readers show values in that JSON form, as the `./rows`
 * readers show the saver's own values: nothing is revived, so no LangChain class is needed.
 */

const utf8 = new TextDecoder('utf-8', { fatal: true });

/** Where a value was read, for error messages. */
export interface ValuePlace {
  threadId: string;
  checkpointNs: string;
  checkpointId: string;
  /** e.g. `channel messages`, `metadata`, `write 2 of task t-1`. */
  what: string;
}

function placeText(at: ValuePlace): string {
  return `${at.what} of checkpoint ${at.checkpointId} of thread '${at.threadId}'${at.checkpointNs === '' ? '' : ` (checkpoint namespace '${at.checkpointNs}')`}`;
}

/** The bytes of a column value (better-sqlite3 gives Buffers for BLOBs and strings for TEXT; pg gives Buffers for bytea). */
function bytesOf(data: Uint8Array | string): Uint8Array {
  return typeof data === 'string' ? new TextEncoder().encode(data) : data;
}

/** A stored value decoded: the JSON the serializer wrote, or the bytes of a `bytes` value. */
export type DecodedValue = { type: 'json'; json: unknown } | { type: 'bytes'; bytes: Uint8Array };

/**
 * Decodes one stored value: `json` to the parsed JSON, `bytes` to its bytes.
 *
 * @throws UndecodableValueError for any other type tag, or `json` data that is not UTF-8 JSON.
 */
export function decodeStored(type: string | null | undefined, data: Uint8Array | string | null | undefined, at: ValuePlace): DecodedValue {
  const tag = type ?? 'json'; // SqliteSaver reads a missing type as json
  if (tag === 'bytes') return { type: 'bytes', bytes: bytesOf(data ?? '') };
  if (tag !== 'json') throw new UndecodableValueError(`cannot decode ${placeText(at)}: serializer type ${JSON.stringify(tag)} (only "json" and "bytes" are LangGraph's JsonPlusSerializer forms)`, tag);
  try {
    const text = typeof data === 'string' ? data : utf8.decode(data ?? new Uint8Array());
    return { type: 'json', json: JSON.parse(text) as unknown };
  } catch (error) {
    throw new UndecodableValueError(`cannot decode ${placeText(at)}: its "json" data is not UTF-8 JSON (${error instanceof Error ? error.message : String(error)})`, tag, { cause: error });
  }
}

/** A decoded value in its JSON form: the JSON itself, or `{ $type: "bytes", $base64 }` (the form `./rows` gives the saver's bytes values). */
export function jsonFormOf(value: DecodedValue): unknown {
  return value.type === 'json' ? value.json : { $type: 'bytes', $base64: Buffer.from(value.bytes).toString('base64') };
}

/**
 * Decodes one stored value to its JSON form ({@link decodeStored}, then {@link jsonFormOf}).
 *
 * @throws UndecodableValueError for any other type tag than `json` and `bytes`, or `json` data that is not UTF-8 JSON.
 */
export function decodeStoredValue(type: string | null | undefined, data: Uint8Array | string | null | undefined, at: ValuePlace): unknown {
  return jsonFormOf(decodeStored(type, data, at));
}
