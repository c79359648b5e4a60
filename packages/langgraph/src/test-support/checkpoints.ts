import { uuid6, type BaseCheckpointSaver, type Checkpoint, type CheckpointMetadata, type CheckpointTuple } from '@langchain/langgraph-checkpoint';

/** A checkpoint with these channel values, every channel at `version`. */
export function checkpointWith(values: Record<string, unknown>, version = 1, versions: Record<string, number> = {}): Checkpoint {
  return {
    v: 4,
    id: uuid6(-1),
    ts: new Date().toISOString(),
    channel_values: values,
    channel_versions: { ...Object.fromEntries(Object.keys(values).map((k) => [k, version])), ...versions },
    versions_seen: {},
  };
}

/** Loop metadata of a step. */
export function meta(step: number): CheckpointMetadata {
  return { source: 'loop', step, parents: {} };
}

/** A config of a thread, optionally naming a parent checkpoint. */
export function cfg(thread: string, parent?: string, ns = '') {
  return { configurable: { thread_id: thread, checkpoint_ns: ns, ...(parent === undefined ? {} : { checkpoint_id: parent }) } };
}

/** Every tuple `list` gives for one thread (all its checkpoint namespaces), newest first. */
export async function listThread(saver: BaseCheckpointSaver, thread: string): Promise<CheckpointTuple[]> {
  const out: CheckpointTuple[] = [];
  for await (const t of saver.list(cfg(thread))) out.push(t);
  return out;
}
