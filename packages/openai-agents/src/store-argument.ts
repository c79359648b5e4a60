import type { CheckpointStore } from '@session-checkpoint/core';
import { storeArgument } from '@session-checkpoint/core/internal';

/** What the session calls on its store. */
const SESSION = { name: 'CheckpointSession', methods: ['create', 'prepare', 'insertPrepared', 'findBySourceRef', 'findBySourceRefs', 'listBySourceRefPrefix', 'transaction'] };

/** The session's store argument, checked at construction (see core's `storeArgument`). */
export const checkpointStore = (value: unknown): CheckpointStore => storeArgument(value, SESSION);
