import type { CheckpointTuple } from '@langchain/langgraph-checkpoint';

/*
 * What "the same checkpoint" means across two savers: the same values (of the channels that have
 * a version), versions, metadata, parent and pending writes once both sides are written as JSON
 * with sorted keys. Each saver revives values
 * through its own serializer, so objects compare by what they serialise to (a message by its
 * `toJSON`), and Map, Set, Date, bytes and bigint by tagged forms JSON would otherwise lose.
 */

/**
 * A JSON-ready copy of `value` with object keys sorted, for comparing what two savers return.
 */
export function normalized(value: unknown, seen: Set<object> = new Set()): unknown {
  if (value === undefined) return { $undefined: true };
  if (value === null || typeof value === 'boolean' || typeof value === 'string') return value;
  if (typeof value === 'number') return Number.isFinite(value) && !Object.is(value, -0) ? value : { $number: String(Object.is(value, -0) ? '-0' : value) };
  if (typeof value === 'bigint') return { $bigint: value.toString() };
  if (typeof value !== 'object') return { $type: typeof value };
  if (seen.has(value)) return { $cycle: true };
  seen.add(value);
  try {
    if (Array.isArray(value)) return value.map((v) => normalized(v, seen));
    if (value instanceof Map) return { $map: [...value].map(([k, v]) => [normalized(k, seen), normalized(v, seen)]) };
    if (value instanceof Set) return { $set: [...value].map((v) => normalized(v, seen)) };
    if (value instanceof Date) return { $date: Number.isNaN(value.getTime()) ? 'invalid' : value.toISOString() };
    if (ArrayBuffer.isView(value)) return { $bytes: Buffer.from(value.buffer, value.byteOffset, value.byteLength).toString('base64') };
    const toJSON = (value as { toJSON?: unknown }).toJSON;
    if (typeof toJSON === 'function') {
      const json: unknown = toJSON.call(value);
      if (json !== value) return normalized(json, seen);
    }
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(value).sort()) {
      const v = (value as Record<string, unknown>)[key];
      // JSON savers drop a key whose value is undefined; so does the comparison.
      if (v !== undefined) out[key] = normalized(v, seen);
    }
    return out;
  } finally {
    seen.delete(value);
  }
}

/** Pending writes in a saver-independent order: by task (stable), as `[task, channel, value]`. */
function writesOf(tuple: CheckpointTuple): unknown[] {
  const writes = [...(tuple.pendingWrites ?? [])];
  return writes.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0)).map(([task, channel, value]) => [task, channel, normalized(value)]);
}

/**
 * The checkpoint with only the values of channels that have a version. A channel gets a version
 * on its first update, so one without a version holds its initial value: LangGraph writes that
 * value into the checkpoint (`count: 0`, `messages: []`, an empty `__pregel_tasks`), SqliteSaver
 * keeps it, our saver does not store it, and LangGraph restores the same channel either way.
 */
function withVersionedValues(checkpoint: CheckpointTuple['checkpoint'], versioned: Set<string>): unknown {
  const values = checkpoint.channel_values as Record<string, unknown>;
  return { ...checkpoint, channel_values: Object.fromEntries(Object.entries(values ?? {}).filter(([channel]) => versioned.has(channel))) };
}

/** One field of a checkpoint that two savers answer differently. */
export interface FieldDifference {
  /** `checkpoint` (values, versions, ts), `metadata`, `parent` or `pending writes`. */
  field: 'checkpoint' | 'metadata' | 'parent' | 'pending writes';
  /** The source's answer, as normalised JSON (cut after 300 characters). */
  source: string;
  /** The target's answer, likewise. */
  target: string;
}

/**
 * The fields in which two tuples of the same checkpoint differ; empty when they are the same.
 */
export function tupleDifferences(source: CheckpointTuple, target: CheckpointTuple): FieldDifference[] {
  const out: FieldDifference[] = [];
  // A difference report carries at most 300 characters of each side.
  const shown = (text: string) => (text.length <= 300 ? text : `${text.slice(0, 300)}... (${text.length} characters)`);
  const check = (field: FieldDifference['field'], a: unknown, b: unknown) => {
    const ta = JSON.stringify(a);
    const tb = JSON.stringify(b);
    if (ta !== tb) out.push({ field, source: shown(ta), target: shown(tb) });
  };
  const versioned = new Set([...Object.keys(source.checkpoint.channel_versions ?? {}), ...Object.keys(target.checkpoint.channel_versions ?? {})]);
  check('checkpoint', normalized(withVersionedValues(source.checkpoint, versioned)), normalized(withVersionedValues(target.checkpoint, versioned)));
  check('metadata', normalized(source.metadata ?? {}), normalized(target.metadata ?? {}));
  check('parent', source.parentConfig?.configurable?.checkpoint_id ?? null, target.parentConfig?.configurable?.checkpoint_id ?? null);
  check('pending writes', writesOf(source), writesOf(target));
  return out;
}
