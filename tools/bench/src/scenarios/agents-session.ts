import { MemorySession, type AgentInputItem, type Session } from '@openai/agents';
import { CheckpointSession } from '@session-checkpoint/openai-agents';
import { openSqliteStore } from '@session-checkpoint/store-kysely';
import Database from 'better-sqlite3';
import { join } from 'node:path';
import { n, type BenchContext, type Sample } from '../context.js';
import { opsPerSecond } from '../harness.js';

/*
 * OpenAI Agents JS sessions (issue 17), side by side in one run: CheckpointSession on a SQLite file
 * (WAL, synchronous=NORMAL, each addItems batch one verified row), the SDK's MemorySession, and a
 * plain SQLite table of JSON items as the community sessions keep them (one row per item with an
 * autoincrement id, insert per item in one transaction, "ORDER BY id DESC LIMIT n" to read; WAL,
 * synchronous=NORMAL, nothing verified). Each gets the same calls: addItems of one turn (user
 * message, reasoning, assistant message) and getItems(20) on sessions of 10, 100 and 1,000 items.
 */

/** History lengths read from: 10 (getItems(20) returns all 10), 100 and 1,000 (it returns 20). */
const SIZES = [10, 100, 1000] as const;

/** One turn of a chat: three items, about 1 KiB of JSON. */
function turn(i: number): AgentInputItem[] {
  return [
    { type: 'message', role: 'user', content: `question ${i}: `.padEnd(200, 'lorem ipsum ') },
    { type: 'reasoning', id: `rs_${i}`, content: [{ type: 'input_text', text: `thinking about ${i}`.padEnd(160, ' dolor') }] },
    {
      type: 'message',
      id: `msg_${i}`,
      role: 'assistant',
      status: 'completed',
      content: [{ type: 'output_text', text: `answer ${i}: `.padEnd(600, 'sit amet ') }],
    },
  ];
}

/** The plain table the community sessions use, behind the `Session` calls this scenario makes. */
function plainTableSession(db: Database.Database, sessionId: string): Pick<Session, 'addItems' | 'getItems'> {
  const insert = db.prepare('INSERT INTO agent_messages (session_id, message_data) VALUES (?, ?)');
  const newest = db.prepare('SELECT message_data FROM agent_messages WHERE session_id = ? ORDER BY id DESC LIMIT ?');
  const addAll = db.transaction((items: AgentInputItem[]) => {
    for (const item of items) insert.run(sessionId, JSON.stringify(item));
  });
  return {
    addItems: async (items) => addAll(items),
    getItems: async (limit = -1) =>
      (newest.all(sessionId, limit) as { message_data: string }[]).reverse().map((row) => JSON.parse(row.message_data) as AgentInputItem),
  };
}

function plainTable(path: string): Database.Database {
  const db = new Database(path);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.exec(
    'CREATE TABLE agent_messages (id INTEGER PRIMARY KEY AUTOINCREMENT, session_id TEXT NOT NULL, message_data TEXT NOT NULL, created_at TEXT DEFAULT CURRENT_TIMESTAMP);' +
      'CREATE INDEX agent_messages_session ON agent_messages (session_id, id);',
  );
  return db;
}

/** Fills a session with `count` items (whole turns, the last one cut to fit). */
async function fill(session: Pick<Session, 'addItems'>, count: number): Promise<void> {
  for (let i = 0; i * 3 < count; i++) await session.addItems(turn(i).slice(0, Math.min(3, count - i * 3)));
}

/** Calls of the scenario so far: odd calls measure the implementations in reverse order. */
let calls = 0;

export async function agentsSession(ctx: BenchContext): Promise<Sample[]> {
  const dir = ctx.dir();
  const store = await openSqliteStore(join(dir, 'ours.sqlite'), { durability: 'normal' });
  const db = plainTable(join(dir, 'plain.sqlite'));
  const impls: { name: string; session: (id: string) => Pick<Session, 'addItems' | 'getItems'> }[] = [
    { name: 'CheckpointSession', session: (id) => new CheckpointSession(store, { sessionId: id }) },
    { name: 'MemorySession', session: (id) => new MemorySession({ sessionId: id }) },
    { name: 'plain SQLite table', session: (id) => plainTableSession(db, id) },
  ];
  const order = calls++ % 2 === 0 ? impls : [...impls].reverse();
  const samples: Sample[] = [];
  try {
    for (const { name, session } of order) {
      const writer = session('writes');
      samples.push({ scenario: 'agents addItems (one turn, 3 items)', impl: name, unit: 'ops/s', value: await opsPerSecond((i) => writer.addItems(turn(i)), n(ctx, 2000, 100)) });
      for (const size of SIZES) {
        const reader = session(`read-${size}`);
        await fill(reader, size);
        const read = async () => {
          if ((await reader.getItems(20)).length !== Math.min(20, size)) throw new Error('getItems(20) returned the wrong count');
        };
        const ops = await opsPerSecond(read, n(ctx, 5000, 200));
        samples.push({ scenario: `agents getItems(20) at ${size.toLocaleString('en-US')} items`, impl: name, unit: 'ops/s', value: ops });
        samples.push({ scenario: `agents getItems(20) latency: ${name}`, impl: `${size.toLocaleString('en-US')} items`, unit: 'µs/op', value: 1e6 / ops });
      }
    }
  } finally {
    await store.close();
    db.close();
  }
  return samples;
}
