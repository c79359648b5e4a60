import type { BaseMessage } from '@langchain/core/messages';
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { openAgentsSaver, type AgentsResult, type AgentsSpec } from '../agents-saver.js';
import { chatGraph, expectedHistory, historyOf } from '../chat-graph.js';
import type { BenchContext, Sample } from '../context.js';
import { fileBytes } from '../saver-backends.js';

/*
 * Many agents at once (issue 30): `agents` concurrent agents spread over 4 worker processes, each
 * agent running chat turns (the chat graph, one `graph.invoke` per turn) on its own thread, and a
 * variant where 8 agents share 2 threads (each thread's agents live in one process and take turns
 * under a lock there: 2 processes of 4 agents). Per contender and agent count: turns per second
 * (all turns over the wall time from `go` to the last child's answer), p50 and p99 turn latency;
 * on PostgreSQL the server's commits per turn (pg_stat_database.xact_commit of a database made for
 * the run, so nobody else's commits count) and WAL bytes per turn (pg_current_wal_lsn, which is
 * the whole server's: a neighbour writing at the same time adds to it); on SQLite the file's
 * bytes per turn. Every worker has one saver with the backend's default pool (10 connections on
 * both sides). Durability as in the other LangGraph scenarios: SQLite WAL at synchronous=NORMAL
 * on both sides (one file, 4 processes); PostgreSQL the server's own settings for both.
 *
 * After each contender's run every thread is read back through a fresh saver and must hold
 * exactly the turns run on it, or the contender's figures are withheld; a failed turn withholds
 * them too (the failure is named in the report).
 */

const CHILD = fileURLToPath(new URL('../agents-child.js', import.meta.url));
/** Worker processes of a run. */
const PROCESSES = 4;
/** The shared-thread variant: agents and threads. */
const SHARED = { agents: 8, threads: 2 };
export const AGENTS_OURS = 'SessionCheckpointSaver';
/** Longest a contender's workers may run after `go` before they are killed and the contender fails. */
const WORKER_LIMIT_MS = 15 * 60_000;

/** What {@link agents} runs. */
export interface AgentsOptions {
  /** Concurrent agents, each on its own thread. */
  agents: readonly number[];
  /** Chat turns each agent runs. */
  turnsPerAgent: number;
  /** Run the 8-agents-on-2-threads variant too. */
  shared: boolean;
}

/** Name prefix of the samples of a configuration. */
export const agentsScenario = (agents: number, threads: number | 'own', backend: 'SQLite' | 'PostgreSQL') =>
  threads === 'own' ? `agents: ${agents} on own threads, ${backend}` : `agents: ${agents} sharing ${threads} threads, ${backend}`;

let calls = 0;

interface Layout {
  /** Agents per process, each naming its thread. */
  processes: { thread: string }[][];
  /** Turns each thread ends with. */
  turnsOf: Map<string, number>;
}

function layout(agents: number, threads: number | 'own', turnsPerAgent: number): Layout {
  const processes: { thread: string }[][] = [];
  const turnsOf = new Map<string, number>();
  for (let a = 0; a < agents; a++) {
    // Own threads: round-robin over the processes. Shared: a thread's agents in one process, for its lock.
    const thread = threads === 'own' ? `agent-${a}` : `shared-${a % threads}`;
    const p = threads === 'own' ? a % PROCESSES : a % threads;
    (processes[p] ??= []).push({ thread });
    turnsOf.set(thread, (turnsOf.get(thread) ?? 0) + turnsPerAgent);
  }
  return { processes: processes.filter((p) => p.length > 0), turnsOf };
}

