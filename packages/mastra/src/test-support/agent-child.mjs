// A Mastra agent with Memory over the store, as one process of an application: it answers one
// message on a thread with a scripted model and prints what the model was given (the memory it
// recalled), as one JSON line. With "kill", it then SIGKILLs itself: nothing after the answer runs.
// Args: <target> <threadId> <message> [kill]
import { Agent } from '@mastra/core/agent';
import { Memory } from '@mastra/memory';
import { createMockModel } from '@mastra/core/test-utils/llm-mock';
import { openPostgresStore, openSqliteStore } from '@session-checkpoint/store-kysely';
import { createMastraStorage } from '../../dist/index.js';

const [target, threadId, message, kill] = process.argv.slice(2);
const store = target.startsWith('sqlite:')
  ? await openSqliteStore(target.slice('sqlite:'.length))
  : await openPostgresStore(process.env.SC_PG_URL ?? '', { schema: target.slice('postgres:'.length), poolSize: 2 });
let prompt;
const model = createMockModel({ version: 'v2', mockText: `noted: ${message}`, spyGenerate: (p) => (prompt = p), spyStream: (p) => (prompt = p) });
const memory = new Memory({ storage: createMastraStorage(store), options: { lastMessages: 20 } });
const agent = new Agent({ id: 'assistant', name: 'assistant', instructions: 'Remember what the user says.', model, memory });
const result = await agent.generate(message, { memory: { thread: threadId, resource: 'user-1' } });
const seen = JSON.stringify(prompt?.prompt ?? prompt ?? null);
console.log(JSON.stringify({ text: result.text, seen }));
if (kill === 'kill') process.kill(process.pid, 'SIGKILL');
await store.close();
