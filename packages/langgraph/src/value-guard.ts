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
 * Date or a cycle anywhere inside.
 *
 * @example
 * ```ts
 * assertStorable({ n: 1n }, "channel 'count'"); // throws: ... channel 'count'.n is a BigInt ...
 * ```
 */
export function assertStorable(value: unknown, where: Where): void {
  walk(value, where, []);
}

function walk(value: unknown, where: Where, ancestors: object[]): void {
  switch (typeof value) {
    case 'bigint':
      return refuse(where, 'a BigInt');
    case 'number':
      if (!Number.isFinite(value)) refuse(where, String(value));
      return;
    case 'object':
      break;
    default:
      return;
  }
  if (value === null || ArrayBuffer.isView(value) || value instanceof ArrayBuffer) return;
  if (value instanceof Date) {
    if (Number.isNaN(value.getTime())) refuse(where, 'an invalid Date');
    return;
  }
  if (ancestors.includes(value)) refuse(where, 'a circular reference');
  ancestors.push(value);
  try {
    const toJSON = (value as { toJSON?: unknown }).toJSON;
    if (typeof toJSON === 'function') {
      const json: unknown = toJSON.call(value);
      if (json !== value) walk(json, where, ancestors);
    } else if (value instanceof Map) {
      let i = 0;
      for (const [k, v] of value) {
        walk(k, `${where}<key ${i}>`, ancestors);
        walk(v, `${where}<value ${i++}>`, ancestors);
      }
    } else if (value instanceof Set) {
      let i = 0;
      for (const v of value) walk(v, `${where}<item ${i++}>`, ancestors);
    } else if (Array.isArray(value)) {
      for (let i = 0; i < value.length; i++) walk(value[i], `${where}[${i}]`, ancestors);
    } else {
      for (const key of Object.keys(value)) walk((value as Record<string, unknown>)[key], `${where}.${key}`, ancestors);
    }
  } finally {
    ancestors.pop();
  }
}