const percentile = (sorted: readonly number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
const firstLine = (error: unknown) => (error instanceof Error ? `${error.name}: ${error.message}` : String(error)).split('\n')[0]!.slice(0, 160);

/** A server-side snapshot: commits of the run's database and the server's WAL position. */
async function serverStats(client: pg.Client, settled = false): Promise<{ commits: number; lsn: string }> {
  // A backend hands its counters over when it ends (or at most once a second while busy):
  // after a run, wait for the workers' backends to be gone (up to 10 s) so that all of theirs count.
  for (let i = 0; settled && i < 100; i++) {
    const { rowCount } = await client.query('select 1 from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()');
    if (rowCount === 0) break;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  const { rows } = await client.query<{ commits: string; lsn: string }>(
    'select xact_commit::text as commits, pg_current_wal_lsn()::text as lsn from pg_stat_database where datname = current_database()',
  );
  return { commits: Number(rows[0]!.commits), lsn: rows[0]!.lsn };
}

async function walBytes(client: pg.Client, from: string, to: string): Promise<number> {
  const { rows } = await client.query<{ bytes: string }>('select pg_wal_lsn_diff($2, $1)::text as bytes', [from, to]);
  return Number(rows[0]!.bytes);
}

/** Starts a child per process, waits until all are ready, says `go`, collects their answers. */
async function runWorkers(specs: AgentsSpec[], onReady: () => Promise<void>): Promise<{ results: AgentsResult[]; seconds: number }> {
  const children = specs.map((spec) => {
    const child = spawn(process.execPath, [CHILD, JSON.stringify(spec)], { stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    let readyResolve: () => void;
    const ready = new Promise<void>((resolve) => (readyResolve = resolve));
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      stdout += chunk;
      if (stdout.split('\n').includes('ready')) readyResolve();
    });
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    const done = new Promise<AgentsResult>((resolve, reject) => {
      child.on('close', (code) => {
        const line = stdout.split('\n').find((l) => l.startsWith('{'));
        if (code === 0 && line !== undefined) resolve(JSON.parse(line) as AgentsResult);
        else {
          const lines = stderr.trim().split('\n');
          reject(new Error(`worker exited with ${code}: ${(lines.find((l) => /Error/u.test(l)) ?? lines.pop() ?? '').slice(0, 200)}`));
        }
      });
    });
    // A worker that dies before `ready` must not leave the others waiting for ever.
    return { child, ready: Promise.race([ready, done.then(() => undefined)]), done };
  });
  try {
    await Promise.all(children.map((c) => c.ready));
    await onReady();
    const start = process.hrtime.bigint();
    for (const c of children) c.child.stdin.end('go\n');
    // A worker stuck for good (a lost wake-up, a lock never granted) fails the contender, not the bench.
    let timer: NodeJS.Timeout | undefined;
    const stuck = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`workers still running after ${WORKER_LIMIT_MS / 60_000} minutes`)), WORKER_LIMIT_MS);
    });
    try {
      const results = await Promise.race([Promise.all(children.map((c) => c.done)), stuck]);
      return { results, seconds: Number(process.hrtime.bigint() - start) / 1e9 };
    } finally {
      clearTimeout(timer);
    }
  } finally {
    for (const c of children) if (c.child.exitCode === null) c.child.kill();
  }
}

interface Storage {
  spec: Pick<AgentsSpec, 'backend' | 'which' | 'path' | 'url' | 'schema'>;
  bytes(): Promise<number>;
  drop(): Promise<void>;
}

async function runContender(impl: string, storage: Storage, agents: number, threads: number | 'own', turnsPerAgent: number, stats: pg.Client | undefined): Promise<Sample[]> {
  const backend = storage.spec.backend;
  const prefix = agentsScenario(agents, threads, backend);
  const samples = (v: { tps: number; p50: number; p99: number; commits: number; wal: number; bytes: number }, failure?: string): Sample[] => {
    const list: Sample[] = [
      { scenario: `${prefix}: turns per second`, impl, unit: 'turns/s', value: v.tps },
      { scenario: `${prefix}: p50 turn latency`, impl, unit: 'ms', value: v.p50 },
      { scenario: `${prefix}: p99 turn latency`, impl, unit: 'ms', value: v.p99 },
    ];
    if (backend === 'PostgreSQL') {
      list.push({ scenario: `${prefix}: server commits per turn`, impl, unit: 'commits/turn', value: v.commits });
      list.push({ scenario: `${prefix}: WAL written per turn`, impl, unit: 'KiB/turn', value: v.wal / 1024 });
    } else {
      list.push({ scenario: `${prefix}: file bytes per turn`, impl, unit: 'KiB/turn', value: v.bytes / 1024 });
    }
    return list.map((s) => (failure === undefined ? s : { ...s, failure }));
  };
  const failed = (failure: string) => samples({ tps: NaN, p50: NaN, p99: NaN, commits: NaN, wal: NaN, bytes: NaN }, failure);
  try {
    // Create the storage once, before the workers: LangGraph's setup() is not safe to race.
    await (await openAgentsSaver(storage.spec, true)).close();
    const { processes, turnsOf } = layout(agents, threads, turnsPerAgent);
    const specs: AgentsSpec[] = processes.map((list) => ({ ...storage.spec, agents: list, turnsPerAgent }));
    let before: { commits: number; lsn: string } | undefined;
    const bytesBefore = await storage.bytes();
    const { results, seconds } = await runWorkers(specs, async () => {
      if (stats) before = await serverStats(stats);
    });
    const after = stats ? await serverStats(stats, true) : undefined;
    const latencies = results.flatMap((r) => r.latencies).sort((a, b) => a - b);
    const failures = results.flatMap((r) => r.failures);
    if (failures.length > 0) return failed(`${impl}: ${failures.length} of ${agents * turnsPerAgent} turns failed, the first: ${failures[0]}`);
    const turns = latencies.length;
    // The two snapshots' own selects count too: noise of 2 commits over hundreds of turns.
    const commits = before && after ? (after.commits - before.commits) / turns : NaN;
    const wal = before && after && stats ? (await walBytes(stats, before.lsn, after.lsn)) / turns : NaN;
    const bytes = backend === 'SQLite' ? ((await storage.bytes()) - bytesBefore) / turns : NaN;
    // Every thread read back through a fresh saver: exactly the turns run on it.
    const again = await openAgentsSaver(storage.spec);
    try {
      const graph = chatGraph(again.saver, 'plain');
      for (const [thread, count] of turnsOf) {
        const history = historyOf((await graph.getState({ configurable: { thread_id: thread } })).values.messages as BaseMessage[]);
        const expected = expectedHistory(count);
        if (history.length !== expected.length || history.some((line, i) => line !== expected[i])) {
          return failed(`${impl} read back a wrong history on ${thread}: ${history.length} messages, ${expected.length} expected`);
        }
      }
    } finally {
      await again.close();
    }
    return samples({ tps: turns / seconds, p50: percentile(latencies, 50), p99: percentile(latencies, 99), commits, wal, bytes });
  } catch (error) {
    return failed(`${impl}: ${firstLine(error)}`);
  } finally {
    await storage.drop();
  }
}

