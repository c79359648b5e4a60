import { resolve } from 'node:path';
import { StoreSecurityError, type CheckpointStore } from '@session-checkpoint/core';
import { UsageError } from '../errors/usage-error.js';
import { expandHome } from '../input/expand-home.js';
import { KEY_FILE_ENV } from './store-selection.js';

/**
 * The key file a command opens its store with: `--key-file`, else `SESSION_CHECKPOINT_KEY_FILE`,
 * as an absolute path; `undefined` for neither (a plain store, as without sealing).
 *
 * @throws UsageError for an empty path.
 * @example
 * ```ts
 * selectKeyFile({ 'key-file': '~/app.keys' }); // '/home/me/app.keys'
 * ```
 */
export function selectKeyFile(flags: { 'key-file'?: string | undefined }, env: NodeJS.ProcessEnv = process.env): string | undefined {
  const given = flags['key-file'];
  const path = given ?? (env[KEY_FILE_ENV] || undefined);
  if (path === undefined) return undefined;
  if (path === '') throw new UsageError('--key-file must not be empty');
  return resolve(expandHome(path));
}

/**
 * Refuses to write into a sealed store opened without keys: the rows would be plaintext, which
 * every reader with the keys refuses, and a delete would leave the heads behind their rows.
 *
 * @throws StoreSecurityError when `store` was opened without keys and holds sealed rows.
 */
export async function refuseKeylessWrite(store: CheckpointStore): Promise<void> {
  if (store.keyIds !== undefined || !(await store.isSealed())) return;
  throw new StoreSecurityError(`The store is sealed: give its key file (--key-file or ${KEY_FILE_ENV}) to write to it; rows written without keys would be plaintext, refused on read`);
}
