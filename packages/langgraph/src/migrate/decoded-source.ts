import type { RunnableConfig } from '@langchain/core/runnables';
import type { BaseCheckpointSaver, Checkpoint, CheckpointMetadata, CheckpointTuple, PendingWrite } from '@langchain/langgraph-checkpoint';
import { CheckpointNotFoundError } from '@session-checkpoint/core';
import { setOwn } from '../format/json.js';
import { isStockJsonPlus } from '../format/serde.js';
import { officialCheckpoint, type DecodedValue } from '../official/index.js';
import { SessionCheckpointSaver } from '../saver.js';
import { storeUnder } from './indexes.js';

/*
 * The migration reads a SqliteSaver's or PostgresSaver's checkpoints through the same decoder as
 * `./official` (the CLI's `--from`), not through the saver's getTuple: one decoder for both. The
 * decoded JSON is then revived by the saver's own serializer, so the tuples put into the target
 * are the objects getTuple would give. The verification afterwards still asks the saver's
 * getTuple, a second path that checks this one.
 */

/** What the migration reads a source's checkpoints through: `getTuple` of one (thread, ns, id). */
export interface TupleReader {
  getTuple(config: RunnableConfig): Promise<CheckpointTuple | undefined>;
}

/**
 * How the migration reads `source`: through the `./official` decoder for a SqliteSaver or
 * PostgresSaver with the stock serializer, else through its own `getTuple`.
 */
export function tupleReader(source: BaseCheckpointSaver): TupleReader {
  const store = source instanceof SessionCheckpointSaver || !isStockJsonPlus(source.serde) ? undefined : storeUnder(source);
  if (store === undefined) return source;
  const revive = (v: DecodedValue): Promise<unknown> => (v.type === 'json' ? source.serde.loadsTyped('json', JSON.stringify(v.json)) : source.serde.loadsTyped('bytes', v.bytes));
  return {
    async getTuple(config) {
      const { thread_id, checkpoint_ns = '', checkpoint_id } = (config.configurable ?? {}) as { thread_id: string; checkpoint_ns?: string; checkpoint_id?: string };
      let c;
      try {
        c = await officialCheckpoint(store, { threadId: thread_id, checkpointNs: checkpoint_ns, ...(checkpoint_id === undefined ? {} : { checkpointId: checkpoint_id }) });
      } catch (error) {
        if (error instanceof CheckpointNotFoundError) return undefined;
        throw error;
      }
      const channel_values: Record<string, unknown> = {};
      for (const [channel, value] of c.values) setOwn(channel_values, channel, await revive(value));
      const pendingWrites: [string, ...PendingWrite][] = [];
      for (const w of c.writes) pendingWrites.push([w.task_id, w.channel, await revive(w.value)]);
      const at = (id: string) => ({ configurable: { thread_id, checkpoint_ns, checkpoint_id: id } });
      return {
        config: at(c.checkpointId),
        checkpoint: { ...c.checkpoint, channel_values } as unknown as Checkpoint,
        metadata: (await revive(c.metadata)) as CheckpointMetadata,
        ...(c.parentCheckpointId === null ? {} : { parentConfig: at(c.parentCheckpointId) }),
        pendingWrites,
      };
    },
  };
}
