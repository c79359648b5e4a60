import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CheckpointStore } from '@session-checkpoint/core';
import { openPostgresStore } from '../index.js';
import { checkTurns, startAgents, unretryable, until } from '../test-support/agent-load.js';
import { startThrowawayCluster, throwawayClusterUnavailable, type ThrowawayCluster } from '../test-support/throwaway-cluster.js';

/*
 * PostgreSQL restarts while 32 agents write through one store of this process. The shared test
 * server is never restarted: the test makes a cluster of its own (initdb, pg_ctl, a free port),
 * restarts that one mid-run, and removes it. Every failed call fails with `retryable: true`, no
 * acknowledged turn is lost, none is half-written, and the same store carries on afterwards.
 * It runs where the shared PostgreSQL tests run (SC_PG_URL set, the server's binaries installed);
 * with SC_PG_REQUIRED=1 a missing way to make a cluster fails it instead of skipping it.
 */

const unavailable = process.env.SC_PG_URL ? throwawayClusterUnavailable() : 'SC_PG_URL is not set';
if (unavailable !== undefined && process.env.SC_PG_REQUIRED !== '1') console.warn(`server-restart test SKIPPED: ${unavailable}`);

describe.skipIf(unavailable !== undefined && process.env.SC_PG_REQUIRED !== '1')('32 agents while PostgreSQL restarts', () => {
  let cluster: ThrowawayCluster | undefined;

  beforeAll(async () => {
    if (unavailable !== undefined) throw new Error(`SC_PG_REQUIRED=1 but no throwaway cluster can be made: ${unavailable}`);
    cluster = await startThrowawayCluster();
  }, 120_000);
  afterAll(() => {
    cluster?.remove();
  });

  it('fail retryably, lose nothing acknowledged, leave no turn half-written, and recover', async () => {
    let store: CheckpointStore | undefined;
    try {
      store = await openPostgresStore(cluster!.url, { schema: 'agents', poolSize: 8, acquireTimeoutMs: 60_000 });
      const load = startAgents(store, 32);
      await until(() => load.acked() >= 64);
      const beforeRestart = load.acked();
      cluster!.restart();
      load.markPhase();
      let report;
      try {
        await until(() => load.acked() >= beforeRestart + 96);
      } finally {
        report = await load.stop();
      }
      expect(report.errors.length, 'the restart was felt by running agents').toBeGreaterThan(0);
      expect(unretryable(report.errors)).toEqual([]);
      expect(report.ackedSincePhase.reduce((a, b) => a + b, 0)).toBeGreaterThanOrEqual(96);
      expect(await checkTurns(store, report, 32)).toEqual([]);
    } finally {
      await store?.close();
    }
  }, 600_000);
});
