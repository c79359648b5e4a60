// Save as tour.mjs and run `node tour.mjs` (in this repository: `npm run build`, then
// `node examples/library-tour.mjs`). It writes ./checkpoints.sqlite and prints each step.
import { Checkpointer } from '@session-checkpoint/core';
import { openSqliteStore } from '@session-checkpoint/store-kysely';

const store = await openSqliteStore('./checkpoints.sqlite');          // WAL, durability "full"
const cp = await store.create({ namespace: 'agent', sessionId: 's-1', payload: { step: 1 } });
console.log('created', cp.id, cp.payloadJson, cp.payloadSha256);
const back = await store.get(cp.id, { namespace: 'agent' });           // verified, or it throws
console.log('read back', back.payloadJson);
const page = await store.list({ namespace: 'agent', sessionId: 's-1', limit: 20 }); // newest first
console.log('listed', page.map((c) => c.id));

// The thread API for agent loops: retention (maxHistory, default 50) in the same transaction as each put.
const threads = new Checkpointer(store, { namespace: 'agent', maxHistory: 50 });
await threads.put('thread-1', { messages: ['hi'] });
console.log('thread state', JSON.stringify(await threads.get('thread-1'))); // newest state, or undefined
console.log('thread history', (await threads.history('thread-1', 20)).length); // newest first
await store.close();
