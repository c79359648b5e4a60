import { CheckpointStore, type CheckpointAdapter, type CheckpointStoreOptions } from '@session-checkpoint/core';

/** The facade's options out of a front door's options (which also carry the backend's). */
function storeOptions(options: CheckpointStoreOptions): CheckpointStoreOptions {
  return {
    ...(options.limits === undefined ? {} : { limits: options.limits }),
    ...(options.now === undefined ? {} : { now: options.now }),
    ...(options.verifiedTextCache === undefined ? {} : { verifiedTextCache: options.verifiedTextCache }),
  };
}

/** A `CheckpointStore` over a front door's adapter; the adapter is closed when the store options are refused. */
export async function storeOver(adapter: CheckpointAdapter, options: CheckpointStoreOptions): Promise<CheckpointStore> {
  try {
    return new CheckpointStore(adapter, storeOptions(options));
  } catch (error) {
    await adapter.close();
    throw error;
  }
}
