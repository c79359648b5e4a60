import { storeLocation } from '../store/store-location.js';
import type { CommandContext } from './command-context.js';

/**
 * `init`: creates the store if missing, or checks an existing one.
 *
 * @example
 * ```ts
 * await initStore(context); // { store: '/home/me/app.sqlite', schema_version: 1 }
 * ```
 */
export async function initStore({ storeSelection, openStore }: CommandContext<unknown>): Promise<{ store: string; schema_version: number }> {
  await openStore({ create: true });
  return { store: storeLocation(storeSelection()), schema_version: 1 };
}
