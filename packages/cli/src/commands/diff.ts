import { defineCommand } from '../command/define-command.js';
import { flag, SOURCE_FLAG, THREAD_FLAGS, threadSelector } from '../command/flags.js';
import { officialLocation, withOfficial } from '../store/official-location.js';
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
    "Compare two steps of a thread: an RFC 6902 JSON Patch that turns the state at --from into the state at --to (any two checkpoints, across forks; session positions; plain checkpoint ids). With --first-change POINTER, the first checkpoint on the line ending at --to (default the latest) where the value at the JSON pointer differs from its parent's.",
  examples: [
    '<%= config.bin %> <%= command.id %> --store app.sqlite --thread chat-1 --from 1ef4...a --to 1ef4...b',
    '<%= config.bin %> <%= command.id %> --store app.sqlite --thread chat-1 --first-change /messages/3/kwargs/content',
    { description: "Two checkpoints of a SqliteSaver's thread (--from is the checkpoint here, so the store is --source):", command: '<%= config.bin %> <%= command.id %> --source sqlite:checkpoints.db --thread chat-1 --from 1ef4...a --to 1ef4...b' },
  ],
  flags: {
    ...THREAD_FLAGS,
    from: flag.string({ description: 'The step to compare from (checkpoint id, session position or plain checkpoint id).' }),
    to: flag.string({ description: 'The step to compare to; with --first-change, where the line ends (default the latest).' }),
    'first-change': flag.string({ description: 'RFC 6901 JSON pointer: find the first step on the line where its value changed.' }),
    ...SOURCE_FLAG,
  },
  async action({ flags, openStore }) {
    const { from, to, 'first-change': pointer } = flags;
    if (pointer === undefined && (from === undefined || to === undefined)) throw new UsageError('diff needs --from and --to, or --first-change POINTER');
    if (pointer !== undefined && from !== undefined) throw new UsageError('--first-change walks back from --to (or the latest); it takes no --from');
    const inspect = await import('../inspect/index.js');
    if (pointer !== undefined) inspect.parsePointer(pointer);
    const selector = threadSelector(flags);
    const location = officialLocation({ ...flags, from: undefined });
    if (location !== undefined) {
      if (pointer !== undefined) throw new UsageError('--first-change reads our store only; with --source, diff two checkpoints with --from and --to');
      const at = { threadId: selector.threadId, ...(selector.checkpointNs === undefined ? {} : { checkpointNs: selector.checkpointNs }) };
      return withOfficial(location, flags.schema, async (lib, store) => {
        const a = await lib.officialState(store, { ...at, checkpointId: from! });
        const b = await lib.officialState(store, { ...at, checkpointId: to! });
        return { family: 'langgraph', from: from!, to: to!, patch: inspect.diffDocuments(a.values, b.values) };
      });
    }
    const store = await openStore();
    if (pointer !== undefined) return inspect.firstChange(store, { ...selector, pointer, ...(to === undefined ? {} : { to }) });
    return inspect.diffSteps(store, { ...selector, from: from!, to: to! });
  },
});
