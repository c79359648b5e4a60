// A Mastra agent whose Memory lives in a session-checkpoint store (@session-checkpoint/mastra):
// every read verified, every change of the thread's memory kept as a version. The model is
// scripted; run `node examples/mastra-memory.mjs` twice (Node 22.13+, after `npm run build`):
// the second run's agent is given the first run's conversation from ./mastra.sqlite.
import { Agent } from '@mastra/core/agent';
import { createMockModel } from '@mastra/core/test-utils/llm-mock';
import { Memory } from '@mastra/memory';
import { createMastraStorage } from '@session-checkpoint/mastra';
import { mastraThreadState, mastraThreadTimeline } from '@session-checkpoint/mastra/rows';
import { openSqliteStore } from '@session-checkpoint/store-kysely';

const store = await openSqliteStore('./mastra.sqlite');
let seen;
const model = createMockModel({ version: 'v2', mockText: 'Noted.', spyGenerate: (call) => (seen = call.prompt) });
const agent = new Agent({ id: 'assistant', name: 'assistant', instructions: 'Be brief.', model, memory: new Memory({ storage: createMastraStorage(store) }) });
await agent.generate(`Message sent at ${new Date().toISOString()}`, { memory: { thread: 'thread-1', resource: 'user-1' } });
console.log(`the model was given ${seen.filter((m) => m.role !== 'system').length} messages`);
const { entries } = await mastraThreadTimeline(store, { threadId: 'thread-1' });
const first = await mastraThreadState(store, { threadId: 'thread-1', step: Number(entries.at(-1).checkpoint_id) });
console.log(`${entries.length} versions of the thread's memory; the first held ${first.messages.length} messages`);
await store.close();
