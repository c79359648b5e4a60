// What the PostgreSQL workflow-snapshot scripts share (pg-persist-account.mjs,
// mastra-persist-layers-pg.mjs, mastra-load-layers-pg.mjs): mastra-storage.mjs's 4 KB snapshot over
// 20 runs, the payload a persist's row holds, pg stubbed below a level for measuring layers by
// subtraction, and the layers scripts' arguments and round runner.
import { createRequire } from 'node:module';
import { loadavg } from 'node:os';
import { PerformanceObserver } from 'node:perf_hooks';

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

/**
 * What a layers script is given on its command line and in its environment: pg (the CommonJS copy
 * the store loads, so that {@link stubPg} reaches it), `SC_PG_URL`, `[rounds=7] [statementCallsPerRound=400]`.
 */
export function layerArgs() {
  const pg = createRequire(import.meta.url)('pg');
  const url = process.env.SC_PG_URL;
  if (!url) throw new Error('set SC_PG_URL');
  return { pg, url, rounds: Number(process.argv[2] ?? 7), perRound: Number(process.argv[3] ?? 400) };
}

/**
 * Runs a layers script's contenders (`name` → `{ op, setup, scale = 1, stub }`: `setup(i)` builds
 * the `i`th input before the timing, `op(input)` is timed, `stub` is `'query'`, `'connect'` or none)
 * and prints this process's CPU per call, median [min-max] of the rounds after a warm-up round, with
 * system time, wall time and main-thread GC pauses; then the `ours:` levels by subtraction from
 * `loop: await of an async no-op` (when all `levels` ran) and ours whole / theirs whole (`whole`:
 * the two names). Each round runs the contenders in its own seeded shuffled order (a contender that
 * followed the same neighbour every round would pay that neighbour's collections every round); with
 * `node --expose-gc` each starts on a collected heap after a 50 ms pause (V8's helper threads sweep
 * outside the timing). `afterEach(name)` runs after each contender's timing (a check).
 * SC_LAYERS_ONLY=<regular expression> runs only the contenders whose names match;
 * SC_LAYERS_ROUNDS=1 prints every round.
 */
export async function runLayerRounds(contenders, { rounds, perRound, stubs, seed, levels, whole, afterEach = () => undefined }) {
  const only = process.env.SC_LAYERS_ONLY === undefined ? undefined : new RegExp(process.env.SC_LAYERS_ONLY, 'u');
  const names = [...contenders.keys()].filter((name) => only === undefined || only.test(name));
  const results = new Map(names.map((name) => [name, { cpu: [], sys: [], wall: [], gc: [], next: 1 }]));
  // The main thread's collections (pauses), summed per contender's timing by their start time.
  const collections = [];
  const observer = new PerformanceObserver((list) => collections.push(...list.getEntries().map((e) => [e.startTime, e.duration])));
  observer.observe({ entryTypes: ['gc'] });
  const gcIn = async (from, to) => {
    await new Promise((resolve) => setImmediate(resolve));
    let ms = 0;
    for (const [at, duration] of collections) if (at >= from && at < to) ms += duration;
    return ms;
  };
  const random = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
  const collect = typeof globalThis.gc === 'function' ? globalThis.gc : undefined;
  for (let r = 0; r <= rounds; r++) {
    const order = [...names];
    for (let k = order.length - 1; k > 0; k--) {
      const j = Math.floor(random() * (k + 1));
      [order[k], order[j]] = [order[j], order[k]];
    }
    for (const name of order) {
      const { op, setup, scale = 1, stub } = contenders.get(name);
      const result = results.get(name);
      const n = perRound * scale;
      const inputs = new Array(n);
      for (let j = 0; j < n; j++) inputs[j] = setup(result.next + j);
      if (collect) {
        collect();
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      stubs.query = stub === 'query';
      stubs.connect = stub === 'connect';
      const w0 = performance.now();
      const c0 = process.cpuUsage();
      for (let j = 0; j < n; j++) await op(inputs[j]);
      const u = process.cpuUsage(c0);
      const wall = (performance.now() - w0) * 1000;
      stubs.query = stubs.connect = false;
      afterEach(name);
      result.next += n;
      const gc = await gcIn(w0, w0 + wall / 1000);
      // Round 0 warms up.
      if (r > 0) {
        result.cpu.push((u.user + u.system) / n);
        result.sys.push(u.system / n);
        result.wall.push(wall / n);
        result.gc.push((gc * 1000) / n);
      }
    }
  }
  observer.disconnect();
  const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)];
  console.log(`Node ${process.version}, load average ${loadavg().map((l) => l.toFixed(2)).join(' ')}, ${rounds} rounds of ${perRound} statement calls (x10 for JS and stubbed contenders) after a warm-up round, ${collect ? 'a full collection and 50 ms before each round' : 'no collection between rounds (run with --expose-gc for one)'}`);
  console.log(`${'CPU µs per call: median [min-max] of rounds'.padEnd(70)}    CPU [min-max]   (system, wall, main-thread GC pauses)`);
  const med = {};
  for (const name of names) {
    const { cpu, sys, wall, gc } = results.get(name);
    med[name] = median(cpu);
    console.log(`${name.padEnd(70)}${median(cpu).toFixed(1).padStart(7)} [${Math.min(...cpu).toFixed(1)}-${Math.max(...cpu).toFixed(1)}]  (${median(sys).toFixed(1)}, ${median(wall).toFixed(1)}, ${median(gc).toFixed(1)})`);
    if (process.env.SC_LAYERS_ROUNDS) console.log(`    rounds: ${cpu.map((x) => x.toFixed(0)).join(' ')}  gc: ${gc.map((x) => x.toFixed(0)).join(' ')}`);
  }
  const levelNames = names.filter((n) => n.startsWith('ours:'));
  if (levelNames.length === levels && med['loop: await of an async no-op'] !== undefined) {
    console.log('layers by subtraction (median of each level minus the level below):');
    let below = med['loop: await of an async no-op'];
    for (const name of levelNames) {
      console.log(`  ${name.padEnd(68)}${(med[name] - below).toFixed(1).padStart(7)}`);
      below = med[name];
    }
  }
  const [ours, theirs] = whole;
  if (med[ours] !== undefined && med[theirs] !== undefined) console.log(`  ours whole / theirs whole: ${(med[ours] / med[theirs]).toFixed(2)}x CPU (theirs/ours throughput ${(med[theirs] / med[ours]).toFixed(2)}x)`);
}
