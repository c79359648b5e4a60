import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, realpathSync, writeFileSync } from 'node:fs';
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

/**
 * The same least-possible `get` in Python (sqlite3, hashlib, json from the standard library): a
 * lower bound of the Python reference CLI's `get`, which imports argparse and its own modules on
 * top. Used when the Python CLI itself is not installed on the machine.
 */
const PYTHON_FLOOR_SCRIPT = `import sqlite3, hashlib, json, sys, argparse
db = sqlite3.connect('file:' + sys.argv[1] + '?mode=ro', uri=True)
db.row_factory = sqlite3.Row
row = dict(db.execute('select * from checkpoints where id = ?', (int(sys.argv[2]),)).fetchone())
sha = hashlib.sha256(row['payload_json'].encode()).hexdigest()
sys.stdout.write(json.dumps({'ok': sha == row['payload_sha256'], 'result': row}, ensure_ascii=False, indent=2) + '\\n')
db.close()
`;

/**
 * A checkout of the Python reference (a folder holding its `session_checkpoint` package), from
 * `SC_BENCH_PYTHON_REFERENCE`: then the Python CLI's own `get` (`python3 -m session_checkpoint.cli`)
 * is timed beside ours on the same store. Not part of this repository: pass a checkout of your own.
 */
function pythonReference(): string | undefined {
  const dir = process.env.SC_BENCH_PYTHON_REFERENCE;
  return dir !== undefined && dir !== '' && existsSync(join(dir, 'session_checkpoint', 'cli.py')) ? dir : undefined;
}

/** The real Python interpreter (not a version-manager shim, whose own start-up would be timed), or `undefined`. */
function pythonBinary(): string | undefined {
  try {
    return execFileSync('python3', ['-c', 'import sys; print(sys.executable)'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim() || undefined;
  } catch {
    return undefined;
  }
}

function timeCall(args: string[], env: NodeJS.ProcessEnv, binary = NODE): number {
  const start = process.hrtime.bigint();
  execFileSync(binary, args, { stdio: ['ignore', 'pipe', 'pipe'], env });
  return Number(process.hrtime.bigint() - start) / 1e6;
}

/**
 * An XDG data home whose plugin record links `roots`, as `plugins link` leaves it.
 */
function linkingDataHome(home: string, roots: string[]): string {
  mkdirSync(join(home, 'session-checkpoint'), { recursive: true });
  const plugins = roots.map((root, i) => ({ name: `bench-plugin-${i}`, type: 'link', root }));
  writeFileSync(join(home, 'session-checkpoint', 'package.json'), JSON.stringify({ private: true, oclif: { schema: 1, plugins } }));
  return home;
}

/** A plugin with only an `init` hook: it could change any command, so every call goes through oclif. */
function hookPlugin(root: string): string {
  mkdirSync(join(root, 'commands'), { recursive: true });
  writeFileSync(join(root, 'init.js'), 'export default async function () {}\n');
  writeFileSync(join(root, 'package.json'), JSON.stringify({ name: 'bench-hook-plugin', version: '1.0.0', type: 'module', oclif: { commands: './commands', hooks: { init: './init.js' } } }));
  return root;
}

/**
 * Wall time of one CLI call (a new Node process each time) beside the floor of starting Node
 * itself (`node -e ""`), measured in pairs (one of each per round, same machine state), so the
 * report separates our start-up cost from Node's. The data directory is empty (no plugin
 * installed) for the plain rows; `get` also runs with the example plugin linked (which cannot
 * change a built-in, so the direct path still serves it) and with a plugin that declares a hook
 * (every call through oclif). XDG_* point into the bench folder.
 */
export async function cliCalls(ctx: BenchContext): Promise<Sample[]> {
  // The file npm links as `session-checkpoint` (package.json "bin"), as users run it.
  const cliPackage = require.resolve('@session-checkpoint/cli/package.json');
  const bin = join(dirname(cliPackage), (require(cliPackage) as { bin: Record<string, string> }).bin['session-checkpoint']!);
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
  const example = join(dirname(bin), '..', '..', '..', 'examples', 'plugin-hello');
  const withExample = existsSync(example) ? { ...env, XDG_DATA_HOME: linkingDataHome(join(dir, 'data-example'), [realpathSync(example)]) } : undefined;
  const withHook = { ...env, XDG_DATA_HOME: linkingDataHome(join(dir, 'data-hook'), [hookPlugin(join(dir, 'hook-plugin'))]) };
  const python = pythonBinary();
  const reference = python === undefined ? undefined : pythonReference();
  const referenceEnv = reference === undefined ? undefined : { ...env, PYTHONPATH: reference };
  const pythonFloor = join(dir, 'floor.py');
  writeFileSync(pythonFloor, PYTHON_FLOOR_SCRIPT);
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
    ...(withExample === undefined ? {} : { 'get (example plugin linked)': [] }),
    'get (plugin with a hook: oclif path)': [],
    ...(python === undefined ? {} : { 'python floor script (get)': [] }),
    ...(referenceEnv === undefined ? {} : { 'python CLI (get)': [] }),
  };
  for (let i = 0; i < calls; i++) {
    times.create!.push(timeCall([bin, 'create', '--store', store, '--session-id', 's', '--payload-file', payload], env));
    times.get!.push(timeCall([bin, 'get', '--store', store, '--id', '1'], env));
    times.list!.push(timeCall([bin, 'list', '--store', store], env));
    times['node -e ""']!.push(timeCall(['-e', ''], env));
    times['floor script (get)']!.push(timeCall([floor, store, '1'], env));
    times['floor part: require better-sqlite3']!.push(timeCall(driverOnly, env));
    times['floor part: node:crypto hash']!.push(timeCall(hashOnly, env));
    if (withExample !== undefined) times['get (example plugin linked)']!.push(timeCall([bin, 'get', '--store', store, '--id', '1'], withExample));
    times['get (plugin with a hook: oclif path)']!.push(timeCall([bin, 'get', '--store', store, '--id', '1'], withHook));
    if (python !== undefined) times['python floor script (get)']!.push(timeCall([pythonFloor, store, '1'], env, python));
    if (referenceEnv !== undefined) times['python CLI (get)']!.push(timeCall(['-m', 'session_checkpoint.cli', 'get', '--store', store, '--id', '1'], referenceEnv, python));
  }
  return Object.entries(times).map(([impl, values]) => ({ scenario: 'CLI call (median ms)', impl, unit: 'ms', value: median(values) }));
}
