// Drops a PostgreSQL schema a bench contender made (its tables with it), on a pool of its own.
// Shared by the Mastra bench scripts (mastra-storage.mjs, mastra-page-profile.mjs).
import pg from 'pg';

/** Drops `schema` and everything in it, if it exists, on the server at `url`. */
export async function dropSchema(url, schema) {
  const pool = new pg.Pool({ connectionString: url, max: 1 });
  try {
    await pool.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  } finally {
    await pool.end();
  }
}
