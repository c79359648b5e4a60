import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { chatGraph, userMessage } from '../chat-graph.js';
import type { BenchContext, Sample } from '../context.js';
import type { WalkResult, WalkSpec } from '../history-walk-child.js';
import { postgresStorage, sqliteStorage, type SaverStorage } from '../saver-backends.js';
import type { RatioSpec } from '../targets.js';

/*
 * The history walk (issue 28): a chat thread of N turns (chat-graph.ts, about 20 KB appended per
 * turn, the unchanged graph) built on each saver, then `graph.getStateHistory` walked to the end
 * in a child process started with a fixed heap limit (history-walk-child.ts). Per contender: the
 * peak V8 heap in use, the time to the first snapshot, and the whole walk. A contender whose walk
 * runs out of heap, or whose snapshots differ in number from the others', records the failure.
 */

/** Heap limit of the walking process, in MB (`--max-old-space-size`). */
export const WALK_HEAP_MB = 512;
export const walkScenario = (turns: number, backend: 'SQLite' | 'PostgreSQL') => `history walk ${turns} turns, ${backend}`;
export const WALK_OURS = 'SessionCheckpointSaver';

const run = promisify(execFile);
const CHILD = fileURLToPath(new URL('../history-walk-child.js', import.meta.url));
const THREAD = { configurable: { thread_id: 'chat' } };

interface Contender {
  impl: string;
  spec: WalkSpec;
  storage: SaverStorage;
}

function contenders(ctx: BenchContext, backend: 'SQLite' | 'PostgreSQL', turns: number): Contender[] {
  const peer = backend === 'SQLite' ? 'SqliteSaver' : 'PostgresSaver';
  const dir = backend === 'SQLite' ? ctx.dir() : '';
  const tag = `${process.pid}_${Date.now().toString(36)}_${turns}`;
  return (['ours', 'peer'] as const).map((which) => {
    const impl = which === 'ours' ? WALK_OURS : peer;
    if (backend === 'SQLite') {
      const path = join(dir, `walk_${which}.sqlite`);
      return { impl, spec: { backend, which, path }, storage: sqliteStorage(path, which) };
    }
    const schema = `bench_walk_${which}_${tag}`;
    return { impl, spec: { backend, which, url: ctx.pgUrl!, schema }, storage: postgresStorage(ctx.pgUrl!, schema, which) };
  });
}

const firstLine = (error: unknown) => (error instanceof Error ? `${error.name}: ${error.message}` : String(error)).split('\n')[0]!.slice(0, 160);

/** Builds the thread, walks it in a child, drops the storage; samples named `<prefix>: ...`. */
async function runContender(c: Contender, turns: number, prefix: string): Promise<Sample[] & { snapshots?: number }> {
  const samples = (v: { build: number; peak: number; first: number; total: number }, failure?: string): Sample[] =>
    (
      [
        { scenario: `${prefix}: peak heap of the walk`, impl: c.impl, unit: 'KiB', value: v.peak / 1024 },
        { scenario: `${prefix}: first snapshot`, impl: c.impl, unit: 'ms', value: v.first },
        { scenario: `${prefix}: whole walk`, impl: c.impl, unit: 'ms', value: v.total },
        { scenario: `${prefix}: building the thread`, impl: c.impl, unit: 'ms', value: v.build },
      ] satisfies Sample[]
    ).map((s) => (failure === undefined ? s : { ...s, failure }));
  let build = NaN;
  try {
    const start = process.hrtime.bigint();
    const { saver, close } = await c.storage.open();
    try {
      const graph = chatGraph(saver, 'plain');
      for (let turn = 0; turn < turns; turn++) await graph.invoke({ messages: [userMessage(turn)] }, THREAD);
    } finally {
      await close();
    }
    build = Number(process.hrtime.bigint() - start) / 1e6;
    const { stdout } = await run(process.execPath, [`--max-old-space-size=${WALK_HEAP_MB}`, CHILD, JSON.stringify(c.spec)], { maxBuffer: 1 << 20 });
    const r = JSON.parse(stdout.trim().split('\n').pop() ?? '{}') as WalkResult;
    // Every turn leaves 4 messages; the latest snapshot holds them all.
    if (r.latestMessages !== turns * 4) return samples({ build, peak: NaN, first: NaN, total: NaN }, `${c.impl}: latest snapshot has ${r.latestMessages} messages, ${turns * 4} expected`);
    process.stderr.write(`    ${c.impl}: ${r.snapshots} snapshots\n`);
    const out = samples({ build, peak: r.peakHeapBytes, first: r.firstMs, total: r.totalMs }) as Sample[] & { snapshots?: number };
    out.snapshots = r.snapshots;
    return out;
  } catch (error) {
    const stderr = (error as { stderr?: string }).stderr ?? '';
    const why = /heap out of memory/i.test(stderr) ? `ran out of heap (${WALK_HEAP_MB} MB)` : firstLine(error);
    return samples({ build, peak: NaN, first: NaN, total: NaN }, `${c.impl}: ${why}`);
  } finally {
    await c.storage.drop();
  }
}

