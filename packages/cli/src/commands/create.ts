import { DEFAULT_LIMITS } from '@session-checkpoint/core';
import { prepareCheckpoint } from '@session-checkpoint/core/internal';
import { defineCommand } from '../command/define-command.js';
import { flag, namespaceFlag } from '../command/flags.js';
import { readPayloadFile } from '../input/payload-file.js';
import { checkpointJson, planJson, sealStatus } from '../output/records.js';

/** `create`: stores one checkpoint from a JSON object file (or standard input); `--dry-run` plans only. */
export default defineCommand({
  id: 'create',
  summary: 'Create one checkpoint from a JSON object.',
  description: [
    'Create one checkpoint from a file holding a JSON object (`-` reads standard input; at most 8 MiB).',
    'The payload is canonicalised and hashed; numbers are kept exactly as written.',
    'With --dry-run the checkpoint is validated and planned but the store is never opened.',
  ].join('\n'),
  examples: [
    '<%= config.bin %> <%= command.id %> --store app.sqlite --session-id sess-1 --payload-file state.json',
    '<%= config.bin %> <%= command.id %> --store app.sqlite --namespace agent --session-id sess-1 --kind auto --source-ref run:42 --payload-file state.json',
    {
      command: 'echo \'{"step": 1}\' | <%= config.bin %> <%= command.id %> --store app.sqlite --session-id sess-1 --payload-file -',
      description: 'Read the payload from standard input.',
    },
    '<%= config.bin %> <%= command.id %> --store app.sqlite --session-id sess-1 --payload-file state.json --created-at 2026-08-08T07:00:00Z --dry-run',
  ],
  flags: {
    'created-at': flag.string({ description: 'RFC 3339 timestamp with offset (Z or +HH:MM). Default is now (UTC, whole seconds).' }),
    'dry-run': flag.boolean({ description: 'Validate and show the plan without opening the store.' }),
    kind: flag.string({ default: 'manual', description: 'Kind token (letters, digits, . _ : -).' }),
    name: flag.string({ description: 'Human name. Default is checkpoint_<created_at without - and :>.' }),
    namespace: namespaceFlag(),
    'payload-file': flag.string({ description: 'File holding the JSON object payload; - reads standard input.', required: true }),
    'session-id': flag.string({ description: 'Session the checkpoint belongs to.', required: true }),
    'source-ref': flag.string({ description: 'Caller reference, unique within the namespace.' }),
  },
  async action({ flags, storeSelection, openStore }) {
    // Resolve the store selection first: a missing --store is a usage error even for a dry run.
    storeSelection();
    const payloadJson = await readPayloadFile(flags['payload-file'], DEFAULT_LIMITS);
    const prepared = prepareCheckpoint(
      {
        namespace: flags.namespace,
        sessionId: flags['session-id'],
        payloadJson,
        kind: flags.kind,
        name: flags.name ?? null,
        createdAt: flags['created-at'] ?? null,
        sourceRef: flags['source-ref'] ?? null,
      },
      DEFAULT_LIMITS,
    );
    if (flags['dry-run']) return { dry_run: true, plan: planJson(prepared) };
    const store = await openStore({ create: true, write: true });
    return checkpointJson(await store.insertPrepared(prepared), { seal: sealStatus(store) });
  },
});
