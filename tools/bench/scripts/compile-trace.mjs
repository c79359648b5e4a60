#!/usr/bin/env node
// Which of our functions V8 spends its optimising compiles on in the issue 39 chat, and why it
// compiles any of them more than once (docs/decisions/0045, 0054). Runs one contender of
// chat-shape.mjs per run in a fresh process with V8's tracing on (`--trace-opt --trace-deopt
// --log-code --log-deopt`; for diagnosis only, the saver sets no V8 flag), then prints:
//   - the compiles of our code (packages/*/dist, or a base copy inside the checkout) and of the
//     rest (LangChain, LangGraph, Node), count and summed milliseconds (the times V8 prints per
//     compile: wall time of the job, so a loaded machine inflates them; compare runs of one hour);
//   - per function of ours, medians over the runs: compiles, compile ms, optimised code bytes, by
//     tier (Node 20: TurboFan; Node 24: Maglev, then TurboFan);
//   - every deoptimisation of our code (where, why) and the optimised code of ours V8 threw away
//     for a changed assumption ("dependency-change": a field written that was constant, an
//     allocation site that began to tenure): each is one more compile of that function.
// The whole process is traced (imports and store open included), not only the timed turns.
//
// Usage: node tools/bench/scripts/compile-trace.mjs [turns=60] [messagesPerTurn=4] [runs=3] [contender=ours-plain]
// (after `npm run build`; contenders and SC_CHAT_SHAPE_BASE as in chat-shape.mjs; run with another
// Node's `node` on PATH to trace that version).
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const [turns = 60, perTurn = 4, runs = 3] = process.argv.slice(2, 5).map(Number);
const who = process.argv[5] ?? 'ours-plain';
const chat = fileURLToPath(new URL('./chat-shape.mjs', import.meta.url));
const checkout = resolve(fileURLToPath(new URL('../../..', import.meta.url)));
const COMPILED = /\[completed compiling 0x\w+ <JSFunction (.*?) \(sfi = 0x\w+\)> \(target (\w+)\)( OSR)? - took ([\d.]+), ([\d.]+), ([\d.]+) ms\]/g;

/** Where a code-creation line's function is, shortened to the checkout or the package: `name|file:line`. */
const place = (name, file, line) => `${name || '(anonymous)'}|${file.replace(`file://${checkout}/`, '').replace(/^.*node_modules\//, '')}:${line}`;
/** True for our own code: the packages' builds, or a base copy inside the checkout. */
const ours = (key) => /\|(packages\/[^/]+\/dist|\.[^/|]+)\//.test(key) && !key.includes('node_modules');

