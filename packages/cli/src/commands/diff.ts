import { defineCommand } from '../command/define-command.js';
import { flag, SOURCE_FLAG, THREAD_FLAGS, threadSelector } from '../command/flags.js';
import { officialLocation, officialThread, withOfficial } from '../store/official-location.js';
import { UsageError } from '../errors/usage-error.js';

/**
 * `diff`: `{ patch }`, the RFC 6902 patch from the state at `--from` to the state at `--to`; or,
 * with `--first-change POINTER`, the first checkpoint on the line (to `--to`, or the latest)
 * where the value at the pointer differs from its parent's.
 */
export default defineCommand({
  id: 'diff',
  summary: 'Diff two steps of a thread, or find where a value changed.',
  description:
    "Compare two steps of a thread: an RFC 6902 JSON Patch that turns the state at --from into the state at --to (any two checkpoints, across forks; session positions; plain checkpoint ids). Steps may be named by number instead (--from-step, --to-step: the numbers timeline prints, on the line that ends at the latest checkpoint). Operations on LangGraph's internal channels (__start__, branch:*, __pregel_*, ...) are left out, and counted in internal_hidden, unless --internal. With --first-change POINTER, the first checkpoint on the line ending at --to (default the latest) where the value at the JSON pointer differs from its parent's.",
  examples: [
    '<%= config.bin %> <%= command.id %> --store app.sqlite --thread chat-1 --from 1ef4...a --to 1ef4...b',
    '<%= config.bin %> <%= command.id %> --store app.sqlite --thread chat-1 --from-step 3 --to-step 4',
    '<%= config.bin %> <%= command.id %> --store app.sqlite --thread chat-1 --first-change /messages/3/kwargs/content',
    { description: "Two checkpoints of a SqliteSaver's thread (--from is the checkpoint here, so the store is --source):", command: '<%= config.bin %> <%= command.id %> --source sqlite:checkpoints.db --thread chat-1 --from 1ef4...a --to 1ef4...b' },
  ],
  flags: {
    ...THREAD_FLAGS,
    from: flag.string({ description: 'The step to compare from (checkpoint id, session position or plain checkpoint id).' }),
    to: flag.string({ description: 'The step to compare to; with --first-change, where the line ends (default the latest).' }),
    'first-change': flag.string({ description: 'RFC 6901 JSON pointer: find the first step on the line where its value changed.' }),
    'from-step': flag.integer({ description: 'The step to compare from, by the number timeline prints (on the line that ends at the latest checkpoint); instead of --from.' }),
    'to-step': flag.integer({ description: 'The step to compare to (or, with --first-change, where the line ends), by number; instead of --to.' }),
    internal: flag.boolean({ description: 'LangGraph: keep the operations on internal channels (__start__, branch:*, __pregel_*, ...) that are left out by default.' }),
    ...SOURCE_FLAG,
  },
  async action({ flags, openStore }) {
    const { 'first-change': pointer, 'from-step': fromStep, 'to-step': toStep } = flags;
    let { from, to } = flags;
    if (fromStep !== undefined && from !== undefined) throw new UsageError('give --from or --from-step, not both');
    if (toStep !== undefined && to !== undefined) throw new UsageError('give --to or --to-step, not both');
    const hasFrom = from !== undefined || fromStep !== undefined;
    const hasTo = to !== undefined || toStep !== undefined;
    if (pointer === undefined && (!hasFrom || !hasTo)) throw new UsageError('diff needs --from (or --from-step) and --to (or --to-step), or --first-change POINTER');
    if (pointer !== undefined && hasFrom) throw new UsageError('--first-change walks back from --to (or the latest); it takes no --from');
    const inspect = await import('../inspect/index.js');
    if (pointer !== undefined) inspect.parsePointer(pointer);
    const selector = threadSelector(flags);
    const location = officialLocation({ ...flags, from: undefined });
    if (location !== undefined) {
      const at = { threadId: selector.threadId, checkpointNs: selector.checkpointNs ?? '' };
      return withOfficial(location, flags.schema, async (lib, official) => {
        if (fromStep !== undefined || toStep !== undefined) {
          const { source, ref } = await officialThread(official, selector);
          const lines = await inspect.threadLines(source, ref);
          if (fromStep !== undefined) from = await inspect.checkpointAtStep(source, ref, fromStep, lines);
          if (toStep !== undefined) to = await inspect.checkpointAtStep(source, ref, toStep, lines);
        }
        if (pointer !== undefined) {
          return inspect.lineFirstChange(
            {
              page: (cursor) => lib.officialTimeline(official, { ...at, limit: 1000, ...(cursor === undefined ? {} : { cursor }) }),
              channelValues: (checkpointId, channels) => lib.officialChannelValues(official, { ...at, checkpointId, channels }),
            },
            { ...selector, pointer, ...(to === undefined ? {} : { to }) },
          );
        }
        const a = await lib.officialState(official, { ...at, checkpointId: from! });
        const b = await lib.officialState(official, { ...at, checkpointId: to! });
        const patch = inspect.diffDocuments(a.values, b.values);
        const shown = flags.internal ? { patch, hidden: 0 } : inspect.hideInternalOperations(patch);
        return { family: 'langgraph', from: from!, to: to!, patch: shown.patch, ...(shown.hidden > 0 ? { internal_hidden: shown.hidden } : {}) };
      });
    }
    const store = await openStore();
    if (fromStep !== undefined || toStep !== undefined) {
      const { source, ref } = await inspect.storeThread(store, selector);
      const lines = ref.family === 'openai-agents' ? undefined : await inspect.threadLines(source, ref);
      const at = async (step: number) => (ref.family === 'openai-agents' ? String(step) : inspect.checkpointAtStep(source, ref, step, lines));
      if (fromStep !== undefined) from = await at(fromStep);
      if (toStep !== undefined) to = await at(toStep);
    }
    if (pointer !== undefined) return inspect.firstChange(store, { ...selector, pointer, ...(to === undefined ? {} : { to }) });
    const result = await inspect.diffSteps(store, { ...selector, from: from!, to: to! });
    if (flags.internal || result.family !== 'langgraph') return result;
    const { patch, hidden } = inspect.hideInternalOperations(result.patch);
    return { ...result, patch, ...(hidden > 0 ? { internal_hidden: hidden } : {}) };
  },
});
