import type { CheckpointStore } from '@session-checkpoint/core';
import { MastraCompositeStore } from '@mastra/core/storage';
import { CheckpointMemoryStorage } from './memory-storage.js';
import { CheckpointWorkflowsStorage } from './workflows-storage.js';

/** Options of {@link createMastraStorage}. */
export interface MastraStorageOptions {
  /** The composite store's id. Default is `"session-checkpoint"`. */
  id?: string;
  /** Store namespace of both domains' rows. Default is `"mastra"`. */
  namespace?: string;
  /** A store for the domains this package does not implement (scores, observability, ...). Default is none. */
  default?: MastraCompositeStore;
}

/**
 * A `MastraCompositeStore` whose `memory` and `workflows` domains are this package's, over `store`:
 * what `new Mastra({ storage })` and `new Memory({ storage })` take.
 *
 * @example
 * ```ts
 * const storage = createMastraStorage(await openSqliteStore('./mastra.sqlite'));
 * const memory = new Memory({ storage });
 * ```
 */
export function createMastraStorage(store: CheckpointStore, options: MastraStorageOptions = {}): MastraCompositeStore {
  const namespace = options.namespace === undefined ? {} : { namespace: options.namespace };
  return new MastraCompositeStore({
    id: options.id ?? 'session-checkpoint',
    ...(options.default === undefined ? {} : { default: options.default }),
    domains: { memory: new CheckpointMemoryStorage(store, namespace), workflows: new CheckpointWorkflowsStorage(store, namespace) },
  });
}