const dir = mkdtempSync(join(tmpdir(), 'sc-compile-trace-'));
const perRun = [];
try {
  for (let run = 0; run < runs; run++) {
    const log = join(dir, `v8-${run}.log`);
    const out = execFileSync(process.execPath, ['--trace-opt', '--trace-deopt', '--log-code', '--log-deopt', `--logfile=${log}`, '--no-logfile-per-isolate', chat, String(turns), String(perTurn)], {
      env: { ...process.env, SC_CHAT_SHAPE_CHILD: who, SC_CHAT_SHAPE_FILE: join(dir, `chat-${run}.sqlite`), SC_CHAT_SHAPE_SCHEMA: `compile_trace_${process.pid}_${run}` },
      encoding: 'utf8',
      maxBuffer: 1 << 28,
    });
    perRun.push(parseRun(out, readFileSync(log, 'utf8')));
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}

/** One run: compiles by function (name matched to its place through the code log), deopts, invalidations. */
function parseRun(trace, log) {
  // Optimised code objects in creation order, per function name: the trace names functions only.
  const placesByName = new Map();
  const codeBytes = new Map();
  const deopts = [];
  for (const line of log.split('\n')) {
    const code = /^code-creation,JS,\d+,\d+,0x\w+,(\d+),(.*?) (\S+):(\d+):\d+,0x\w+,([*+^~']*)$/.exec(line);
    if (code && /[*+]/.test(code[5])) {
      const key = place(code[2], code[3], code[4]);
      (placesByName.get(code[2] || '(anonymous)') ?? placesByName.set(code[2] || '(anonymous)', []).get(code[2] || '(anonymous)')).push(key);
      codeBytes.set(key, (codeBytes.get(key) ?? 0) + Number(code[1]));
      continue;
    }
    const deopt = /^code-deopt,\d+,\d+,0x\w+,-?\d+,-?\d+,([\w-]+),(.*),([^,]*)$/.exec(line);
    if (deopt && /packages\/|\/\.[^/]+\//.test(deopt[2]) && !deopt[2].includes('node_modules')) {
      deopts.push(`${deopt[1]}: ${deopt[3]} at ${deopt[2].replaceAll(`file://${checkout}/`, '')}`);
    }
  }
  const seen = new Map();
  const compiles = new Map();
  for (const m of trace.matchAll(COMPILED)) {
    const name = m[1] || '(anonymous)';
    const i = seen.get(name) ?? 0;
    seen.set(name, i + 1);
    const places = placesByName.get(name) ?? [];
    const key = places[Math.min(i, places.length - 1)] ?? `${name}|?`;
    const c = compiles.get(key) ?? { n: 0, ms: 0, tiers: [] };
    c.n++;
    c.ms += Number(m[4]) + Number(m[5]) + Number(m[6]);
    c.tiers.push(`${m[2].replace('TURBOFAN_JS', 'TURBOFAN')}${m[3] ? ' OSR' : ''}`);
    compiles.set(key, c);
  }
  const invalidated = [...trace.matchAll(/\[marking dependent code 0x\w+ <Code \w+> \(0x\w+ <SharedFunctionInfo ?(.*?)>\) \(opt id \d+\) for deoptimization, reason: (.*?)\]/g)].map((m) => `${m[1] || '(anonymous)'}: ${m[2]}`);
  return { compiles, codeBytes, deopts, invalidated };
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)];
const sum = (r, mine, f) => [...r.compiles].filter(([k]) => ours(k) === mine).reduce((n, [, c]) => n + f(c), 0);
console.log(`${who}, ${turns} turns, ${perTurn} messages a turn, ${runs} runs, Node ${process.version}`);
console.log(`compiles of our code: ${perRun.map((r) => sum(r, true, (c) => c.n)).join(' / ')}, ms ${perRun.map((r) => sum(r, true, (c) => c.ms).toFixed(0)).join(' / ')}`);
console.log(`compiles of the rest: ${perRun.map((r) => sum(r, false, (c) => c.n)).join(' / ')}, ms ${perRun.map((r) => sum(r, false, (c) => c.ms).toFixed(0)).join(' / ')}`);
const keys = new Set(perRun.flatMap((r) => [...r.compiles.keys()].filter(ours)));
const rows = [...keys].map((k) => {
  const of = (f) => median(perRun.map((r) => (r.compiles.has(k) ? f(r) : 0)));
  return { k, ms: of((r) => r.compiles.get(k).ms), n: of((r) => r.compiles.get(k).n), bytes: of((r) => r.codeBytes.get(k) ?? 0), tiers: perRun.find((r) => r.compiles.has(k)).compiles.get(k).tiers.join(', ') };
});
console.log('\n| function (ours) | compiles | compile ms | code bytes | tiers (first run that compiled it) |');
console.log('|---|---|---|---|---|');
for (const r of rows.sort((a, b) => b.ms - a.ms).slice(0, 40)) console.log(`| ${r.k} | ${r.n} | ${r.ms.toFixed(1)} | ${r.bytes} | ${r.tiers} |`);
const counted = (lists) => [...lists.flat().reduce((m, x) => m.set(x, (m.get(x) ?? 0) + 1), new Map())].sort((a, b) => b[1] - a[1]);
console.log(`\nDeoptimisations of our code, all ${runs} runs:`);
for (const [d, n] of counted(perRun.map((r) => r.deopts))) console.log(`  ${n}x ${d}`);
console.log(`\nOptimised code thrown away for a changed assumption, all ${runs} runs (ours and the rest):`);
for (const [d, n] of counted(perRun.map((r) => r.invalidated)).slice(0, 30)) console.log(`  ${n}x ${d}`);
