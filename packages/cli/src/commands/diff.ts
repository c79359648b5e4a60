import { Flags } from '../flags/flag-builders.js';
import { diffStates } from '../actions/diff-states.js';
import { BaseCommand } from '../base-command.js';
import { threadFlags } from '../flags/thread-flags.js';

/** `diff`: the JSON Patch between two steps, or the first step that changed a value. */
export default class Diff extends BaseCommand<typeof Diff> {
  static override description =
    'Compare two steps of a thread: an RFC 6902 JSON Patch that turns the state at --from into the state at --to (any two checkpoints, across forks; session positions; plain checkpoint ids). With --first-change POINTER, the first checkpoint on the line ending at --to (default the latest) where the value at the JSON pointer differs from its parent\'s.';
  static override examples = [
    '<%= config.bin %> <%= command.id %> --store app.sqlite --thread chat-1 --from 1ef4...a --to 1ef4...b',
    '<%= config.bin %> <%= command.id %> --store app.sqlite --thread chat-1 --first-change /messages/3/kwargs/content',
  ];
  static override flags = {
    ...threadFlags(),
    from: Flags.string({ description: 'The step to compare from (checkpoint id, session position or plain checkpoint id).' }),
    to: Flags.string({ description: 'The step to compare to; with --first-change, where the line ends (default the latest).' }),
    'first-change': Flags.string({ description: 'RFC 6901 JSON pointer: find the first step on the line where its value changed.' }),
  };
  static override summary = 'Diff two steps of a thread, or find where a value changed.';

  /** `{ family, from, to, patch }`, or the first change. */
  async run(): Promise<unknown> {
    return diffStates(this.context());
  }
}
