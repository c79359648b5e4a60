import { Flags } from '../flags/flag-builders.js';
import { showState } from '../actions/show-state.js';
import { BaseCommand } from '../base-command.js';
import { integerFlag } from '../flags/common-flags.js';
import { threadFlags } from '../flags/thread-flags.js';

/** `state`: the verified state at one step of a thread. */
export default class State extends BaseCommand<typeof State> {
  static override description =
    "Print the state at one step of a thread, verified: a LangGraph checkpoint's channel values exactly as the saver's getTuple rebuilds them (LangChain objects in their serialised JSON form), with next nodes, metadata and pending writes; an OpenAI Agents session's items (up to --position); a plain checkpoint's payload. The latest step by default. A row that fails verification is an error, never shown.";
  static override examples = [
    '<%= config.bin %> <%= command.id %> --store app.sqlite --thread chat-1',
    '<%= config.bin %> <%= command.id %> --store app.sqlite --thread chat-1 --checkpoint 1ef4... --path /messages/0',
    '<%= config.bin %> <%= command.id %> --store app.sqlite --thread user-42 --position 4',
  ];
  static override flags = {
    ...threadFlags(),
    checkpoint: Flags.string({ description: 'LangGraph checkpoint id (a session position, a plain checkpoint id). Default is the latest.' }),
    path: Flags.string({ description: 'RFC 6901 JSON pointer into values (LangGraph), items (sessions) or the payload: print only that value.' }),
    position: integerFlag({ description: 'OpenAI Agents sessions: the items up to this position (1 is the first item).' }),
  };
  static override summary = 'Print the verified state at one step of a thread.';

  /** The state (or, with --path, its header and the value at the pointer). */
  async run(): Promise<unknown> {
    return showState(this.context());
  }
}
