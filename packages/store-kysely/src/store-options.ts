import type { CheckpointStoreOptions } from '@session-checkpoint/core';

/** The facade's options out of a front door's options (which also carry the backend's). */
export function storeOptions(options: CheckpointStoreOptions): CheckpointStoreOptions {
  return {
    ...(options.limits === undefined ? {} : { limits: options.limits }),
    ...(options.now === undefined ? {} : { now: options.now }),
    ...(options.verifiedTextCache === undefined ? {} : { verifiedTextCache: options.verifiedTextCache }),
  };
}
