// What the PostgreSQL workflow-snapshot scripts share (pg-persist-account.mjs,
// mastra-persist-layers-pg.mjs, mastra-load-layers-pg.mjs): mastra-storage.mjs's 4 KB snapshot over
// 20 runs, the payload a persist's row holds, and pg stubbed below a level for measuring layers
// by subtraction.

/** mastra-storage.mjs's snapshot of run `runId` at step `i` (about 4 KB). */
export const snapshot = (runId, i) => ({ runId, status: 'running', value: {}, activePaths: [0], serializedStepGraph: [], suspendedPaths: {}, waitingPaths: {}, resumeLabels: {}, timestamp: i, context: { input: { amount: i }, step1: { status: 'success', output: { text: 'x'.repeat(3500), i } } } });

/** The arguments of the `i`th persistWorkflowSnapshot (20 runs in turn). */
export const argsOf = (i) => ({ workflowName: 'bench', runId: `run-${i % 20}`, snapshot: snapshot(`run-${i % 20}`, i) });

/** A snapshot's sequence number as the domain writes it into a ref. */
export const pad = (n) => String(n).padStart(16, '0');

/** The payload the row of the `i`th persist holds. */
export const payloadOf = (i) => ({ workflowName: 'bench', runId: `run-${i % 20}`, seq: i, updatedAt: new Date().toISOString(), value: snapshot(`run-${i % 20}`, i) });

/** The store's insert columns, in the order its insert binds them. */
export const COLUMNS = '(namespace, session_id, kind, name, payload_json, payload_sha256, created_at, source_ref)';

/**
 * Stubs pg below a level: with `stubs.query` set, `Client#query` answers at once with `answer()`;
 * with `stubs.connect`, `Pool#connect` hands out a fake client answering the same. Install it before
 * any store opens (the store's pool binds each client's `query` at its first checkout). Every real
 * query is first shown to `observe(config, values, callback)`, which may return a callback to pass
 * on instead of the caller's (to keep what the server answers).
 *
 * @returns the switches `{ query, connect }`, both off
 */
export function stubPg(pg, answer, observe = () => undefined) {
  const stubs = { query: false, connect: false };
  const clientQuery = pg.Client.prototype.query;
  pg.Client.prototype.query = function (config, values, callback) {
    if (!stubs.query) {
      const instead = observe(config, values, callback);
      return instead === undefined ? clientQuery.apply(this, arguments) : clientQuery.call(this, config, values, instead);
    }
    const cb = typeof values === 'function' ? values : callback;
    if (typeof cb === 'function') return void cb(null, answer());
    return Promise.resolve(answer());
  };
  const poolConnect = pg.Pool.prototype.connect;
  const fakeClient = { query: (text, values, cb) => void cb(null, answer()), on: () => fakeClient, release: () => undefined };
  pg.Pool.prototype.connect = function (cb) {
    if (!stubs.connect) return poolConnect.apply(this, arguments);
    // pg gives a client a new `release` at each checkout (the store wraps that checkout's).
    fakeClient.release = () => undefined;
    if (typeof cb === 'function') return void cb(undefined, fakeClient, fakeClient.release);
    return Promise.resolve(fakeClient);
  };
  return stubs;
}
