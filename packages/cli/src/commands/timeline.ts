import { defineCommand } from '../command/define-command.js';
import { flag, FROM_FLAGS, THREAD_FLAGS, threadSelector } from '../command/flags.js';
import { UsageError } from '../errors/usage-error.js';
import { officialLocation, officialThread, withOfficial } from '../store/official-location.js';

/**
 * `timeline`: a thread's checkpoints as a story, newest first and paged: step, node(s) that ran,
 * source, time, parent, fork and interrupt marks, and a preview of the messages each added. Where
 * `state --step` and `diff --from-step` numbers come from.
 */
export default defineCommand({
  id: 'timeline',
  summary: "List a thread's checkpoints with step, nodes, fork and interrupt marks and message previews.",
  description:
    "List the checkpoints of a LangGraph thread (or the rows of a session or plain session), newest first, as one JSON document: for each its step, the node(s) that ran, source, time, parent, whether it is the latest, on the latest line or the main line, its children (a fork point has more than one), an interrupt mark (waiting: nothing ran after it) and a preview of the messages it added. Paged: pass next_cursor as --cursor for older checkpoints. Steps are numbered on the line that ends at the latest checkpoint; state --step and diff --from-step/--to-step use those numbers.",
  examples: [
    '<%= config.bin %> <%= command.id %> --store app.sqlite --thread chat-1',
    '<%= config.bin %> <%= command.id %> --store app.sqlite --thread chat-1 --limit 20 --cursor c3Rvcnk6MWVm...',
    { description: "A SqliteSaver's thread, read where it is (unverified):", command: '<%= config.bin %> <%= command.id %> --from sqlite:checkpoints.db --thread chat-1' },
  ],
  flags: {
    ...THREAD_FLAGS,
    limit: flag.integer({ default: 50, description: 'Checkpoints per page, 1 to 500.' }),
    cursor: flag.string({ description: 'next_cursor of the previous page. Default is the newest page.' }),
    ...FROM_FLAGS,
  },
  async action({ flags, openStore }) {
    const { limit, cursor } = flags;
    if (!Number.isSafeInteger(limit) || limit < 1 || limit > 500) throw new UsageError('--limit must be from 1 to 500');
    const inspect = await import('../inspect/index.js');
    const page = { limit, ...(cursor === undefined ? {} : { cursor }) };
    const location = officialLocation(flags);
    if (location !== undefined) {
      return withOfficial(location, flags.schema, async (_lib, official) => {
        const { source, ref } = await officialThread(official, threadSelector(flags));
        return inspect.storyTimeline(source, ref, page);
      });
    }
    const store = await openStore();
    const { source, ref } = await inspect.storeThread(store, threadSelector(flags));
    return inspect.storyTimeline(source, ref, page);
  },
});
