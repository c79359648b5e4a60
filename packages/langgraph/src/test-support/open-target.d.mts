import type { CheckpointStore } from '@session-checkpoint/core';

/** Opens `sqlite:<path>`, `postgres:<schema>` or `postgres-lockrow:<schema>` (see open-target.mjs). */
export function openTarget(target: string, options?: { busyTimeoutMs?: number; poolSize?: number }): Promise<CheckpointStore>;
