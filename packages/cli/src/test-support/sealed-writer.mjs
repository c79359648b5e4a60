// A writer beside `rekey` in sealed-cli.test.ts: opens a sealed store (`sqlite:<path>` or
// `pg:<url>|<schema>`) with the keys of a key file, as an agent would, and creates checkpoints
// until killed, printing `create <id>` once each write resolved (committed).
import { loadKeyFile } from '@session-checkpoint/core';
import { openPostgresStore, openSqliteStore } from '@session-checkpoint/store-kysely';

const [spec, keyFile] = process.argv.slice(2);
try {
  const keys = await loadKeyFile(keyFile);
  const store = spec.startsWith('sqlite:')
    ? await openSqliteStore(spec.slice('sqlite:'.length), { keys })
    : await openPostgresStore(spec.slice(3, spec.lastIndexOf('|')), { schema: spec.slice(spec.lastIndexOf('|') + 1), keys });
  process.stdout.write('ready\n');
  for (let i = 0; ; i++) {
    const cp = await store.create({ namespace: 'app', sessionId: i % 2 ? 'writer' : `writer-${i % 5}`, payload: { i, text: 'w'.repeat(i % 200) } });
    process.stdout.write(`create ${cp.id}\n`);
  }
} catch (error) {
  process.stdout.write(`error ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
}
