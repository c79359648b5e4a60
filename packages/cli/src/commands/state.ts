import { CheckpointNotFoundError } from '@session-checkpoint/core';
import { defineCommand } from '../command/define-command.js';
import { flag, FROM_FLAGS, THREAD_FLAGS, threadSelector } from '../command/flags.js';
import { UsageError } from '../errors/usage-error.js';
import { officialLocation, officialThread, withOfficial } from '../store/official-location.js';

/**
 * `state`: the verified state at one step of a thread (the latest by default). With `--path`, the
 * state's header and the value at that JSON pointer (`path`, `value`) instead of the whole
 * `values` / `items` / `payload`.
 */
export default defineCommand({
  id: 'state',
  summary: 'Print the verified state at one step of a thread.',
  description:
    "Print the state at one step of a thread, verified: a LangGraph checkpoint's channel values exactly as the saver's getTuple rebuilds them (LangChain objects in their serialised JSON form), with next nodes, metadata and pending writes; an OpenAI Agents session's items (up to --position); a plain checkpoint's payload. The latest step by default, or --checkpoint ID, or --step N (the step number timeline prints, on the line that ends at the latest checkpoint). LangGraph's internal channels (__start__, branch:*, __pregel_*, ...) are left out of values and pending_writes, and named in internal_hidden, unless --internal. A row that fails verification is an error, never shown.",
  examples: [
    '<%= config.bin %> <%= command.id %> --store app.sqlite --thread chat-1',
    '<%= config.bin %> <%= command.id %> --store app.sqlite --thread chat-1 --checkpoint 1ef4... --path /messages/0',
    '<%= config.bin %> <%= command.id %> --store app.sqlite --thread user-42 --position 4',
    '<%= config.bin %> <%= command.id %> --store app.sqlite --thread chat-1 --step 3',
    { description: "A PostgresSaver's thread, read where it is (unverified):", command: '<%= config.bin %> <%= command.id %> --from postgres://user@host:5432/db --schema lg --thread chat-1' },
  ],
  flags: {
    ...THREAD_FLAGS,
    checkpoint: flag.string({ description: 'LangGraph checkpoint id (a session position, a plain checkpoint id). Default is the latest.' }),
    path: flag.string({ description: 'RFC 6901 JSON pointer into values (LangGraph), items (sessions), the payload, messages (AI SDK chats), { thread, messages } (Mastra threads) or the snapshot (Mastra runs): print only that value.' }),
    position: flag.integer({ description: 'OpenAI Agents sessions: the items up to this position (1 is the first item).' }),
    step: flag.integer({ description: 'The step as `timeline` numbers it, on the line that ends at the latest checkpoint (LangGraph metadata.step; a session position; a plain checkpoint\'s place, 1 = oldest).' }),
    internal: flag.boolean({ description: 'LangGraph: keep the internal channels (__start__, branch:*, __pregel_*, ...) that are hidden by default.' }),
    ...FROM_FLAGS,
  },
  async action({ flags, openStore }) {
    const { path, position, step } = flags;
    let { checkpoint } = flags;
    if (step !== undefined && (checkpoint !== undefined || position !== undefined)) throw new UsageError('--step names the step by its number: give it without --checkpoint or --position');
    const inspect = await import('../inspect/index.js');
    if (path !== undefined) inspect.parsePointer(path);
    const location = officialLocation(flags);
    if (location !== undefined && position !== undefined) throw new UsageError('--position is for OpenAI Agents sessions; an official saver\'s store holds LangGraph threads');
    const selector = threadSelector(flags);
    let state;
    if (location !== undefined) {
      state = await withOfficial(location, flags.schema, async (lib, store) => {
        if (step !== undefined) {
          const { source, ref } = await officialThread(store, selector);
          checkpoint = await inspect.checkpointAtStep(source, ref, step);
        }
        return lib.officialState(store, { threadId: selector.threadId, ...(selector.checkpointNs === undefined ? {} : { checkpointNs: selector.checkpointNs }), ...(checkpoint === undefined ? {} : { checkpointId: checkpoint }) });
      });
    } else {
      const store = await openStore();
      if (step !== undefined) {
        const { source, ref } = await inspect.storeThread(store, selector);
        checkpoint = ref.family === 'openai-agents' ? String(step) : await inspect.checkpointAtStep(source, ref, step);
      }
      state = await inspect.readState(store, {
        ...selector,
        ...(checkpoint === undefined ? {} : { checkpointId: checkpoint }),
        ...(position === undefined ? {} : { position }),
      });
    }
    if (path === undefined) return flags.internal ? state : inspect.hideInternalChannels(state);
    const at = inspect.valueAtPointer(inspect.stateDocument(state), path);
    if (!at.found) throw new CheckpointNotFoundError(`nothing at ${JSON.stringify(path)} in this state`);
    const header: Record<string, unknown> = { ...state };
    for (const key of ['values', 'items', 'payload', 'pending_writes', 'checkpoint', 'messages', 'thread', 'snapshot']) delete header[key];
    return { ...header, path, value: at.value };
  },
});
