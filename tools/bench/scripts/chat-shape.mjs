#!/usr/bin/env node
// The growing chat in the shapes users run (issue 39): one `graph.invoke` per turn, about 20 KB
// appended to the messages per turn, split over a choice of how many messages. The bench's own
// chat (src/chat-graph.ts) appends four messages a turn, one of them an 18 KB tool result; an agent
// that calls several tools, or streams its answer in parts, appends many smaller ones, and what a
// saver does per message (not per byte) then shows. Contenders, each in a fresh child process per
// run (so no contender warms another's code, as in a user's process), in rotating order:
//   peer-delta      SqliteSaver with LangGraph's DeltaChannel graph (the anchor)
//   ours-delta      SessionCheckpointSaver on SQLite with the DeltaChannel graph
//   ours-plain      SessionCheckpointSaver on SQLite with the unchanged graph
//   pg-peer-delta   PostgresSaver with the DeltaChannel graph (with SC_PG_URL)
//   pg-ours-delta   SessionCheckpointSaver on PostgreSQL with the DeltaChannel graph (with SC_PG_URL)
//   memory-plain    LangGraph's MemorySaver with the unchanged graph (stores nothing durable: what
//                   serialising every message at every put and reviving it at every read costs)
//   peer-plain      SqliteSaver with the unchanged graph (O(N^2) bytes)
//   bare-plain, bare-delta   ours-plain and ours-delta on a file whose two secondary indexes (the
//                   Python tool's namespace index and our session index) are dropped after the open:
//                   what those indexes' pages cost (not a mode: the store refuses such a file)
//   ref-plain, ref-delta   MemorySaver with a serializer that keeps references (no JSON, no copy,
//                   nothing durable; not faithful): LangGraph's own cost of the graph, the floor
//                   under any saver of either graph
//   base-delta, base-plain   ours-delta and ours-plain with the saver built in SC_CHAT_SHAPE_BASE
//                   (a copy of packages/langgraph/dist from another commit, kept inside the
//                   checkout so that its imports resolve): a change measured before and after
//                   in the same run
// SQLite in WAL mode at synchronous=NORMAL on both sides (our store at durability "normal");
// PostgreSQL at the server's settings, each contender in a schema of its own, dropped after.
// Prints one JSON line per run and a table of medians: total time (ms, wall) and CPU time of the
// turns (this process; a PostgreSQL server's CPU is not in it), bytes stored, and the ratios of
// each contender to its anchor (pg-* to pg-peer-delta, the others to peer-delta), medians of
// per-run ratios; then the spread of each contender's per-run wall ratios (quartiles, min-max,
// runs above 1.0 and 1.1). This is the measure of record for issue 39's chat bars (docs/decisions/0023).
// SC_CHAT_SHAPE_DETAIL=1 adds to each run the CPU ms of every turn (`cpuTurns`) and, where Linux's
// /proc/self/task is, the turns' CPU split between the main thread and V8's helper threads
// (optimising compilers, concurrent GC), which process CPU counts too (docs/decisions/0045).
// SC_CHAT_SHAPE_READS=1 adds to each run of our saver what its store handed back over the timed
// turns (`reads`: store read calls, rows, and UTF-16 code units of payload text), counted on the
// store's three read methods that the saver calls.
// SC_CHAT_SHAPE_WARM=N first runs an untimed chat of N turns on another thread of the same saver, so
// the timed chat is a new thread in a process whose code is warm (docs/decisions/0047); the bytes
// stored then include the warm-up thread's.
//
// Usage: [SC_PG_URL=postgres://...] node tools/bench/scripts/chat-shape.mjs [turns=60] [messagesPerTurn=4] [runs=3] [contenders]
// (after `npm run build`; default contenders: the three SQLite ones, and the two pg-* ones with SC_PG_URL).
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const [turns = 60, perTurn = 4, runs = 3] = process.argv.slice(2, 5).map(Number);
const pgUrl = process.env.SC_PG_URL;
const contenders = (process.argv[5] ?? `peer-delta,ours-delta,ours-plain${pgUrl ? ',pg-peer-delta,pg-ours-delta' : ''}`).split(',');
// Options of our saver, for experiments (e.g. SC_CHAT_SHAPE_SAVER_OPTIONS='{"snapshotRatio":8}').
const saverOptions = JSON.parse(process.env.SC_CHAT_SHAPE_SAVER_OPTIONS ?? '{}');
const anchorOf = (who) => (who.startsWith('pg-') ? 'pg-peer-delta' : 'peer-delta');

