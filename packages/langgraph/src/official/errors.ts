import { CheckpointError } from '@session-checkpoint/core';

/**
 * A value of an official saver's store that this reader cannot decode: a serializer type other
 * than `json` and `bytes` (for example `msgpack` from a custom serializer), or `json` data that is
 * not valid UTF-8 JSON. The message names the thread, checkpoint and what was being read.
 *
 * @example
 * ```ts
 * try { await officialState(store, { threadId: 't' }); } catch (e) { if (e instanceof UndecodableValueError) console.error(e.valueType); }
 * ```
 */
export class UndecodableValueError extends CheckpointError {
  /** The serializer type tag stored with the value. */
  readonly valueType: string;
  constructor(message: string, valueType: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'UndecodableValueError';
    this.valueType = valueType;
  }
}
