import { CheckpointNotFoundError, CheckpointValidationError, type CheckpointStore } from '@session-checkpoint/core';
import { aiSdkChats, chatState, chatTimeline, AI_SDK_NAMESPACE, type ChatState, type ChatSummary, type ChatTimelineEntry } from '@session-checkpoint/ai-sdk/rows';
import {
  mastraRuns,
  mastraRunWorkflows,
  mastraRunState,
  mastraRunTimeline,
  mastraThreads,
  mastraThreadState,
  mastraThreadTimeline,
  MASTRA_NAMESPACE,
  type MastraChangeEntry,
  type MastraRunState,
  type MastraRunSummary,
  type MastraSnapshotEntry,
  type MastraThreadState,
  type MastraThreadSummary,
} from '@session-checkpoint/mastra/rows';

/*
 * The families of the framework packages whose rows are read by their `rows` subpaths (no `ai`,
 * no `@mastra/*`): AI SDK chats (`ai-sdk`: a step is a save, an edit or a regenerate a fork),
 * Mastra threads (`mastra`: a step is a change of the thread's memory) and Mastra workflow runs
 * (`mastra-workflow`: a step is a persisted snapshot; the thread id is the run id and the
 * checkpoint namespace the workflow's name). threads.ts, timeline.ts and state.ts call these.
 */

/** The framework families. */
export type FrameworkFamily = 'ai-sdk' | 'mastra' | 'mastra-workflow';

/** The framework families, in the order listings use. */
export const FRAMEWORK_FAMILIES: readonly FrameworkFamily[] = ['ai-sdk', 'mastra', 'mastra-workflow'];

/** Their default store namespaces (the packages' own defaults). */
export const FRAMEWORK_NAMESPACES: Readonly<Record<FrameworkFamily, string>> = {
  'ai-sdk': AI_SDK_NAMESPACE,
  mastra: MASTRA_NAMESPACE,
  'mastra-workflow': MASTRA_NAMESPACE,
};

/** Row kinds these families write: a plain session whose rows are of these kinds is not listed as plain checkpoints. */
export const FRAMEWORK_KIND_PREFIXES: readonly string[] = ['ai-sdk.', 'mastra.'];

/** Summaries, timeline entries and states of these families. */
export type FrameworkSummary = ChatSummary | MastraThreadSummary | MastraRunSummary;
export type FrameworkTimelineEntry = ChatTimelineEntry | MastraChangeEntry | MastraSnapshotEntry;
export type FrameworkState = ChatState | MastraThreadState | MastraRunState;

/** True for the framework families. */
export function isFrameworkFamily(family: string): family is FrameworkFamily {
  return (FRAMEWORK_FAMILIES as readonly string[]).includes(family);
}

/** The threads of one framework family in `namespace`. */
export function frameworkThreads(store: CheckpointStore, family: FrameworkFamily, namespace: string): Promise<FrameworkSummary[]> {
  if (family === 'ai-sdk') return aiSdkChats(store, { namespace });
  if (family === 'mastra') return mastraThreads(store, { namespace });
  return mastraRuns(store, { namespace });
}

/** The workflow of a run id: `checkpointNs` when given, else the one workflow holding a run of that id. */
async function workflowOf(store: CheckpointStore, namespace: string, runId: string, checkpointNs: string | undefined): Promise<string | undefined> {
  // The run's own record (one source-ref read) when the workflow is named; else only the records of this run id.
  const workflows = await mastraRunWorkflows(store, { namespace, runId, ...(checkpointNs === undefined || checkpointNs === '' ? {} : { workflowName: checkpointNs }) });
  if (workflows.length > 1) throw new CheckpointValidationError(`run '${runId}' belongs to several workflows (${workflows.join(', ')}); choose one with --checkpoint-ns`);
  return workflows[0];
}

/** True when `family` holds the thread (chat, Mastra thread, run) in `namespace`. */
export async function frameworkHolds(store: CheckpointStore, family: FrameworkFamily, namespace: string, threadId: string, checkpointNs?: string): Promise<boolean> {
  if (family === 'ai-sdk') return (await chatTimeline(store, { namespace, chatId: threadId, limit: 1 })).entries.length > 0;
  if (family === 'mastra') return (await mastraThreadTimeline(store, { namespace, threadId, limit: 1 })).entries.length > 0;
  return (await workflowOf(store, namespace, threadId, checkpointNs)) !== undefined;
}

