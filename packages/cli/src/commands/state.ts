import { CheckpointNotFoundError } from '@session-checkpoint/core';
import { defineCommand } from '../command/define-command.js';
import { flag, THREAD_FLAGS, threadSelector } from '../command/flags.js';

/**
 * `state`: the verified state at one step of a thread (the latest by default). With `--path`, the
 * state's header and the value at that JSON pointer (`path`, `value`) instead of the whole
 * `values` / `items` / `payload`.
 */
export default defineCommand({
  id: 'state',
  summary: 'Print the verified state at one step of a thread.',
  description:
    "Print the state at one step of a thread, verified: a LangGraph checkpoint's channel values exactly as the saver's getTuple rebuilds them (LangChain objects in their serialised JSON form), with next nodes, metadata and pending writes; an OpenAI Agents session's items (up to --position); a plain checkpoint's payload. The latest step by default. A row that fails verification is an error, never shown.",
  examples: [
    '<%= config.bin %> <%= command.id %> --store app.sqlite --thread chat-1',
    '<%= config.bin %> <%= command.id %> --store app.sqlite --thread chat-1 --checkpoint 1ef4... --path /messages/0',
    '<%= config.bin %> <%= command.id %> --store app.sqlite --thread user-42 --position 4',
  ],
  flags: {
    ...THREAD_FLAGS,
    checkpoint: flag.string({ description: 'LangGraph checkpoint id (a session position, a plain checkpoint id). Default is the latest.' }),
    path: flag.string({ description: 'RFC 6901 JSON pointer into values (LangGraph), items (sessions), the payload, messages (AI SDK chats), { thread, messages } (Mastra threads) or the snapshot (Mastra runs): print only that value.' }),
    position: flag.integer({ description: 'OpenAI Agents sessions: the items up to this position (1 is the first item).' }),
  },
  async action({ flags, openStore }) {
    const { checkpoint, path, position } = flags;
    const inspect = await import('../inspect/index.js');
    if (path !== undefined) inspect.parsePointer(path);
    const store = await openStore();
    const state = await inspect.readState(store, {
      ...threadSelector(flags),
      ...(checkpoint === undefined ? {} : { checkpointId: checkpoint }),
      ...(position === undefined ? {} : { position }),
    });
    if (path === undefined) return state;
    const at = inspect.valueAtPointer(inspect.stateDocument(state), path);
    if (!at.found) throw new CheckpointNotFoundError(`nothing at ${JSON.stringify(path)} in this state`);
    const header: Record<string, unknown> = { ...state };
    for (const key of ['values', 'items', 'payload', 'pending_writes', 'checkpoint', 'messages', 'thread', 'snapshot']) delete header[key];
    return { ...header, path, value: at.value };
  },
});
