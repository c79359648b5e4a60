import type { CheckpointStore } from '@session-checkpoint/core';
import { storeArgument } from '@session-checkpoint/core/internal';

/** What the saver calls on its store. */
const SAVER = { name: 'SessionCheckpointSaver', methods: ['create', 'prepare', 'findBySourceRef', 'findBySourceRefs', 'listBySourceRefPrefix', 'transaction', 'deleteSession'] };

/** The saver's store argument, checked at construction (see core's `storeArgument`). */
export const checkpointStore = (value: unknown): CheckpointStore => storeArgument(value, SAVER);
