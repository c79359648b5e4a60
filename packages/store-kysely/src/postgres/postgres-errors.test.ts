import { describe, expect, it } from 'vitest';
import { connectionLost, isRetryablePostgresError } from './postgres-errors.js';

describe('the errors a caller may retry, by the driver shapes', () => {
  it("pg's connect timeout is a timeout to retry, not a lost connection", () => {
    const timedOut = new Error('Connection terminated due to connection timeout');
    expect(connectionLost(timedOut)).toBe(timedOut);
    expect(isRetryablePostgresError(timedOut)).toBe(true);
  });

  it('a connection terminated under a query is a lost connection (08006), retryable', () => {
    const lost = connectionLost(new Error('Connection terminated unexpectedly')) as { code?: string; severity?: string };
    expect(lost).toMatchObject({ code: '08006', severity: 'FATAL' });
    expect(isRetryablePostgresError(lost)).toBe(true);
  });

  it('a statement timeout (57014) and a plain error are not retryable', () => {
    expect(isRetryablePostgresError(Object.assign(new Error('canceling statement due to statement timeout'), { code: '57014', severity: 'ERROR' }))).toBe(false);
    expect(isRetryablePostgresError(new Error('boom'))).toBe(false);
  });
});
