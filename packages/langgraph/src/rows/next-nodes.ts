/*
 * The nodes a checkpoint runs next, from its channel versions alone (no graph at hand): LangGraph
 * triggers a StateGraph node through its channel `branch:to:<node>` (the start node through
 * `__start__`), and runs it when that channel holds a value at a version the node has not seen.
 */

const BRANCH = 'branch:to:';
const START = '__start__';

/** A version comparison as LangGraph's: numbers numerically, otherwise as text. */
function newer(a: unknown, b: unknown): boolean {
  if (b === undefined) return true;
  if (typeof a === 'number' && typeof b === 'number') return a > b;
  return String(a) > String(b);
}

/**
 * The names of the nodes triggered at this checkpoint, sorted.
 *
 * @example
 * ```ts
 * nextNodes({ channel_versions: { 'branch:to:agent': 3 }, versions_seen: { agent: { 'branch:to:agent': 2 } } }, new Set(['branch:to:agent'])); // ['agent']
 * ```
 */
export function nextNodes(checkpoint: Record<string, unknown>, present: ReadonlySet<string>): string[] {
  const versions = (checkpoint.channel_versions ?? {}) as Record<string, unknown>;
  const seen = (checkpoint.versions_seen ?? {}) as Record<string, Record<string, unknown> | undefined>;
  const out: string[] = [];
  for (const channel of Object.keys(versions)) {
    const node = channel === START ? START : channel.startsWith(BRANCH) ? channel.slice(BRANCH.length) : undefined;
    if (node === undefined || !present.has(channel)) continue;
    const nodeSeen = Object.hasOwn(seen, node) ? seen[node] : undefined;
    if (newer(versions[channel], nodeSeen !== undefined && Object.hasOwn(nodeSeen, channel) ? nodeSeen[channel] : undefined)) out.push(node);
  }
  return out.sort();
}
