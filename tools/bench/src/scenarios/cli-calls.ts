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

/**
 * The least a `get` can do as a Node program: load better-sqlite3, open the store read-only, read
 * one row, hash its payload, print it as JSON. CommonJS, no framework, no checks. The distance
 * from `node -e ""` to this is start-up no CLI built on better-sqlite3 can avoid.
 */
const FLOOR_SCRIPT = (driver: string) => `'use strict';
const Database = require(${JSON.stringify(driver)});
const db = new Database(process.argv[2], { readonly: true, fileMustExist: true });
const row = db.prepare('select * from checkpoints where id = ?').get(Number(process.argv[3]));
const sha = require('node:crypto').createHash('sha256').update(row.payload_json).digest('hex');
process.stdout.write(JSON.stringify({ ok: sha === row.payload_sha256, result: row }, null, 2) + '\\n');
db.close();
`;

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
  // A machine-wide CA bundle makes every Node start read and parse it (about 60 ms here): a
  // fixed cost that would hide ours in the ratio. Both sides run without it.
  delete env.NODE_EXTRA_CA_CERTS;
  const floor = join(dir, 'floor.cjs');
  writeFileSync(floor, FLOOR_SCRIPT(require.resolve('better-sqlite3')));
  const store = join(dir, 's.sqlite');
  const payload = join(dir, 'p.json');
  writeFileSync(payload, JSON.stringify({ messages: ['hello'], n: 1 }));
  execFileSync(NODE, [bin, 'init', '--store', store], { env });
  const calls = n(ctx, 20, 5);
  // The floor's two largest parts, on their own: what any CLI on this driver and hash must load.
  const driverOnly = ['-e', `require(${JSON.stringify(require.resolve('better-sqlite3'))})`];
  const hashOnly = ['-e', "require('node:crypto').createHash('sha256').update('x').digest('hex')"];
  const times: Record<string, number[]> = {
    create: [],
    get: [],
    list: [],
    'node -e ""': [],
    'floor script (get)': [],
    'floor part: require better-sqlite3': [],
    'floor part: node:crypto hash': [],
  };
  for (let i = 0; i < calls; i++) {
    times.create!.push(timeCall([bin, 'create', '--store', store, '--session-id', 's', '--payload-file', payload], env));
    times.get!.push(timeCall([bin, 'get', '--store', store, '--id', '1'], env));
    times.list!.push(timeCall([bin, 'list', '--store', store], env));
    times['node -e ""']!.push(timeCall(['-e', ''], env));
    times['floor script (get)']!.push(timeCall([floor, store, '1'], env));
    times['floor part: require better-sqlite3']!.push(timeCall(driverOnly, env));
    times['floor part: node:crypto hash']!.push(timeCall(hashOnly, env));
  }
  return Object.entries(times).map(([impl, values]) => ({ scenario: 'CLI call (median ms)', impl, unit: 'ms', value: median(values) }));
}
