/**
 * Test helpers: turn a lossless tree back into values for {@link formatPythonJson} (objects as Maps so
 * member order is kept, numbers as RawJson so lexemes are kept) or into compact JSON text.
 * Recursive on purpose: test inputs are shallow.
 */
import type { JsonNode } from '../json-node.js';
import { RawJson } from '../raw-json.js';

export function treeToValue(node: JsonNode, rawAt?: (path: string[]) => boolean, path: string[] = []): unknown {
  if (rawAt?.(path)) return new RawJson(compact(node));
  switch (node.kind) {
    case 'object':
      return new Map(node.entries.map(([k, v]) => [k, treeToValue(v, rawAt, [...path, k])]));
    case 'array':
      return node.items.map((v, i) => treeToValue(v, rawAt, [...path, String(i)]));
    case 'string':
      return node.value;
    case 'number':
      return new RawJson(node.lexeme);
    default:
      return node.kind === 'null' ? null : node.kind === 'true';
  }
}

export function compact(node: JsonNode): string {
  switch (node.kind) {
    case 'object':
      return '{' + node.entries.map(([k, v]) => JSON.stringify(k) + ':' + compact(v)).join(',') + '}';
    case 'array':
      return '[' + node.items.map(compact).join(',') + ']';
    case 'string':
      return JSON.stringify(node.value);
    case 'number':
      return node.lexeme;
    default:
      return node.kind;
  }
}
