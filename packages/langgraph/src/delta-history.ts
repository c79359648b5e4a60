import type { CheckpointPendingWrite, DeltaChannelHistory } from '@langchain/langgraph-checkpoint';
import type { CheckpointEntry, TupleReader } from './tuple-reader.js';

/*
 * getDeltaChannelHistory for DeltaChannel graphs: the base class walks the ancestors with one
 * verified getTuple each. Here the ancestors come from one descending range read of the thread's
 * index (the same read `list` uses, page by page), each checkpoint with its writes; only the
 * checkpoints on the target's parent chain count (another branch's rows in between are skipped).
 */

/**
 * Seeds and writes of `channels` over the ancestors of `target`, newest first from `ancestors`
 * (a descending read of the target's (thread, namespace) below it). Same result as the base
 * class: per channel, the writes since the newest ancestor holding a value (its seed), oldest first.
 */
export async function deltaHistory(
  reader: TupleReader,
  target: CheckpointEntry,
  ancestors: AsyncIterable<CheckpointEntry>,
  channels: readonly string[],
): Promise<Record<string, DeltaChannelHistory>> {
  const collected = new Map<string, CheckpointPendingWrite[]>(channels.map((ch) => [ch, []]));
  const seeds = new Map<string, unknown>();
  const remaining = new Set(channels);
  let next = target.checkpoint.parent_checkpoint_id;
  for await (const entry of ancestors) {
    if (next === null || remaining.size === 0) break;
    if (entry.checkpoint.checkpoint_id !== next) continue;
    const [writes = []] = await reader.writesOf([entry], remaining);
    // Newest first across checkpoints; reversed at the end, so each block goes in reversed.
    for (let i = writes.length - 1; i >= 0; i--) {
      const w = writes[i] as CheckpointPendingWrite;
      collected.get(w[1])?.push(w);
    }
    const values = await reader.channelValues(entry, [...remaining]);
    for (const [ch, value] of values) {
      if (value === undefined) continue; // as MemorySaver: an undefined value seeds nothing
      seeds.set(ch, value);
      remaining.delete(ch);
    }
    next = entry.checkpoint.parent_checkpoint_id;
  }
  return deltaHistoryOf(channels, collected, seeds);
}

/** The result shape: per channel its writes oldest first, and its seed when one was found. */
export function deltaHistoryOf(
  channels: readonly string[],
  collected = new Map<string, CheckpointPendingWrite[]>(),
  seeds = new Map<string, unknown>(),
): Record<string, DeltaChannelHistory> {
  const out: Record<string, DeltaChannelHistory> = {};
  for (const ch of channels) {
    const entry: DeltaChannelHistory = { writes: (collected.get(ch) ?? []).slice().reverse() };
    if (seeds.has(ch)) entry.seed = seeds.get(ch);
    Object.defineProperty(out, ch, { value: entry, enumerable: true, writable: true, configurable: true });
  }
  return out;
}
