import type { LanggraphState, LanggraphThreadSummary, LanggraphTimelineEntry, LanggraphWrite } from '@session-checkpoint/langgraph/rows';
import type { SessionState, SessionSummary, SessionTimelineEntry } from '@session-checkpoint/openai-agents/rows';
import type { SealStatus } from '../output/records.js';
import type { FrameworkFamily, FrameworkState, FrameworkSummary, FrameworkTimelineEntry } from './framework-families.js';

/*
 * Result shapes of the inspection readers (src/inspect), shared by `threads`, `state`, `diff`
 * and the `inspect` viewer. JSON-ready, snake_case.
 */

/**
 * What wrote a thread's rows: the LangGraph saver, an OpenAI Agents session, plain `create` calls,
 * an AI SDK chat store (`ai-sdk`), Mastra's memory domain (`mastra`) or workflows domain
 * (`mastra-workflow`).
 */
export type Family = 'langgraph' | 'openai-agents' | 'checkpoints' | FrameworkFamily;

/** The families, in the order listings use. */
export const FAMILIES: readonly Family[] = ['langgraph', 'openai-agents', 'checkpoints', 'ai-sdk', 'mastra', 'mastra-workflow'];

/** One plain session (rows written by `create` or `CheckpointStore.create`). */
export interface CheckpointsThreadSummary {
  family: 'checkpoints';
  namespace: string;
  thread_id: string;
  checkpoint_ns: [''];
  /** Checkpoints (rows) in the session. */
  count: number;
  bytes: number;
  first_created_at: string;
  latest_created_at: string;
}

/** One thread or session of any family. `count` is checkpoints (langgraph, checkpoints) or items (openai-agents). */
export type ThreadSummary = LanggraphThreadSummary | SessionSummary | CheckpointsThreadSummary | FrameworkSummary;

/** One plain checkpoint of a session's timeline (a row; its id is the row id). */
export interface CheckpointsTimelineEntry {
  checkpoint_id: string;
  /** The next older row of the session, as text; `null` for the oldest. */
  parent_checkpoint_id: string | null;
  checkpoint_ns: '';
  created_at: string;
  bytes: number;
  row_id: number;
  kind: string;
  name: string;
  status: 'verified' | 'failed';
  error?: { code: string; message: string };
  /** A store opened with keys: whether the row is sealed, encrypted and verified (seal, envelope, hash). */
  seal?: SealStatus;
}

export type { SealStatus } from '../output/records.js';

/**
 * A LangGraph or session step with, on a store opened with keys, its seal status (`seal`): on
 * every verified step (its rows' seals, envelopes and hashes passed); a failed step says why in `error`.
 */
export type WithSeal<T> = T & { seal?: SealStatus };

/** A timeline entry of any family. */
export type TimelineEntry = WithSeal<LanggraphTimelineEntry> | WithSeal<SessionTimelineEntry> | CheckpointsTimelineEntry | WithSeal<FrameworkTimelineEntry>;

/** A page of a thread's timeline, newest first. */
export interface Timeline {
  family: Family;
  namespace: string;
  thread_id: string;
  checkpoint_ns: string;
  entries: TimelineEntry[];
  /** Pass as `cursor` for the next (older) page; `null` on the last page. */
  next_cursor: string | null;
}

/** The payload of one plain checkpoint, verified. */
export interface CheckpointsState {
  family: 'checkpoints';
  namespace: string;
  session_id: string;
  checkpoint_id: string;
  created_at: string;
  kind: string;
  name: string;
  payload: unknown;
  /** A store opened with keys: the row is sealed, encrypted and verified. */
  seal?: SealStatus;
}

/** The state at one step, of any family. */
export type State = WithSeal<LanggraphState> | WithSeal<SessionState> | CheckpointsState | WithSeal<FrameworkState>;

/** The pending writes of a step (LangGraph only; other families have none). */
export type Writes = LanggraphWrite[];

/** One RFC 6902 operation, as fast-json-patch writes them. */
export interface PatchOperation {
  op: 'add' | 'remove' | 'replace' | 'move' | 'copy' | 'test';
  path: string;
  value?: unknown;
  from?: string;
}

/** Which thread: the family is found from the rows when not given. */
export interface ThreadSelector {
  /** Store namespace. Default: the family's default (`langgraph`, `openai-agents`, `default`). */
  namespace?: string;
  /** Needed only when the same id names threads of several families. */
  family?: Family;
  threadId: string;
  /** LangGraph checkpoint namespace (a Mastra run's workflow name). Default is `""`. */
  checkpointNs?: string;
}

/** Which step of a thread. */
export interface StepSelector extends ThreadSelector {
  /** LangGraph checkpoint id, a session position (as text) or a plain row id (as text). Default is the latest. */
  checkpointId?: string;
}

/** The result of {@link firstChange}. */
export interface FirstChange {
  family: Family;
  pointer: string;
  /** The first checkpoint on the line where the value at `pointer` differs from its parent's; `null` when none does. */
  checkpoint_id: string | null;
  parent_checkpoint_id: string | null;
  /** The value at the parent (absent when the pointer resolved to nothing there). */
  before?: unknown;
  /** The value at the checkpoint (absent when the pointer resolves to nothing). */
  after?: unknown;
  /** Checkpoints on the line (its whole length, also when the search stopped early), and how many states were rebuilt. */
  walked: number;
  rebuilt: number;
}