/**
 * The history walk at each turn count on SQLite, and on PostgreSQL when configured. The savers
 * of one backend must see the same number of snapshots, or both record the difference.
 */
export async function historyWalk(ctx: BenchContext, options: { turns: readonly number[]; peerMaxTurns?: number; backends?: readonly string[] }): Promise<Sample[]> {
  const out: Sample[] = [];
  const configured = ctx.pgUrl === undefined ? (['SQLite'] as const) : (['SQLite', 'PostgreSQL'] as const);
  const backends = configured.filter((b) => options.backends === undefined || options.backends.includes(b));
  if (backends.length === 0) throw new Error(`--walk-backends ${options.backends?.join(',')}: none of ${configured.join(', ')} (PostgreSQL needs SC_PG_URL)`);
  for (const turns of options.turns) {
    for (const backend of backends) {
      const prefix = walkScenario(turns, backend);
      const results: (Sample[] & { snapshots?: number })[] = [];
      // LangGraph's savers store the whole history at every step (O(N^2) to build): --walk-peer-turns caps them.
      for (const c of contenders(ctx, backend, turns).filter((c) => c.impl === WALK_OURS || turns <= (options.peerMaxTurns ?? Infinity))) {
        process.stderr.write(`  ${prefix}: ${c.impl}\n`);
        results.push(await runContender(c, turns, prefix));
      }
      const counts = new Set(results.map((r) => r.snapshots).filter((n) => n !== undefined));
      const failure = counts.size > 1 ? `the savers walked different numbers of snapshots (${[...counts].join(', ')})` : undefined;
      for (const r of results) out.push(...r.map((s) => (failure === undefined || s.failure !== undefined ? s : { ...s, failure })));
    }
  }
  return out;
}

/** Turn counts the report has ratios for (other counts given with --walk-turns get none). */
const WALK_RATIO_TURNS = [60, 100, 150, 300];

/** Issue 28's bars: our walk's peak heap and first snapshot at most 2x the official saver's. */
export const WALK_RATIOS: RatioSpec[] = (['SQLite', 'PostgreSQL'] as const).flatMap((backend) => {
  const peer = backend === 'SQLite' ? 'SqliteSaver' : 'PostgresSaver';
  return WALK_RATIO_TURNS.flatMap((turns): RatioSpec[] =>
    (['peak heap of the walk', 'first snapshot', 'whole walk'] as const).map((what) => ({
      label: `${walkScenario(turns, backend)}: ${what}, ${WALK_OURS} / ${peer}`,
      scenario: `${walkScenario(turns, backend)}: ${what}`,
      numerator: WALK_OURS,
      denominator: peer,
      direction: 'at most',
      ...(what === 'whole walk' ? {} : { target: 2 }),
    })),
  );
});
