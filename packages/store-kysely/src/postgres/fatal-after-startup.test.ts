import { describe, expect, it } from 'vitest';
import { startChild } from '../test-support/children.js';

/*
 * CI once failed on an uncaught "terminating connection due to administrator command" while the
 * server terminated the backends of 32 agents (server-kills-agents.test.ts): a new connection's
 * FATAL arrived in the packet that finished its start-up, before the store had attached its
 * listener. This test makes that packet on demand with a protocol peer of its own (a real server
 * cannot be made to), in a real child process: opening the store fails with one typed error, and
 * the process does not crash. It needs no PostgreSQL server.
 */

describe('a PostgreSQL connection terminated in the packet that finishes its start-up', () => {
  it('fails the open with a typed connection error, no crash', async () => {
    const result = await startChild('pg-fatal-after-startup.mjs', []).done;
    expect(result.stderr).not.toMatch(/Unhandled 'error' event|57P01/u);
    expect(result.code, result.stderr).toBe(0);
    const outcome = JSON.parse(result.stdout.trim()) as { rejected: boolean; name?: string; code?: string; message?: string };
    expect(outcome.rejected).toBe(true);
    expect(outcome.name).toBe('PostgresConnectionError');
    expect(outcome.code).toBe('08006');
    expect(outcome.message).toMatch(/lost/u);
  }, 60_000);
});
