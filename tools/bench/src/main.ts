#!/usr/bin/env node
/**
 * Runs every benchmark scenario several times, prints the tables and rewrites docs/benchmarks.md.
 *
 *   npm run bench                      # the full report (5 runs, growth to 1M rows)
 *   npm run bench -- --runs 3 --quick  # a smoke run; does not write the report
 *
 * Flags: --runs N (default 5), --quick (small counts, growth to 1k, no report), --only a,b
 * (scenario functions by name), --no-write, --turns 60,300 (turn counts of the chat scenario;
 * default 60,300, 20 with --quick), --peer-plain-turns 60 (largest count at which LangGraph's
 * savers run the chat's unchanged graph), --samples FILE (append every sample to FILE as a JSON
 * line as soon as it is measured, so that a long run stopped early keeps what it measured).
 * historyWalk (issue 28) runs only when named in --only: --walk-turns 300 (turn counts, default
 * 300, 20 with --quick) builds a chat of that many turns on each saver and walks
 * `getStateHistory` in a child process under a 512 MB heap; --walk-peer-turns N runs LangGraph's
 * savers only up to N turns (they store the whole history per step: O(N^2) to build);
 * --walk-backends SQLite or PostgreSQL runs one backend (default: SQLite, and PostgreSQL when
 * SC_PG_URL is set), so the two can run as separate processes.
 * sealedCost (issue 36) runs only when named in --only: create, get and latest through a plain
 * store and stores opened with keys, on SQLite (full and normal) and PostgreSQL, CPU and wall
 * time per call and bytes stored (scenarios/sealed-cost.ts). sealedSaver (issue 36) likewise:
 * the LangGraph saver's put, putWrites and getTuple, and the 60-turn chat, plain and sealed
 * (scenarios/sealed-saver.ts).
 * inspect (issue 29) runs only when named in --only: `state` of the latest checkpoint of a 300-turn
 * chat against getTuple, and `diff` of two 2 MB states.
 * agents (issue 30) runs only when named in --only: --agents 1,8,32,64 (concurrent agents over 4
 * worker processes, each on its own thread; default 1,8,32,64, 1,8 with --quick), --agent-turns 6
 * (chat turns per agent; 2 with --quick), --no-shared (leave out 8 agents sharing 2 threads).
 * PostgreSQL scenarios run when SC_PG_URL is set. cliCalls also times the Python reference CLI's
 * `get` when SC_BENCH_PYTHON_REFERENCE names a checkout of it (the folder holding its
 * `session_checkpoint` package; not part of this repository).
 *
 *   node tools/bench/dist/main.js --only chat,deltaChat --runs 3 --no-write   # the chat scenarios
 */
import { appendFileSync, writeFileSync } from 'node:fs';
import { createContext, type Sample } from './context.js';
import { renderReport, ratio, type RatioResult, type RunSample } from './report.js';
import { agents } from './scenarios/agents.js';
import { agentsSession } from './scenarios/agents-session.js';
import { bundleTransfer } from './scenarios/bundle-transfer.js';
import { canonicalHash } from './scenarios/canonical-hash.js';
import { chat, DELTA_CHAT_TURNS } from './scenarios/chat.js';
import { cliCalls } from './scenarios/cli-calls.js';
import { growth } from './scenarios/growth.js';
import { historyWalk } from './scenarios/history-walk.js';
import { inspect } from './scenarios/inspect.js';
import { langgraphSaver } from './scenarios/langgraph-saver.js';
import { memory } from './scenarios/memory.js';
import { postgres } from './scenarios/postgres.js';
import { sealedCost } from './scenarios/sealed-cost.js';
import { sealedSaver } from './scenarios/sealed-saver.js';
import { sqliteReads } from './scenarios/sqlite-reads.js';
import { sqliteWrites } from './scenarios/sqlite-writes.js';
import { RATIOS } from './targets.js';

const args = process.argv.slice(2);
const flag = (name: string) => args.includes(name);
const value = (name: string) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : undefined;
};

const quick = flag('--quick');
const runs = Number(value('--runs') ?? (quick ? 1 : 5));
const only = value('--only')?.split(',');
const write = !flag('--no-write') && !quick;
const turns = (value('--turns') ?? (quick ? '20' : '60,300')).split(',').map(Number);
const walkTurns = (value('--walk-turns') ?? (quick ? '20' : '300')).split(',').map(Number);
const samplesFile = value('--samples');
const peerPlainMaxTurns = Number(value('--peer-plain-turns') ?? 60);
const ctx = createContext({ scale: quick ? 0.05 : 1, pgUrl: process.env.SC_PG_URL, growthMax: quick ? 1000 : 1_000_000 });

/** Scenarios measured once per run. */
const PER_RUN: Record<string, (c: typeof ctx) => Promise<Sample[]>> = {
  ...{ sqliteWrites, sqliteReads, memory, canonicalHash, bundleTransfer, cliCalls, postgres, langgraphSaver, agentsSession },
  chat: (c) => chat(c, { turns, channels: ['plain', 'delta'], peerPlainMaxTurns }),
  deltaChat: (c) => chat(c, { turns: [DELTA_CHAT_TURNS], channels: ['delta'], peerPlainMaxTurns }),
};
/** Scenarios run only when named in --only (each builds long threads on every saver). */
const OPT_IN: Record<string, (c: typeof ctx) => Promise<Sample[]>> = {
  sealedCost,
  sealedSaver,
  historyWalk: (c) => historyWalk(c, { turns: walkTurns, peerMaxTurns: Number(value('--walk-peer-turns') ?? Infinity), backends: value('--walk-backends')?.split(',') }),
  inspect,
  agents: (c) =>
    agents(c, {
      agents: (value('--agents') ?? (quick ? '1,8' : '1,8,32,64')).split(',').map(Number),
      turnsPerAgent: Number(value('--agent-turns') ?? (quick ? 2 : 6)),
      shared: !flag('--no-shared'),
    }),
};

/** The command that reproduces this report, as a reader would type it (`--samples` and its file left out). */
function commandLine(): string {
  const shown = args.filter((a, i) => a !== '--samples' && args[i - 1] !== '--samples');
  return `${ctx.pgUrl === undefined ? '' : 'SC_PG_URL=<url> '}npm run bench${shown.length > 0 ? ` -- ${shown.join(' ')}` : ''}`;
}

const started = Date.now();
const samples: RunSample[] = [];
for (let run = 0; run < runs; run++) {
  for (const [name, scenario] of [...Object.entries(PER_RUN), ...Object.entries(OPT_IN)]) {
    if (only ? !only.includes(name) : Object.hasOwn(OPT_IN, name)) continue;
    process.stderr.write(`run ${run + 1}/${runs}: ${name}\n`);
    for (const s of await scenario(ctx)) {
      samples.push({ ...s, run });
      if (samplesFile !== undefined) appendFileSync(samplesFile, `${JSON.stringify({ ...s, run })}\n`);
    }
    ctx.cleanup();
  }
}
if (!only || only.includes('growth')) {
  // Building a million rows is costly: build once, measure each size `runs` times.
  process.stderr.write('growth\n');
  samples.push(...(await growth(ctx, runs)));
  ctx.cleanup();
}

const ratios = RATIOS.map((spec) => ratio(samples, spec)).filter((r): r is RatioResult => r !== undefined);
const report = renderReport(samples, ratios, { runs, command: commandLine(), seconds: (Date.now() - started) / 1000 });
process.stdout.write(report);
if (write) {
  writeFileSync(new URL('../../../docs/benchmarks.md', import.meta.url), report);
  process.stderr.write('wrote docs/benchmarks.md\n');
}
