/**
 * Python's `json.loads` keeps the last of duplicate keys. The lossless tree keeps all of them, so
 * readers that act like the reference collapse members here, into a Map (never a plain object:
 * a key such as `__proto__` must stay data).
 */
import type { JsonNode } from '@session-checkpoint/core/toolkit';

/**
 * Members by key, the last duplicate winning.
 *
 * @example
 * ```ts
 * lastWins([['a', one], ['a', two]]).get('a'); // two
 * ```
 */
export function lastWins(entries: ReadonlyArray<readonly [string, JsonNode]>): Map<string, JsonNode> {
  const map = new Map<string, JsonNode>();
  for (const [key, value] of entries) map.set(key, value);
  return map;
}
