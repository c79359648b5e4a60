#!/usr/bin/env node
// Start-up of a plugin's own command against a built-in `get`, and of `get` against the floor
// script, in paired rounds: each round runs the floor script, `get` (no plugin), `get` with the
// example plugin linked, the plugin's own `hello` linked and installed (a copy in the data
// directory's node_modules, recorded as `plugins install` records it), and a program that only
// imports `@oclif/core`, back to back, so a busy machine slows the members of a round alike and the
// per-round ratios stay comparable. Prints the median of the per-round ratios and the median CPU
// time (user + system) of each call. The last call is a reference, not a command: the least any
// command that oclif runs costs (docs/decisions/0020-cli-commands-declared-once.md).
//
// Usage (after the build): node packages/cli/scripts/startup-pairs.mjs [rounds, default 20]
// Environment: SC_BENCH_NODE picks another Node binary (with better-sqlite3 built for it). Needs
// python3 (to read each child's CPU time).
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const require = createRequire(import.meta.url);
const NODE = process.env.SC_BENCH_NODE || process.execPath;
const rounds = Number(process.argv[2] ?? 20);
const cli = fileURLToPath(new URL('../bin/run.cjs', import.meta.url));
const example = realpathSync(fileURLToPath(new URL('../../../examples/plugin-hello', import.meta.url)));
const dir = mkdtempSync(join(tmpdir(), 'sc-startup-pairs-'));

// The floor of tools/bench's cliCalls: the least a `get` can do as a Node program.
const floor = join(dir, 'floor.cjs');
writeFileSync(floor, `'use strict';
const Database = require(${JSON.stringify(require.resolve('better-sqlite3'))});
const db = new Database(process.argv[2], { readonly: true, fileMustExist: true });
const row = db.prepare('select * from checkpoints where id = ?').get(Number(process.argv[3]));
const sha = require('node:crypto').createHash('sha256').update(row.payload_json).digest('hex');
process.stdout.write(JSON.stringify({ ok: sha === row.payload_sha256, result: row }, null, 2) + '\\n');
db.close();
`);

// The host's own @oclif/core, imported as a plugin's code imports it (an ES module importing the
// CommonJS package), by file URL so the working directory does not matter.
const oclifAlone = join(dir, 'oclif-alone.mjs');
writeFileSync(oclifAlone, `await import(${JSON.stringify(pathToFileURL(require.resolve('@oclif/core')).href)});\n`);

const base = { ...process.env, XDG_CONFIG_HOME: join(dir, 'config'), XDG_CACHE_HOME: join(dir, 'cache') };
delete base.SESSION_CHECKPOINT_DATA_DIR;
delete base.NODE_EXTRA_CA_CERTS;
const plain = { ...base, XDG_DATA_HOME: join(dir, 'data-empty') };
const linked = { ...base, XDG_DATA_HOME: join(dir, 'data-linked') };
mkdirSync(join(dir, 'data-linked', 'session-checkpoint'), { recursive: true });
writeFileSync(join(dir, 'data-linked', 'session-checkpoint', 'package.json'), JSON.stringify({ private: true, oclif: { schema: 1, plugins: [{ name: 'session-checkpoint-plugin-hello', type: 'link', root: example }] } }));

const installed = { ...base, XDG_DATA_HOME: join(dir, 'data-installed') };
const installedDir = join(dir, 'data-installed', 'session-checkpoint');
for (const part of ['package.json', 'src']) cpSync(join(example, part), join(installedDir, 'node_modules', 'session-checkpoint-plugin-hello', part), { recursive: true });
writeFileSync(join(installedDir, 'package.json'), JSON.stringify({ private: true, oclif: { schema: 1, plugins: [{ name: 'session-checkpoint-plugin-hello', type: 'user', tag: 'latest' }] }, dependencies: { 'session-checkpoint-plugin-hello': '0.1.0' } }));

const store = join(dir, 's.sqlite');
writeFileSync(join(dir, 'p.json'), JSON.stringify({ messages: ['hello'], n: 1 }));
for (const args of [['init', '--store', store], ['create', '--store', store, '--session-id', 's', '--payload-file', join(dir, 'p.json')]]) {
  if (spawnSync(NODE, [cli, ...args], { env: plain }).status !== 0) throw new Error(`set-up failed: ${args[0]}`);
}

// getrusage(RUSAGE_CHILDREN) in microseconds (/usr/bin/time prints only hundredths, too coarse
// for a 0.1 s call); Python only because Node cannot read a child's rusage.
const RUSAGE = `import resource, subprocess, sys
code = subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL).returncode
r = resource.getrusage(resource.RUSAGE_CHILDREN)
print(code, r.ru_utime + r.ru_stime)`;

/** CPU seconds (user + system) of one child process. */
function cpu(args, env) {
  const result = spawnSync('python3', ['-c', RUSAGE, NODE, ...args], { env, encoding: 'utf8' });
  const [code, seconds] = result.stdout.trim().split(' ');
  if (result.status !== 0 || code !== '0') throw new Error(`${args.join(' ')} failed: ${result.stderr}`);
  return Number(seconds);
}

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};

const calls = {
  floor: [[floor, store, '1'], plain],
  get: [[cli, 'get', '--store', store, '--id', '1'], plain],
  'get (plugin linked)': [[cli, 'get', '--store', store, '--id', '1'], linked],
  'plugin command (hello)': [[cli, 'hello', '--store', store], linked],
  'plugin command, installed (hello)': [[cli, 'hello', '--store', store], installed],
  '@oclif/core import alone': [[oclifAlone], plain],
};
const times = Object.fromEntries(Object.keys(calls).map((name) => [name, []]));
for (let i = 0; i < rounds; i++) for (const [name, [args, env]] of Object.entries(calls)) times[name].push(cpu(args, env));
rmSync(dir, { recursive: true, force: true });

const ratio = (a, b) => median(times[a].map((value, i) => value / times[b][i]));
process.stdout.write(
  `${JSON.stringify(
    {
      node: spawnSync(NODE, ['--version'], { encoding: 'utf8' }).stdout.trim(),
      rounds,
      medianCpuSeconds: Object.fromEntries(Object.entries(times).map(([name, values]) => [name, Number(median(values).toFixed(3))])),
      medianOfPairRatios: {
        'get / floor': Number(ratio('get', 'floor').toFixed(2)),
        'get (plugin linked) / get': Number(ratio('get (plugin linked)', 'get').toFixed(2)),
        'plugin command / get': Number(ratio('plugin command (hello)', 'get').toFixed(2)),
        'plugin command, installed / get': Number(ratio('plugin command, installed (hello)', 'get').toFixed(2)),
        '@oclif/core import alone / get': Number(ratio('@oclif/core import alone', 'get').toFixed(2)),
      },
    },
    null,
    2,
  )}\n`,
);
