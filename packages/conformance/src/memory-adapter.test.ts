import { MemoryAdapter } from '@session-checkpoint/core';
import { describe, it } from 'vitest';
import { runConformanceSuite } from './index.js';

// The reference adapter runs the whole contract, as every adapter in this repository does.
await runConformanceSuite({ describe, it }, async () => {
  const adapter = new MemoryAdapter();
  return {
    adapter,
    storesBytes: true,
    tamper: (id, patch) => adapter.tamperForTesting(id, patch),
    destroy: () => adapter.close(),
  };
});
