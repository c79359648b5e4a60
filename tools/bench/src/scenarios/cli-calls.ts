import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { n, type BenchContext, type Sample } from '../context.js';
import { median } from '../harness.js';

const require = createRequire(import.meta.url);

/**
 * The Node binary to measure with: `SC_BENCH_NODE` (e.g. a Node 24 binary, with better-sqlite3
 * built for it) or the one running the bench.
 */
const NODE = process.env.SC_BENCH_NODE || process.execPath;

function timeCall(args: string[], env: NodeJS.ProcessEnv): number {
  const start = process.hrtime.bigint();
  execFileSync(NODE, args, { stdio: ['ignore', 'pipe', 'pipe'], env });
  return Number(process.hrtime.bigint() - start) / 1e6;
}

/**
 * Wall time of one CLI call (a new Node process each time) beside the floor of starting Node
 * itself (`node -e ""`), measured in pairs (one of each per round, same machine state), so the
 * report separates our start-up cost from Node's. The data directory is empty (no plugin
 * installed), which is the case the CLI's fast path serves; XDG_* point into the bench folder.
 */
export async function cliCalls(ctx: BenchContext): Promise<Sample[]> {
  const bin = join(dirname(require.resolve('@session-checkpoint/cli/package.json')), 'bin', 'run.js');
  const dir = ctx.dir();
  const env: NodeJS.ProcessEnv = { ...process.env, XDG_DATA_HOME: join(dir, 'data'), XDG_CONFIG_HOME: join(dir, 'config'), XDG_CACHE_HOME: join(dir, 'cache') };
  delete env.SESSION_CHECKPOINT_DATA_DIR;
  const store = join(dir, 's.sqlite');
  const payload = join(dir, 'p.json');
  writeFileSync(payload, JSON.stringify({ messages: ['hello'], n: 1 }));
  execFileSync(NODE, [bin, 'init', '--store', store], { env });
  const calls = n(ctx, 20, 5);
  const times: Record<string, number[]> = { create: [], get: [], list: [], 'node -e ""': [] };
  for (let i = 0; i < calls; i++) {
    times.create!.push(timeCall([bin, 'create', '--store', store, '--session-id', 's', '--payload-file', payload], env));
    times.get!.push(timeCall([bin, 'get', '--store', store, '--id', '1'], env));
    times.list!.push(timeCall([bin, 'list', '--store', store], env));
    times['node -e ""']!.push(timeCall(['-e', ''], env));
  }
  return Object.entries(times).map(([impl, values]) => ({ scenario: 'CLI call (median ms)', impl, unit: 'ms', value: median(values) }));
}
