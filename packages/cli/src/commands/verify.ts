import { CheckpointIntegrityError, CheckpointValidationError } from '@session-checkpoint/core';
import { defineCommand } from '../command/define-command.js';
import { flag, namespaceFlag } from '../command/flags.js';

/**
 * `verify`: `{ namespace, checked, ok, failures: [] }`; any bad row fails with every bad id and its
 * reason. With keys (a sealed store) it also checks every chain and head, and prints the store
 * head's digest (`head`), the anchor that `--expect-head` later checks.
 */
export default defineCommand({
  id: 'verify',
  summary: 'Check the integrity of every checkpoint.',
  description: [
    'Verify every checkpoint of the store (or of one namespace): canonical payload, hash and fields.',
    'A clean store prints the counts; any bad row makes the command fail (exit 1, CheckpointIntegrityError) with every bad id and its reason in the message.',
    'With --key-file (a sealed store), every seal, envelope, chain and head is checked too, and the result adds sealed, sessions and head: the digest of the store head (sc-head-v1:<writes>:<hex>). Keep it outside the store; --expect-head DIGEST later fails (CheckpointIntegrityError) unless the store is exactly at that head, saying whether it was rolled back, written since or replaced.',
  ].join('\n'),
  examples: [
    '<%= config.bin %> <%= command.id %> --store app.sqlite',
    '<%= config.bin %> <%= command.id %> --store app.sqlite --namespace agent',
    '<%= config.bin %> <%= command.id %> --store app.sqlite --key-file app.keys',
    '<%= config.bin %> <%= command.id %> --store app.sqlite --key-file app.keys --expect-head sc-head-v1:412:9f1c...',
  ],
  flags: {
    namespace: namespaceFlag('Only this namespace. Default is the whole store.'),
    'expect-head': flag.string({ description: 'A sealed store only (--key-file): fail unless the store head is exactly this digest, one an earlier verify printed.' }),
  },
  async action({ flags, openStore, storeKeys }) {
    const expectHead = flags['expect-head'];
    if (expectHead !== undefined && (await storeKeys()) === undefined) {
      throw new CheckpointValidationError('--expect-head needs the store\'s keys (--key-file or SESSION_CHECKPOINT_KEY_FILE)');
    }
    const store = await openStore();
    const report = await store.verify({
      ...(flags.namespace === undefined ? {} : { namespace: flags.namespace }),
      ...(expectHead === undefined ? {} : { expectHead }),
    });
    if (report.failures.length > 0) {
      const detail = report.failures.map((f) => `id ${f.id} (${f.reason})`).join(', ');
      throw new CheckpointIntegrityError(`${report.failures.length} of ${report.checked} checkpoints failed integrity verification: ${detail}`, { failures: report.failures });
    }
    const base = { namespace: report.namespace, checked: report.checked, ok: report.ok, failures: [] };
    if (report.seal === undefined) return base;
    const { problems } = report.seal;
    if (problems.length > 0) {
      const detail = problems.map((p) => `${p.sessionId === null ? 'store' : `session '${p.sessionId}' of namespace '${p.namespace}'`}: ${p.reason}${p.ids.length > 0 ? ` (ids ${p.ids.join(', ')})` : ''}`).join('; ');
      throw new CheckpointIntegrityError(`${problems.length} chain or head problem(s) in the sealed store: ${detail}`, {
        failures: problems.flatMap((p) => p.ids.map((id) => ({ id, reason: p.reason }))),
      });
    }
    return { ...base, sealed: report.seal.sealed, sessions: report.seal.sessions, head: report.seal.head };
  },
});