/** A database of the run's own on the server of `url`, so that its commit counter is ours alone. */
async function benchDatabase(url: string): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `sc_bench_agents_${process.pid}_${Date.now().toString(36)}`;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  try {
    await admin.query(`create database "${name}"`);
  } finally {
    await admin.end();
  }
  const own = new URL(url);
  own.pathname = `/${name}`;
  return {
    url: own.href,
    async drop() {
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      try {
        await client.query(`drop database if exists "${name}" with (force)`);
      } finally {
        await client.end();
      }
    },
  };
}

/**
 * The agent counts on SQLite, and on PostgreSQL when configured; the contender that runs first
 * alternates between calls.
 */
export async function agents(ctx: BenchContext, options: AgentsOptions): Promise<Sample[]> {
  const samples: Sample[] = [];
  const shift = calls++;
  const configs: { agents: number; threads: number | 'own' }[] = [
    ...options.agents.map((a) => ({ agents: a, threads: 'own' as const })),
    ...(options.shared ? [{ agents: SHARED.agents, threads: SHARED.threads }] : []),
  ];
  const sides = (['ours', 'peer'] as const).map((_, i, all) => all[(i + shift) % all.length]!);
  const dir = ctx.dir();
  for (const config of configs) {
    for (const which of sides) {
      const impl = which === 'ours' ? AGENTS_OURS : 'SqliteSaver';
      const path = join(dir, `agents_${which}_${config.agents}_${config.threads}.sqlite`);
      process.stderr.write(`  ${agentsScenario(config.agents, config.threads, 'SQLite')}: ${impl}\n`);
      samples.push(
        ...(await runContender(
          impl,
          { spec: { backend: 'SQLite', which, path }, bytes: async () => fileBytes(path), drop: async () => undefined },
          config.agents,
          config.threads,
          options.turnsPerAgent,
          undefined,
        )),
      );
    }
  }
  if (ctx.pgUrl === undefined) return samples;
  const db = await benchDatabase(ctx.pgUrl);
  const stats = new pg.Client({ connectionString: db.url });
  await stats.connect();
  try {
    for (const config of configs) {
      for (const which of sides) {
        const impl = which === 'ours' ? AGENTS_OURS : 'PostgresSaver';
        const schema = `bench_agents_${which}_${config.agents}_${config.threads}`;
        process.stderr.write(`  ${agentsScenario(config.agents, config.threads, 'PostgreSQL')}: ${impl}\n`);
        const storage: Storage = {
          spec: { backend: 'PostgreSQL', which, url: db.url, schema },
          bytes: async () => 0,
          drop: async () => {
            await stats.query(`drop schema if exists "${schema}" cascade`);
          },
        };
        if (which === 'peer') await stats.query(`create schema if not exists "${schema}"`);
        samples.push(...(await runContender(impl, storage, config.agents, config.threads, options.turnsPerAgent, stats)));
      }
    }
  } finally {
    await stats.end();
    await db.drop();
  }
  return samples;
}
