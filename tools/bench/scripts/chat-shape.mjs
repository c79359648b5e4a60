#!/usr/bin/env node
// The growing chat in the shapes users run (issue 39): one `graph.invoke` per turn, about 20 KB
// appended to the messages per turn, split over a choice of how many messages. The bench's own
// chat (src/chat-graph.ts) appends four messages a turn, one of them an 18 KB tool result; an agent
// that calls several tools, or streams its answer in parts, appends many smaller ones, and what a
// saver does per message (not per byte) then shows. Contenders, each in a fresh child process per
// run (so no contender warms another's code), in rotating order:
//   peer-delta   SqliteSaver with LangGraph's DeltaChannel graph (the anchor)
//   ours-delta   SessionCheckpointSaver with the DeltaChannel graph
//   ours-plain   SessionCheckpointSaver with the unchanged graph
// SQLite in WAL mode at synchronous=NORMAL on both sides (our store at durability "normal").
// Prints one JSON line per run and a table of medians: total time (ms, wall) and CPU time of the
// turns, bytes on disk, and the ratios against the anchor.
//
// Usage: node tools/bench/scripts/chat-shape.mjs [turns=60] [messagesPerTurn=4] [runs=3] [contenders=peer-delta,ours-delta,ours-plain]
// (after `npm run build`; a file of each contender's run lives in a temporary folder, removed after).
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, statSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const [turns = 60, perTurn = 4, runs = 3] = process.argv.slice(2, 5).map(Number);
const contenders = (process.argv[5] ?? 'peer-delta,ours-delta,ours-plain').split(',');

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
          env: { ...process.env, SC_CHAT_SHAPE_CHILD: who, SC_CHAT_SHAPE_FILE: file },
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
  const anchor = results.get('peer-delta');
  console.log(`\n${turns} turns, ${perTurn} messages a turn, ${runs} runs, Node ${process.version}; medians (ratio to peer-delta, median of per-run ratios)`);
  console.log('| contender | wall ms | cpu ms | bytes KiB | wall ratio | cpu ratio | bytes ratio |');
  console.log('|---|---|---|---|---|---|---|');
  for (const [who, rs] of results) {
    const ratio = (key) => (anchor ? median(rs.map((r, i) => r[key] / anchor[i][key])).toFixed(2) : '');
    console.log(`| ${who} | ${median(rs.map((r) => r.wallMs)).toFixed(0)} | ${median(rs.map((r) => r.cpuMs)).toFixed(0)} | ${(median(rs.map((r) => r.bytes)) / 1024).toFixed(0)} | ${ratio('wallMs')} | ${ratio('cpuMs')} | ${ratio('bytes')} |`);
  }
}

/** One contender's chat in this process: prints `{ who, wallMs, cpuMs, bytes, messages }`. */
async function child(who, file) {
  const { AIMessage, HumanMessage, ToolMessage } = await import('@langchain/core/messages');
  const { END, MessagesDeltaValue, MessagesValue, START, StateGraph, StateSchema } = await import('@langchain/langgraph');
  const channel = who.endsWith('delta') ? 'delta' : 'plain';
  let saver;
  let close;
  if (who.startsWith('peer')) {
    const { SqliteSaver } = await import('@langchain/langgraph-checkpoint-sqlite');
    const { default: Database } = await import('better-sqlite3');
    const db = new Database(file);
    saver = new SqliteSaver(db);
    saver.setup();
    db.pragma('synchronous = NORMAL');
    close = async () => db.close();
  } else {
    const { openSqliteStore } = await import('@session-checkpoint/store-kysely');
    const { SessionCheckpointSaver } = await import('@session-checkpoint/langgraph');
    const store = await openSqliteStore(file, { durability: 'normal' });
    saver = new SessionCheckpointSaver(store);
    close = () => store.close();
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
  const config = { configurable: { thread_id: 'chat' } };
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  let state;
  for (let turn = 0; turn < turns; turn++) {
    state = await graph.invoke({ messages: [new HumanMessage({ id: `t${turn}-user`, content: `Question ${turn}: ${text(1e6 + turn, 160)}` })] }, config);
  }
  const wallMs = performance.now() - t0;
  const cpu = process.cpuUsage(cpu0);
  const messages = state.messages.length;
  if (messages !== turns * (3 + calls)) throw new Error(`${who}: ${messages} messages, expected ${turns * (3 + calls)}`);
  await close();
  const bytes = ['', '-wal', '-shm'].map((s) => file + s).filter(existsSync).reduce((n, p) => n + statSync(p).size, 0);
  console.log(JSON.stringify({ who, wallMs, cpuMs: (cpu.user + cpu.system) / 1000, bytes, messages }));
}
