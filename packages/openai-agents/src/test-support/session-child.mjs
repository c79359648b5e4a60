// A child process that drives a CheckpointSession (the built package) on one session:
//   node session-child.mjs <sqlite:path | postgres:schema> <session> add <worker> <turns | forever>
//   node session-child.mjs <target> <session> addlarge <worker> <turns>
//   node session-child.mjs <target> <session> pop
//   node session-child.mjs <target> <session> read
//   node session-child.mjs <target> <session> tx <operationId> <text>
// "add" appends turns of three items (user, assistant, padding) and prints "added <n>" after each
// ("addlarge" the same with 1.3 MiB of padding, an item stored over part rows);
// "pop" pops until the session is empty and prints each item as one JSON line; "read" prints the
// whole history as one JSON line; "tx" replaces the suffix [user "base"] by [user <text>] under
// <operationId> and prints "applied" or "refused <message>".
import { CheckpointSession } from '../../dist/index.js';
import { openPostgresStore, openSqliteStore } from '@session-checkpoint/store-kysely';

const [target, sessionId, mode, worker, count] = process.argv.slice(2);
// A long busy timeout: several children contend for one file on a loaded machine, and the verdict
// must not depend on how long a writer waits for the lock (the default is 5 s).
const store = target.startsWith('sqlite:')
  ? await openSqliteStore(target.slice('sqlite:'.length), { busyTimeoutMs: 300_000 })
  : await openPostgresStore(process.env.SC_PG_URL, { schema: target.slice('postgres:'.length), poolSize: 1 });
const session = new CheckpointSession(store, { sessionId });
if (mode === 'add' || mode === 'addlarge') {
  const padding = (mode === 'add' ? 'p' : worker).repeat(mode === 'add' ? 20_000 : 1_300_000);
  const limit = count === 'forever' ? Infinity : Number(count);
  for (let i = 0; i < limit; i++) {
    await session.addItems([
      { role: 'user', content: `${worker}:${i}:q` },
      { type: 'message', role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: `${worker}:${i}:a` }] },
      { type: 'unknown', providerData: { worker, i, padding } },
    ]);
    process.stdout.write(`added ${i + 1}\n`);
  }
} else if (mode === 'pop') {
  for (let item = await session.popItem(); item !== undefined; item = await session.popItem()) {
    process.stdout.write(`${JSON.stringify(item)}\n`);
  }
} else if (mode === 'tx') {
  const transaction = { type: 'replace_suffix', expectedSuffix: [{ role: 'user', content: 'base' }], replacement: [{ role: 'user', content: count }] };
  try {
    await session.applyHistoryTransaction({ operationId: worker, transaction });
    process.stdout.write('applied\n');
  } catch (error) {
    process.stdout.write(`refused ${error.message}\n`);
  }
} else {
  process.stdout.write(`${JSON.stringify(await session.getItems())}\n`);
}
await store.close();
