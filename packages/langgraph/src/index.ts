/**
 * @session-checkpoint/langgraph: a LangGraph.js checkpointer over a session-checkpoint store.
 *
 * @packageDocumentation
 */
export { SessionCheckpointSaver, type SessionCheckpointSaverOptions } from './session-checkpoint-saver.js';
export type { PruneReport, SaverPruneOptions } from './retention.js';
export {
  CHECKPOINT_KIND,
  PART_KIND,
  WRITE_KIND,
  type CheckpointPayload,
  type ListPiece,
  type PartPayload,
  type PartRef,
  type StoredWrite,
  type WritePayload,
} from './row-payloads.js';
export type { StoredValue } from './stored-value.js';
