// Opens the store a child process works on: `sqlite:<path>` or `pg:<schema>` (server from SC_PG_URL).
// Child scripts import the built package, as an application would.
import { openPostgresStore, openSqliteStore } from '@session-checkpoint/store-kysely';

// SC_TEST_BUSY_TIMEOUT_MS: a longer SQLite busy timeout for a test whose processes contend for
// the write lock on a loaded machine (SQLite's busy handler polls, so a steady writer can starve
// a waiting VACUUM past the default 5 s).
export async function openTarget(spec, options = {}) {
  const busy = process.env.SC_TEST_BUSY_TIMEOUT_MS;
  if (spec.startsWith('sqlite:')) return openSqliteStore(spec.slice('sqlite:'.length), busy ? { busyTimeoutMs: Number(busy), ...options } : options);
  if (spec.startsWith('pg:')) return openPostgresStore(process.env.SC_PG_URL, { schema: spec.slice('pg:'.length), poolSize: 2, ...options });
  throw new Error(`unknown target ${spec}`);
}

/** Reports a failure as one JSON line on stderr and exits 1, so the parent can show it. */
export function fail(error) {
  process.stderr.write(`${JSON.stringify({ name: error?.name, code: error?.code, message: error?.message })}\n`);
  process.exit(1);
}
