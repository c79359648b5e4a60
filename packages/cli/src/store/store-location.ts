import { realpathSync } from 'node:fs';
import { describeStore, type StoreSelection } from './store-selection.js';

/**
 * How a selected store is shown in results: the resolved path (symlinks followed once the file
 * exists) or the URL with its password masked.
 *
 * @example
 * ```ts
 * storeLocation({ kind: 'sqlite', path: 'app.sqlite' }); // '/home/me/app.sqlite'
 * ```
 */
export function storeLocation(selection: StoreSelection): string {
  if (selection.kind === 'sqlite') {
    try {
      return realpathSync(selection.path);
    } catch {
      return selection.path;
    }
  }
  return describeStore(selection);
}