if (process.env.SC_CHAT_SHAPE_CHILD) {
  await child(process.env.SC_CHAT_SHAPE_CHILD, process.env.SC_CHAT_SHAPE_FILE);
} else {
  const dir = mkdtempSync(join(tmpdir(), 'sc-chat-shape-'));
  const results = new Map(contenders.map((c) => [c, []]));
  try {
    for (let run = 0; run < runs; run++) {
      for (let i = 0; i < contenders.length; i++) {
        const who = contenders[(i + run) % contenders.length];
        const file = join(dir, `${who}-${run}.sqlite`);
        const out = execFileSync(process.execPath, [fileURLToPath(import.meta.url), String(turns), String(perTurn)], {
          env: { ...process.env, SC_CHAT_SHAPE_CHILD: who, SC_CHAT_SHAPE_FILE: file, SC_CHAT_SHAPE_SCHEMA: `chat_shape_${process.pid}_${run}_${who.replace(/-/g, '_')}` },
          encoding: 'utf8',
          maxBuffer: 1 << 20,
        });
        const result = JSON.parse(out.trim().split('\n').pop());
        console.log(JSON.stringify({ run, ...result }));
        results.get(who).push(result);
      }
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)];
  console.log(`\n${turns} turns, ${perTurn} messages a turn, ${runs} runs, Node ${process.version}; medians (ratio to the anchor, median of per-run ratios)`);
  console.log('| contender | wall ms | cpu ms | bytes KiB | wall ratio | cpu ratio | cpu ratio, first 10 turns | cpu ratio, the rest | bytes ratio |');
  console.log('|---|---|---|---|---|---|---|---|---|');
  for (const [who, rs] of results) {
    const anchor = results.get(anchorOf(who));
    const ratio = (key) => (anchor ? median(rs.map((r, i) => r[key] / anchor[i][key])).toFixed(2) : '');
    for (const r of rs) r.cpuRest = r.cpuMs - r.cpuFirst10;
    const cells = [median(rs.map((r) => r.wallMs)).toFixed(0), median(rs.map((r) => r.cpuMs)).toFixed(0), (median(rs.map((r) => r.bytes)) / 1024).toFixed(0)];
    console.log(`| ${who} | ${cells.join(' | ')} | ${['wallMs', 'cpuMs', 'cpuFirst10', 'cpuRest', 'bytes'].map(ratio).join(' | ')} |`);
  }
  // A median of a set moves between sets on a shared machine (docs/decisions/0061): the spread of
  // the per-run ratios tells how far a bar near the median can be trusted.
  console.log('\nPer-run wall ratios to the anchor: quartiles, min-max, and how many runs were above 1.0 and 1.1');
  console.log('| contender | lower quartile | median | upper quartile | min-max | runs above 1.0 | runs above 1.1 |');
  console.log('|---|---|---|---|---|---|---|');
  for (const [who, rs] of results) {
    const anchor = results.get(anchorOf(who));
    if (!anchor || who === anchorOf(who)) continue;
    const xs = rs.map((r, i) => r.wallMs / anchor[i].wallMs).sort((a, b) => a - b);
    const at = (p) => xs[Math.round(p * (xs.length - 1))].toFixed(2);
    const above = (bar) => `${xs.filter((x) => x > bar).length} of ${xs.length}`;
    console.log(`| ${who} | ${at(0.25)} | ${median(xs).toFixed(2)} | ${at(0.75)} | ${at(0)}-${at(1)} | ${above(1)} | ${above(1.1)} |`);
  }
  if ([...results.values()].every((rs) => rs.every((r) => r.threads))) {
    console.log('\nCPU ms of the turns by thread, medians: main thread and V8 helper threads, first 10 turns and all');
    console.log('| contender | main, first 10 | helpers, first 10 | main | helpers |');
    console.log('|---|---|---|---|---|');
    for (const [who, rs] of results) {
      const cells = [(r) => r.threads.first10.main, (r) => r.threads.first10.helpers, (r) => r.threads.all.main, (r) => r.threads.all.helpers];
      console.log(`| ${who} | ${cells.map((f) => median(rs.map(f)).toFixed(0)).join(' | ')} |`);
    }
  }
}

/** CPU ms so far of this process's main thread and of its other threads, or undefined off Linux. */
function threadCpu() {
  const tasks = '/proc/self/task';
  if (!existsSync(tasks)) return undefined;
  let main = 0;
  let helpers = 0;
  for (const task of readdirSync(tasks)) {
    // schedstat: time on CPU in ns, first field (task-level, unlike process.cpuUsage).
    const ns = Number(readFileSync(`${tasks}/${task}/schedstat`, 'utf8').split(' ')[0]);
    if (task === String(process.pid)) main += ns;
    else helpers += ns;
  }
  return { main: main / 1e6, helpers: helpers / 1e6 };
}

