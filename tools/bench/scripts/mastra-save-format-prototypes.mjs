#!/usr/bin/env node
// What a one-turn Mastra save would cost end to end in fewer-rows formats (issue 38 item 4,
// decision record 0053), before anyone builds one: copies of this checkout's packages/mastra/dist
// with the remembered save's rows patched (bench-only prototypes: they keep no reader, no memo
// check and no count right, and are removed after), each run through mastra-save-profile.mjs
// (`base`, SC_MASTRA_BASELINE) in rotation with the unchanged build and @mastra/libsql, a fresh
// process per run; CPU µs per save and the median of the per-round ratios theirs / ours.
//   today     the build as it is (5 rows: 2 messages, 2 `i/` rows, the change row holding both)
//   slim      the change row naming the new message rows by ref and SHA-256 (`ids`), no value (5 rows)
//   no-change no change row on the remembered save (4 rows)
//   no-i      no `i/` rows (3 rows, the change row holding both messages)
//   no-i slim no `i/` rows and the slim change row (3 rows)
//   id session as no-i slim, each message row in a session named by its message id (what a by-id
//             read through the session index would need)
// With SC_MASTRA_RANDOM_IDS=1 the messages have random UUIDs as ids (mastra-save-profile.mjs).
// Usage (after npm run build, Node 22+): node tools/bench/scripts/mastra-save-format-prototypes.mjs [rounds=5] [saves=3000]
import { execFileSync } from 'node:child_process';
import { cpSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const rounds = Number(process.argv[2] ?? 5);
const saves = Number(process.argv[3] ?? 3000);
const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, '../../..');
const dist = join(root, 'packages/mastra/dist');
const CHANGE = "const change = this.#changeRows(store, threadId, last.seq + 1, { op: 'save', count, value: messages });";
const ID_ROW = 'rows.push(tx.prepare({ namespace: this.namespace, sessionId, kind: KINDS.messageId,';
const SLIM = "const change = this.#changeRows(store, threadId, last.seq + 1, { op: 'save', count, value: null, ids: rows.filter((r) => r.kind === 'mastra.message').map((r) => [r.sourceRef, r.payloadSha256]) });";
const MESSAGE_ROW = 'rows.push(...valueRows(tx, { namespace: this.namespace, sessionId, kind: KINDS.message,';
const NO_CHANGE_NEWEST = 'newest.set(threadId, { seq: last.seq + 1, count, sha256: change.at(-1).payloadSha256 });\n            present.push';
const PATCHES = {
  slim: [[CHANGE, SLIM]],
  'no-change': [
    [CHANGE, 'const change = [];'],
    [NO_CHANGE_NEWEST, 'newest.set(threadId, last);\n            present.push'],
  ],
  'no-i': [[ID_ROW, `if (false) ${ID_ROW}`]],
  'no-i slim': [
    [ID_ROW, `if (false) ${ID_ROW}`],
    [CHANGE, SLIM],
  ],
  // The message row in a session of its own message id (the index a by-id read would use).
  'id session': [
    [ID_ROW, `if (false) ${ID_ROW}`],
    [CHANGE, SLIM],
    [MESSAGE_ROW, MESSAGE_ROW.replace('sessionId,', "sessionId: `m:${m.id}`,")],
  ],
};
const copies = {};
try {
  for (const [name, patches] of Object.entries(PATCHES)) {
    const copy = join(root, 'packages/mastra', `dist-format-${name.replace(' ', '-')}`);
    rmSync(copy, { recursive: true, force: true });
    cpSync(dist, copy, { recursive: true });
    const file = join(copy, 'memory-storage.js');
    let text = readFileSync(file, 'utf8');
    for (const [from, to] of patches) {
      // Exactly one place each: a build whose text moved fails here instead of measuring nothing.
      if (text.split(from).length !== 2) throw new Error(`prototype ${name}: the build's memory-storage.js has not exactly one "${from.slice(0, 60)}..."`);
      text = text.replace(from, to);
    }
    writeFileSync(file, text);
    copies[name] = copy;
  }
  const script = join(here, 'mastra-save-profile.mjs');
  const runOne = (who, baseline) => {
    const env = baseline ? { ...process.env, SC_MASTRA_BASELINE: baseline } : process.env;
    const out = execFileSync(process.execPath, [script, baseline ? 'base' : who, String(saves)], { env, encoding: 'utf8', cwd: root });
    return JSON.parse(out.trim().split('\n').at(-1)).cpuPerSave;
  };
  const contenders = ['today', 'libsql', ...Object.keys(PATCHES)];
  const cpu = Object.fromEntries(contenders.map((c) => [c, []]));
  const load = [loadavg()[0]];
  for (let round = 0; round < rounds; round++) {
    // Rotating order, so no contender always runs first or last in a round.
    for (let k = 0; k < contenders.length; k++) {
      const who = contenders[(k + round) % contenders.length];
      cpu[who].push(who === 'today' ? runOne('ours') : who === 'libsql' ? runOne('libsql') : runOne(who, copies[who]));
    }
    load.push(loadavg()[0]);
  }
  const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  console.log(`Node ${process.version}, ${rounds} rounds of ${saves} saves into a 1,000-message thread${process.env.SC_MASTRA_RANDOM_IDS === '1' ? ' (random message ids)' : ''}, load average (1 min) ${Math.min(...load).toFixed(1)}-${Math.max(...load).toFixed(1)}`);
  console.log('CPU µs per save (median), throughput against @mastra/libsql (median of per-round ratios [min-max]):');
  for (const c of contenders) {
    const ratios = cpu[c].map((v, i) => cpu.libsql[i] / v).sort((a, b) => a - b);
    console.log(`  ${c.padEnd(10)} ${median(cpu[c]).toFixed(0).padStart(5)} µs   ${median(ratios).toFixed(2)}x [${ratios[0].toFixed(2)}-${ratios.at(-1).toFixed(2)}]`);
  }
} finally {
  for (const copy of Object.values(copies)) rmSync(copy, { recursive: true, force: true });
}
