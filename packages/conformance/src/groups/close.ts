import { isCheckpointError, type CheckpointError } from '@session-checkpoint/core';
import { ensure } from '../assert.js';
import type { ConformanceCase } from '../types.js';

/** The store-closed error: a `CheckpointError` whose message says the store is closed. */
const isStoreClosedError = (error: unknown): error is CheckpointError => isCheckpointError(error) && /\bclosed\b/i.test(error.message);

const CLOSED = 'calls after close() must fail with the store-closed error';

/** Fails with {@link CLOSED} unless `call` rejects with the store-closed error; `name` says which call. */
async function failsClosed(name: string, call: Promise<unknown>): Promise<void> {
  let error: unknown;
  let succeeded = false;
  try {
    await call;
    succeeded = true;
  } catch (caught) {
    error = caught;
  }
  ensure(!succeeded && isStoreClosedError(error), CLOSED, () => (succeeded ? `${name} succeeded` : `${name} failed with ${String(error)}, not a CheckpointError saying the store is closed`));
}

/** `close()` releases the store: later calls fail, and closing again is harmless. */
export const close: ConformanceCase[] = [
  {
    name: 'calls after close() fail with the store-closed error',
    async run({ adapter, store, make }) {
      const cp = await make();
      await adapter.close();
      await failsClosed('create', store.create({ namespace: 'app', sessionId: 's-1', payload: { n: 2 } }));
      await failsClosed('get', store.get(cp.id, { namespace: 'app' }));
      await failsClosed('list', store.list({ namespace: 'app' }));
      await failsClosed('delete', store.delete(cp.id, { namespace: 'app', apply: true }));
      await failsClosed('scanRows', adapter.scanRows({ afterId: 0, limit: 10 }));
      await failsClosed('transaction', store.transaction(async () => undefined));
    },
  },
  {
    name: 'closing twice is harmless',
    async run({ adapter }) {
      await adapter.close();
      let error: unknown;
      try {
        await adapter.close();
      } catch (caught) {
        error = caught;
      }
      ensure(error === undefined, 'close() must be idempotent: closing a closed store must not fail', () => `it failed with ${String(error)}`);
    },
  },
];
