import type { PostgresPool, PostgresPoolClient } from 'kysely';
import { connectionLost, guardClient } from './guard-client.js';
import { PostgresPoolTimeoutError } from './postgres-pool-timeout-error.js';
import { markRetryable } from './retryable-error.js';

/*
 * pg's pool queues a checkout when every connection is in use, and gives up after
 * `connectionTimeoutMillis`, the same limit as a connection attempt, with the same message
 * ("timeout exceeded when trying to connect"): a caller cannot tell a saturated pool from an
 * unreachable server. So the store counts checkouts itself: at most `max` at once, the rest wait
 * in order up to `acquireTimeoutMs` and then fail with PostgresPoolTimeoutError; pg's own queue
 * is never used, and its timeout is left to mean the connection attempt alone.
 */

/**
 * `pool` with at most `max` clients checked out at once, a bounded wait for the next one, and
 * every client guarded ({@link guardClient}); connection failures are marked retryable. `view`
 * (default: the client itself) is what callers get of each checked-out client, for example one
 * that names its statements; it sees the slot-freeing `release`, which it must call through.
 */
export function boundedPool(
  pool: PostgresPool,
  max: number,
  acquireTimeoutMs: number,
  view: (client: PostgresPoolClient) => PostgresPoolClient = (client) => client,
): PostgresPool {
  let inUse = 0;
  const queue: { grant: () => void }[] = [];

  const free = () => {
    const next = queue.shift();
    if (next) next.grant();
    else inUse--;
  };

  const acquire = () =>
    new Promise<void>((resolve, reject) => {
      if (inUse < max) {
        inUse++;
        resolve();
        return;
      }
      const waiter = {
        grant: () => {
          clearTimeout(timer);
          resolve();
        },
      };
      const timer = setTimeout(() => {
        queue.splice(queue.indexOf(waiter), 1);
        reject(new PostgresPoolTimeoutError(max, acquireTimeoutMs));
      }, acquireTimeoutMs);
      queue.push(waiter);
    });

  return {
    async connect(): Promise<PostgresPoolClient> {
      await acquire();
      let client: PostgresPoolClient;
      try {
        client = guardClient(await pool.connect());
      } catch (error) {
        free();
        throw markRetryable(connectionLost(error));
      }
      // pg gives the client a new `release` at every checkout: wrap this checkout's, freeing its slot once.
      const release = client.release as (...args: unknown[]) => unknown;
      let released = false;
      client.release = ((...args: unknown[]) => {
        // Back to pg's pool first, so that the caller granted this slot finds the client there.
        const result = release.apply(client, args);
        if (!released) {
          released = true;
          free();
        }
        return result;
      }) as PostgresPoolClient['release'];
      return view(client);
    },
    end: () => pool.end(),
  };
}
