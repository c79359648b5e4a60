import { Flags } from '../flags/flag-builders.js';
import { createCheckpoint } from '../actions/create-checkpoint.js';
import { BaseCommand } from '../base-command.js';
import { namespaceFlag } from '../flags/common-flags.js';

/** `create`: store one checkpoint from a JSON object file (or standard input). */
export default class Create extends BaseCommand<typeof Create> {
  static override description = [
    'Create one checkpoint from a file holding a JSON object (`-` reads standard input; at most 8 MiB).',
    'The payload is canonicalised and hashed; numbers are kept exactly as written.',
    'With --dry-run the checkpoint is validated and planned but the store is never opened.',
  ].join('\n');
  static override examples = [
    '<%= config.bin %> <%= command.id %> --store app.sqlite --session-id sess-1 --payload-file state.json',
    '<%= config.bin %> <%= command.id %> --store app.sqlite --namespace agent --session-id sess-1 --kind auto --source-ref run:42 --payload-file state.json',
    {
      command: 'echo \'{"step": 1}\' | <%= config.bin %> <%= command.id %> --store app.sqlite --session-id sess-1 --payload-file -',
      description: 'Read the payload from standard input.',
    },
    '<%= config.bin %> <%= command.id %> --store app.sqlite --session-id sess-1 --payload-file state.json --created-at 2026-08-08T07:00:00Z --dry-run',
  ];
  static override flags = {
    'created-at': Flags.string({ description: 'RFC 3339 timestamp with offset (Z or +HH:MM). Default is now (UTC, whole seconds).' }),
    'dry-run': Flags.boolean({ default: false, description: 'Validate and show the plan without opening the store.' }),
    kind: Flags.string({ default: 'manual', description: 'Kind token (letters, digits, . _ : -).' }),
    name: Flags.string({ description: 'Human name. Default is checkpoint_<created_at without - and :>.' }),
    namespace: namespaceFlag(),
    'payload-file': Flags.string({ description: 'File holding the JSON object payload; - reads standard input.', required: true }),
    'session-id': Flags.string({ description: 'Session the checkpoint belongs to.', required: true }),
    'source-ref': Flags.string({ description: 'Caller reference, unique within the namespace.' }),
  };
  static override summary = 'Create one checkpoint from a JSON object.';

  /** The stored checkpoint, or `{ dry_run: true, plan }`. */
  async run(): Promise<unknown> {
    return createCheckpoint(this.context());
  }
}
