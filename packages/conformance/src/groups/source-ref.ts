import { isCheckpointConflictError } from '@session-checkpoint/core';
import { ensureEqual, rejectsWith } from '../assert.js';
import type { ConformanceCase } from '../types.js';

/** `(namespace, source_ref)` is unique; null never collides. */
export const sourceRef: ConformanceCase[] = [
  {
    name: 'source_ref is unique per namespace; null never collides',
    async run({ store, make }) {
      await make({ sourceRef: 'legacy:1' });
      const error = await rejectsWith(make({ sourceRef: 'legacy:1' }), isCheckpointConflictError, 'a taken source_ref must fail with CheckpointConflictError');
      ensureEqual(error.message, "source_ref already exists in namespace 'app'", 'the conflict must carry the reference message');
      await make({ namespace: 'other', sourceRef: 'legacy:1' });
      await make({ sourceRef: null });
      await make({ sourceRef: null });
      ensureEqual((await store.list({ namespace: 'app' })).length, 3, 'null source_refs must never collide');
      ensureEqual((await store.findBySourceRef('other', 'legacy:1'))?.namespace, 'other', 'the same source_ref must be free in another namespace');
    },
  },
];
