#!/usr/bin/env node
// Self time of a `node --cpu-prof` profile, by where the time goes (issue 39, decision record 0023):
// native SQLite calls, hashing, our core (canonical form, verification), the saver's write and read
// paths, LangChain, LangGraph, the garbage collector, module compilation. A frame counts towards the
// first category whose test matches its URL and function name; native frames (no URL) count towards
// their JavaScript caller's category when the caller is the driver (better-sqlite3, pg).
//
// Usage: node tools/bench/scripts/profile-summary.mjs [--turns] FILE.cpuprofile [FILE2.cpuprofile ...]
// Prints one markdown table: a row per category, a column per profile (ms of self time).
// `--turns`: only the samples from the first one under LangGraph's `invoke` on (chat-shape.mjs's
// timed turns: the imports and setup before them left out, as its CPU figures leave them out).
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';

const CATEGORIES = [
  ['garbage collector', (u, f) => f === '(garbage collector)'],
  ['idle / program', (u, f) => f === '(idle)' || f === '(program)' || f === '(root)'],
  ['module loading and compilation', (u, f) => /compileSourceTextModule|compileFunction|wrapSafe|^(moduleStrategy|link|instantiate|evaluate)$/.test(f) || /node:internal\/modules/.test(u)],
  ['SQLite (better-sqlite3, native)', (u) => /better-sqlite3/.test(u)],
  ['PostgreSQL client (pg)', (u) => /node_modules\/pg(-[a-z]+)?\//.test(u)],
  ['Kysely', (u) => /node_modules\/kysely\//.test(u)],
  ['hashing (node:crypto)', (u, f) => /node:internal\/crypto/.test(u) || /^(digest|update|createHash)$/.test(f)],
  ['core: canonical JSON', (u) => /packages\/core\/.*canonical/.test(u)],
  ['core: store, verification, records', (u) => /packages\/core\//.test(u)],
  ['store-kysely: adapter', (u) => /packages\/store-kysely\//.test(u)],
  ['saver: values revived on read (format/serde: loadValueNow, loadEach)', (u, f) => /packages\/langgraph\/dist\/format\/serde/.test(u) && /^(loadEach|loadValueNow|loadValue|hasRevivable|isPlainLangChainObject|isDeltaSnapshotOfMessages|)$/.test(f)],
  ['saver: capture and content check (write/capture, format/serde)', (u) => /packages\/langgraph\/dist\/(write\/capture|format\/(serde|json))/.test(u)],
  ['saver: plan and rows (write/)', (u) => /packages\/langgraph\/dist\/(write|format)\//.test(u)],
  ['saver: read path (read/, saver.ts)', (u) => /packages\/langgraph\/dist\//.test(u)],
  ['official saver (langgraph-checkpoint-sqlite/-postgres)', (u) => /langgraph-checkpoint-(sqlite|postgres)/.test(u)],
  ['langgraph-checkpoint (serde, base saver)', (u) => /langgraph-checkpoint\//.test(u)],
  ['LangChain (@langchain/core: messages, load, toJSON)', (u) => /@langchain\/core/.test(u)],
  ['LangGraph runtime (@langchain/langgraph)', (u) => /@langchain\/langgraph\//.test(u)],
  ['JSON.parse / JSON.stringify (native)', (u, f) => u === '' && /^(parse|stringify)$/.test(f)],
  ['node internals', (u) => /^node:/.test(u)],
  ['other', () => true],
];

function summarise(file) {
  const profile = JSON.parse(readFileSync(file, 'utf8'));
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  // Whether a node's stack holds LangGraph's (or a runnable's) `invoke`: the turns have begun.
  const inTurn = new Map();
  const underInvoke = (id) => {
    if (inTurn.has(id)) return inTurn.get(id);
    const { functionName, url } = byId.get(id).callFrame;
    const found = (functionName === 'invoke' && /@langchain\/(langgraph|core)\//.test(url)) || (parent.has(id) && underInvoke(parent.get(id)));
    inTurn.set(id, found);
    return found;
  };
  const self = new Map();
  const dt = profile.timeDeltas;
  let counting = !turnsOnly;
  for (let i = 0; i < profile.samples.length; i++) {
    counting ||= underInvoke(profile.samples[i]);
    if (counting) self.set(profile.samples[i], (self.get(profile.samples[i]) ?? 0) + (dt[i] ?? 0));
  }
  const out = new Map(CATEGORIES.map(([name]) => [name, 0]));
  for (const [id, us] of self) {
    let node = byId.get(id);
    let { url, functionName } = node.callFrame;
    // A native frame is charged to the nearest caller with a URL (the driver or code that called it).
    while (url === '' && !/^\(/.test(functionName) && parent.has(node.id) && !/^(parse|stringify)$/.test(functionName)) {
      node = byId.get(parent.get(node.id));
      url = node.callFrame.url;
      if (url !== '') functionName = node.callFrame.functionName;
    }
    const [name] = CATEGORIES.find(([, test]) => test(url, functionName));
    out.set(name, out.get(name) + us / 1000);
  }
  return out;
}

const turnsOnly = process.argv.includes('--turns');
const files = process.argv.slice(2).filter((a) => a !== '--turns');
const tables = files.map(summarise);
console.log(`| self time, ms | ${files.map((f) => basename(f, '.cpuprofile')).join(' | ')} |`);
console.log(`|---|${files.map(() => '---').join('|')}|`);
const total = tables.map((t) => [...t.values()].reduce((a, b) => a + b, 0));
console.log(`| ${turnsOnly ? 'the turns' : 'whole process'} | ${total.map((t) => t.toFixed(0)).join(' | ')} |`);
for (const [name] of CATEGORIES) {
  const row = tables.map((t) => t.get(name));
  if (row.every((v) => v < 1)) continue;
  console.log(`| ${name} | ${row.map((v) => v.toFixed(0)).join(' | ')} |`);
}
