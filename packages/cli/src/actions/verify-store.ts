import { CheckpointIntegrityError } from '@session-checkpoint/core';
import type { CommandContext } from './command-context.js';

/** Flags of `verify`. */
export interface VerifyFlags {
  /** Only this namespace; the whole store when absent. */
  namespace?: string | undefined;
}

/**
 * `verify`: `{ namespace, checked, ok, failures: [] }`; any bad row fails with
 * `CheckpointIntegrityError` naming every bad id and its reason.
 *
 * @example
 * ```ts
 * await verifyStore(context); // { namespace: null, checked: 5, ok: 5, failures: [] }
 * ```
 */
export async function verifyStore({ flags, openStore }: CommandContext<VerifyFlags>): Promise<Record<string, unknown>> {
  const store = await openStore();
  const report = await store.verify(flags.namespace === undefined ? {} : { namespace: flags.namespace });
  if (report.failures.length > 0) {
    const detail = report.failures.map((f) => `id ${f.id} (${f.reason})`).join(', ');
    throw new CheckpointIntegrityError(`${report.failures.length} of ${report.checked} checkpoints failed integrity verification: ${detail}`, {
      failures: report.failures,
    });
  }
  return { namespace: report.namespace, checked: report.checked, ok: report.ok, failures: [] };
}