/** A step id of these families (a save, change or snapshot number, as text). */
function stepOf(text: string): number {
  if (!/^[1-9][0-9]{0,15}$/.test(text)) throw new CheckpointValidationError(`a step of this family is a positive integer (a save, change or snapshot number), not ${JSON.stringify(text)}`);
  return Number(text);
}

/** A page of a framework thread's timeline. */
export async function frameworkTimeline(
  store: CheckpointStore,
  family: FrameworkFamily,
  namespace: string,
  selector: { threadId: string; checkpointNs?: string | undefined },
  paging: { limit: number; cursor?: string },
): Promise<{ checkpoint_ns: string; entries: FrameworkTimelineEntry[]; next_cursor: string | null }> {
  if (family === 'ai-sdk') return { checkpoint_ns: '', ...(await chatTimeline(store, { namespace, chatId: selector.threadId, ...paging })) };
  if (family === 'mastra') return { checkpoint_ns: '', ...(await mastraThreadTimeline(store, { namespace, threadId: selector.threadId, ...paging })) };
  const workflowName = await workflowOf(store, namespace, selector.threadId, selector.checkpointNs);
  if (workflowName === undefined) throw new CheckpointNotFoundError(`no Mastra workflow run '${selector.threadId}' in namespace '${namespace}'`);
  return { checkpoint_ns: workflowName, ...(await mastraRunTimeline(store, { namespace, workflowName, runId: selector.threadId, ...paging })) };
}

/** The state of a framework thread after step `checkpointId` (the newest when absent), verified. */
export async function frameworkState(store: CheckpointStore, family: FrameworkFamily, namespace: string, selector: { threadId: string; checkpointNs?: string | undefined; checkpointId?: string | undefined; position?: number | undefined }): Promise<FrameworkState> {
  if (selector.position !== undefined) throw new CheckpointValidationError(`--position is for OpenAI Agents sessions; a step of ${family} is named by its number (--checkpoint)`);
  const step = selector.checkpointId === undefined ? undefined : stepOf(selector.checkpointId);
  if (family === 'ai-sdk') {
    const state = await chatState(store, { namespace, chatId: selector.threadId, ...(step === undefined ? {} : { save: step }) });
    if (step !== undefined && state.save !== step) throw new CheckpointNotFoundError(`no save ${step} of AI SDK chat '${selector.threadId}' (its newest is ${state.save})`);
    return state;
  }
  if (family === 'mastra') {
    const state = await mastraThreadState(store, { namespace, threadId: selector.threadId, ...(step === undefined ? {} : { step }) });
    if (step !== undefined && state.step !== step) throw new CheckpointNotFoundError(`no change ${step} of Mastra thread '${selector.threadId}' (its newest is ${state.step})`);
    return state;
  }
  const workflowName = await workflowOf(store, namespace, selector.threadId, selector.checkpointNs);
  if (workflowName === undefined) throw new CheckpointNotFoundError(`no Mastra workflow run '${selector.threadId}' in namespace '${namespace}'`);
  return mastraRunState(store, { namespace, workflowName, runId: selector.threadId, ...(step === undefined ? {} : { seq: step }) });
}

/**
 * Every timeline entry of a framework thread, by step id (pages of 1,000): for walking a line of
 * parents (`diff --first-change`).
 */
export async function frameworkEntries(store: CheckpointStore, family: FrameworkFamily, namespace: string, selector: { threadId: string; checkpointNs?: string | undefined }): Promise<Map<string, FrameworkTimelineEntry>> {
  const out = new Map<string, FrameworkTimelineEntry>();
  for (let cursor: string | undefined; ; ) {
    const page = await frameworkTimeline(store, family, namespace, selector, { limit: 1000, ...(cursor === undefined ? {} : { cursor }) });
    for (const e of page.entries) out.set(e.checkpoint_id, e);
    if (page.next_cursor === null) return out;
    cursor = page.next_cursor;
  }
}

/**
 * The document pointers and diffs address: a chat's messages (`ai-sdk`), what a Mastra thread
 * had in memory (`{ thread, messages }`), a run's snapshot.
 */
export function frameworkDocument(state: FrameworkState): unknown {
  if (state.family === 'ai-sdk') return state.messages;
  if (state.family === 'mastra') return { thread: state.thread, messages: state.messages };
  return state.snapshot;
}
