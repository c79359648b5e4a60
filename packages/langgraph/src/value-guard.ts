import { CheckpointValidationError } from '@session-checkpoint/core';

/*
 * JsonPlusSerializer turns some values into junk without an error: a BigInt anywhere makes the
 * whole value the string "[unable to serialize, ...]", NaN and Infinity become null, a cycle
 * becomes "[Circular]" and an invalid Date becomes null. This walk finds them first, so `put`
 * and `putWrites` refuse them with an error naming the place, and nothing is ever stored as junk.
 * It follows what JSON serialisation visits: own enumerable properties, `toJSON()` results,
 * Map and Set entries; byte arrays are skipped (the serializer keeps them).
 */

type Where = string;

function refuse(where: Where, what: string): never {
  throw new CheckpointValidationError(
    `LangGraph value at ${where} is ${what}, which the serializer cannot store faithfully; convert it first (e.g. a BigInt to a string)`,
  );
}

/**
 * Throws `CheckpointValidationError` if `value` holds a BigInt, a non-finite number, an invalid
 * Date or a cycle anywhere inside. Returns `true` when the value is plain JSON data (plain
 * objects, arrays, strings, booleans, null, finite numbers other than -0): what JSON.parse could
 * have produced, so serializing it changes nothing.
 *
 * @example
 * ```ts
 * assertStorable({ n: 1n }, "channel 'count'"); // throws: ... channel 'count'.n is a BigInt ...
 * assertStorable({ a: [1, 'x'] }, 'x');          // true
 * ```
 */
export function assertStorable(value: unknown, where: Where): boolean {
  return walk(value, where, []);
}

/** Walks `value`; returns whether everything seen was plain JSON. */
function walk(value: unknown, where: Where, ancestors: object[]): boolean {
  switch (typeof value) {
    case 'bigint':
      return refuse(where, 'a BigInt');
    case 'number':
      if (!Number.isFinite(value)) refuse(where, String(value));
      return !Object.is(value, -0);
    case 'string':
    case 'boolean':
      return true;
    case 'object':
      break;
    default:
      return false;
  }
  if (value === null) return true;
  if (ArrayBuffer.isView(value) || value instanceof ArrayBuffer) return false;
  if (value instanceof Date) {
    if (Number.isNaN(value.getTime())) refuse(where, 'an invalid Date');
    return false;
  }
  if (ancestors.includes(value)) refuse(where, 'a circular reference');
  ancestors.push(value);
  try {
    const toJSON = (value as { toJSON?: unknown }).toJSON;
    if (typeof toJSON === 'function') {
      const json: unknown = toJSON.call(value);
      if (json !== value) walk(json, where, ancestors);
      return false;
    }
    if (value instanceof Map) {
      let i = 0;
      for (const [k, v] of value) {
        walk(k, `${where}<key ${i}>`, ancestors);
        walk(v, `${where}<value ${i++}>`, ancestors);
      }
      return false;
    }
    if (value instanceof Set) {
      let i = 0;
      for (const v of value) walk(v, `${where}<item ${i++}>`, ancestors);
      return false;
    }
    let plain = true;
    if (Array.isArray(value)) {
      for (let i = 0; i < value.length; i++) plain = walk(value[i], `${where}[${i}]`, ancestors) && plain;
      return plain;
    }
    const proto: unknown = Object.getPrototypeOf(value);
    plain = proto === Object.prototype || proto === null;
    for (const key of Object.keys(value)) plain = walk((value as Record<string, unknown>)[key], `${where}.${key}`, ancestors) && plain;
    return plain;
  } finally {
    ancestors.pop();
  }
}
