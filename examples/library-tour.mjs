// Save as tour.mjs and run `node tour.mjs` (in this repository: `npm run build`, then
// `node examples/library-tour.mjs`). It writes ./checkpoints.sqlite and prints each step.
import { Checkpointer } from '@session-checkpoint/core';
import { openSqliteStore } from '@session-checkpoint/store-kysely';

const store = await openSqliteStore('./checkpoints.sqlite');          // WAL, durability "full"
const cp = await store.create({ namespace: 'agent', sessionId: 's-1', payload: { step: 1 } });
console.log(`created checkpoint ${cp.id}: ${cp.payloadJson} (sha256 ${cp.payloadSha256})`);
const back = await store.get(cp.id, { namespace: 'agent' });           // verified, or it throws
console.log(`read back, verified: ${back.payloadJson}`);
const page = await store.list({ namespace: 'agent', sessionId: 's-1', limit: 20 }); // newest first
console.log(`listed ids: ${page.map((c) => c.id).join(', ')}`);

// The thread API for agent loops: retention (maxHistory, default 50) in the same transaction as each put.
const threads = new Checkpointer(store, { namespace: 'agent', maxHistory: 50 });
await threads.put('thread-1', { messages: ['hi'] });
console.log(`thread-1 state: ${JSON.stringify(await threads.get('thread-1'))}`); // newest, or undefined
console.log(`thread-1 history: ${(await threads.history('thread-1', 20)).length} entries`); // newest first
await store.close();