/** One contender's chat in this process: prints `{ who, wallMs, cpuMs, bytes, messages }`. */
async function child(who, file) {
  const { AIMessage, HumanMessage, ToolMessage } = await import('@langchain/core/messages');
  const { END, MessagesDeltaValue, MessagesValue, START, StateGraph, StateSchema } = await import('@langchain/langgraph');
  const channel = who.endsWith('delta') ? 'delta' : 'plain';
  let saver;
  let close;
  /** What our store's reads handed back, with SC_CHAT_SHAPE_READS (see countReads). */
  let reads;
  let bytesOf = async () => ['', '-wal', '-shm'].map((s) => file + s).filter(existsSync).reduce((n, p) => n + statSync(p).size, 0);
  if (who.startsWith('pg-')) {
    const pg = (await import('pg')).default;
    const schema = process.env.SC_CHAT_SHAPE_SCHEMA;
    const admin = new pg.Client({ connectionString: pgUrl });
    await admin.connect();
    if (who === 'pg-peer-delta') {
      const { PostgresSaver } = await import('@langchain/langgraph-checkpoint-postgres');
      await admin.query(`create schema "${schema}"`);
      saver = PostgresSaver.fromConnString(pgUrl, { schema });
      await saver.setup();
      close = () => saver.end();
    } else {
      const { openPostgresStore } = await import('@session-checkpoint/store-kysely');
      const { SessionCheckpointSaver } = await import('@session-checkpoint/langgraph');
      const store = await openPostgresStore(pgUrl, { schema, poolSize: 2 });
      saver = new SessionCheckpointSaver(store, saverOptions);
      close = () => store.close();
      reads = countReads(store);
    }
    bytesOf = async () => {
      const { rows } = await admin.query(`select coalesce(sum(pg_total_relation_size(c.oid)), 0)::text as b from pg_class c join pg_namespace n on n.oid = c.relnamespace where n.nspname = $1 and c.relkind = 'r'`, [schema]);
      const bytes = Number(rows[0].b);
      await admin.query(`drop schema if exists "${schema}" cascade`);
      await admin.end();
      return bytes;
    };
  } else if (who === 'memory-plain') {
    const { MemorySaver } = await import('@langchain/langgraph-checkpoint');
    saver = new MemorySaver();
    close = async () => undefined;
    bytesOf = async () => 0;
  } else if (who.startsWith('ref-')) {
    const { MemorySaver } = await import('@langchain/langgraph-checkpoint');
    const kept = [];
    const encoder = new TextEncoder();
    const decoder = new TextDecoder();
    const refs = {
      dumpsTyped: async (value) => ['ref', encoder.encode(String(kept.push(value) - 1))],
      loadsTyped: async (_type, bytes) => kept[Number(typeof bytes === 'string' ? bytes : decoder.decode(bytes))],
    };
    saver = new MemorySaver(refs);
    close = async () => undefined;
    bytesOf = async () => 0;
  } else if (who.startsWith('peer')) {
    const { SqliteSaver } = await import('@langchain/langgraph-checkpoint-sqlite');
    const { default: Database } = await import('better-sqlite3');
    const db = new Database(file);
    saver = new SqliteSaver(db);
    saver.setup();
    db.pragma('synchronous = NORMAL');
    close = async () => db.close();
  } else {
    const { openSqliteStore } = await import('@session-checkpoint/store-kysely');
    const base = who.startsWith('base-') ? process.env.SC_CHAT_SHAPE_BASE : undefined;
    if (who.startsWith('base-') && !base) throw new Error(`${who}: set SC_CHAT_SHAPE_BASE to a built copy of packages/langgraph/dist`);
    const { SessionCheckpointSaver } = await import(base ? pathToFileURL(join(resolve(base), 'index.js')).href : '@session-checkpoint/langgraph');
    const store = await openSqliteStore(file, { durability: 'normal' });
    if (who.startsWith('bare-')) {
      // The v1 layout's two secondary indexes dropped behind the open store's back (a file the
      // store refuses at open: a measurement, not a mode); the saver reads by the unique index.
      const { default: Database } = await import('better-sqlite3');
      const raw = new Database(file);
      raw.exec('drop index idx_checkpoints_namespace_created; drop index idx_checkpoints_session_created');
      raw.close();
    }
    saver = new SessionCheckpointSaver(store, saverOptions);
    close = () => store.close();
    reads = countReads(store);
  }
  // A turn: the user's question, the agent's call of `calls` tools, their results, the answer.
  // `perTurn` = 3 + calls messages; about 20 KB in all, most of it in the tool results.
  const calls = Math.max(1, perTurn - 3);
  const toolBytes = Math.floor(18_000 / calls);
  const text = (seed, bytes) => {
    let a = seed >>> 0;
    let s = '';
    while (s.length < bytes) {
      a = (Math.imul(a ^ (a >>> 15), 2246822507) + 0x9e3779b9) >>> 0;
      s += `w${a % 997} `;
    }
    return s.slice(0, bytes);
  };
  const schema = new StateSchema({ messages: channel === 'delta' ? MessagesDeltaValue : MessagesValue });
  const graph = new StateGraph(schema)
    .addNode('agent', (state) => {
      const last = state.messages[state.messages.length - 1];
      const turn = state.messages.filter((m) => m.getType() === 'human').length - 1;
      if (last?.getType() === 'tool') return { messages: [new AIMessage({ id: `t${turn}-answer`, content: text(3e6 + turn, 2000) })] };
      const tool_calls = Array.from({ length: calls }, (_, k) => ({ id: `call-${turn}-${k}`, name: 'search', args: { query: `q${turn}.${k}` }, type: 'tool_call' }));
      return { messages: [new AIMessage({ id: `t${turn}-call`, content: '', tool_calls })] };
    })
    .addNode('tools', (state) => {
      const call = state.messages[state.messages.length - 1];
      return { messages: call.tool_calls.map((c, k) => new ToolMessage({ id: `${c.id}-result`, content: text(2e6 + k * 1e4 + state.messages.length, toolBytes), tool_call_id: c.id })) };
    })
    .addEdge(START, 'agent')
    .addConditionalEdges('agent', (state) => (state.messages[state.messages.length - 1].tool_calls?.length ? 'tools' : END), ['tools', END])
    .addEdge('tools', 'agent')
    .compile({ checkpointer: saver });
  const warmTurns = Number(process.env.SC_CHAT_SHAPE_WARM ?? 0);
  for (let turn = 0; turn < warmTurns; turn++) {
    await graph.invoke({ messages: [new HumanMessage({ id: `t${turn}-user`, content: `Question ${turn}: ${text(1e6 + turn, 160)}` })] }, { configurable: { thread_id: 'warm-up' } });
  }
  const config = { configurable: { thread_id: 'chat' } };
  // Only the timed turns' reads (the warm-up's are left out).
  if (reads) reads.calls = reads.rows = reads.chars = 0;
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  let state;
  let cpuFirst10 = 0;
  const detail = Boolean(process.env.SC_CHAT_SHAPE_DETAIL);
  const cpuNow = () => ((u) => (u.user + u.system) / 1000)(process.cpuUsage(cpu0));
  const cpuTurns = [];
  const threads0 = detail ? threadCpu() : undefined;
  let threads10;
  for (let turn = 0; turn < turns; turn++) {
    if (turn === 10) {
      cpuFirst10 = cpuNow();
      threads10 = threads0 && threadCpu();
    }
    const before = detail ? cpuNow() : 0;
    state = await graph.invoke({ messages: [new HumanMessage({ id: `t${turn}-user`, content: `Question ${turn}: ${text(1e6 + turn, 160)}` })] }, config);
    if (detail) cpuTurns.push(Math.round((cpuNow() - before) * 10) / 10);
  }
  const threadsEnd = threads0 && threadCpu();
  const wallMs = performance.now() - t0;
  const cpu = process.cpuUsage(cpu0);
  const readsOfTurns = reads && { ...reads };
  const messages = state.messages.length;
  if (messages !== turns * (3 + calls)) throw new Error(`${who}: ${messages} messages, expected ${turns * (3 + calls)}`);
  await close();
  const bytes = await bytesOf();
  const since = (a, b) => a && b && { main: Math.round(a.main - b.main), helpers: Math.round(a.helpers - b.helpers) };
  const threads = threads0 && { first10: since(threads10 ?? threadsEnd, threads0), all: since(threadsEnd, threads0) };
  console.log(JSON.stringify({ who, wallMs, cpuMs: (cpu.user + cpu.system) / 1000, cpuFirst10, bytes, messages, ...(detail && { cpuTurns, threads }), ...(readsOfTurns && { reads: readsOfTurns }) }));
}

/**
 * With SC_CHAT_SHAPE_READS, wraps the store's read methods that the saver calls and returns what
 * they hand back, counted as they go: read calls, rows, UTF-16 code units of payload text.
 */
function countReads(store) {
  if (!process.env.SC_CHAT_SHAPE_READS) return undefined;
  const reads = { calls: 0, rows: 0, chars: 0 };
  const count = (rows) => {
    reads.calls++;
    for (const row of rows) {
      reads.rows++;
      reads.chars += row.payloadJson.length;
    }
  };
  for (const name of ['listBySourceRefPrefix', 'findBySourceRefs']) {
    const read = store[name].bind(store);
    store[name] = async (...args) => {
      const rows = await read(...args);
      count(rows);
      return rows;
    };
  }
  const one = store.findBySourceRef.bind(store);
  store.findBySourceRef = async (...args) => {
    const row = await one(...args);
    count(row === undefined ? [] : [row]);
    return row;
  };
  return reads;
}
