// A library user whose PostgreSQL connection is terminated by the server (pg_terminate_backend):
//   transaction  inside store.transaction, between two creates (the connection is idle, checked out)
//   lock         while a create waits for a table lock the parent holds
// It prints `ready` when the parent may terminate it; in `transaction` mode it carries on after
// SIGUSR2. The outcome is one JSON line on stdout: what the store call threw (or that it did not).
import { openPostgresStore } from '@session-checkpoint/store-kysely';

const [mode, schema, application] = process.argv.slice(2);
const url = new URL(process.env.SC_PG_URL);
url.searchParams.set('application_name', application);
const store = await openPostgresStore(url.href, { schema, poolSize: 1 });
// A signal listener keeps nothing alive: once the server has closed the connection, this process
// would have no handle left and exit (code 13, an unsettled top-level await) before the parent's
// SIGUSR2. A user's process (a server, a worker) lives on, so this one waits like one.
const resumed = new Promise((resolve) => process.once('SIGUSR2', resolve));
const waiting = (promise) => {
  const alive = setInterval(() => undefined, 60_000);
  return promise.finally(() => clearInterval(alive));
};
let outcome;
try {
  if (mode === 'transaction') {
    await store.transaction(async (tx) => {
      await tx.create({ namespace: 'app', sessionId: 's', payload: { step: 1 } });
      process.stdout.write('ready\n');
      await waiting(resumed);
      await tx.create({ namespace: 'app', sessionId: 's', payload: { step: 2 } });
    });
  } else {
    process.stdout.write('ready\n');
    await store.create({ namespace: 'app', sessionId: 's', payload: { step: 1 } });
  }
  outcome = { rejected: false };
} catch (error) {
  outcome = { rejected: true, name: error?.name, code: error?.code, severity: error?.severity, message: error?.message };
}
await store.close().catch(() => undefined);
process.stdout.write(`${JSON.stringify(outcome)}\n`);
