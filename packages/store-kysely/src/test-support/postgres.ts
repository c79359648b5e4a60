import { randomBytes } from 'node:crypto';
import type { CheckpointRow } from '@session-checkpoint/core';
import pg from 'pg';
import { tamperAssignments } from './sqlite-tamper.js';

/** The test server, from `SC_PG_URL`. Unset: PostgreSQL tests are skipped, visibly. */
export const PG_URL = process.env.SC_PG_URL;

if (!PG_URL) console.warn('SC_PG_URL is not set: PostgreSQL tests are SKIPPED (set SC_PG_URL=postgres://... to run them)');

/** A schema name unique to this process and call, so concurrent runs never share tables. */
export function uniqueSchema(label = 'sc_test'): string {
  return `${label}_${process.pid}_${randomBytes(4).toString('hex')}`;
}

/** A pool on the test server. */
export function testPool(max = 4): pg.Pool {
  const pool = new pg.Pool({ connectionString: PG_URL, max });
  // Tests that terminate backends end only their own (by application name); an idle test
  // connection dropped for another reason is replaced by pg, and must not crash the run.
  pool.on('error', () => undefined);
  return pool;
}

/** Drops a test schema and everything in it. */
export async function dropSchema(pool: pg.Pool, schema: string): Promise<void> {
  await pool.query(`DROP SCHEMA IF EXISTS ${ident(schema)} CASCADE`);
}

/**
 * Overwrites columns of row `id` with raw values. A TEXT column cannot hold bytes, so bytes are
 * written as the bytea text form (`\x7b22...`), which is what reading a binary value as text gives.
 */
export async function tamperPostgres(
  pool: pg.Pool,
  schema: string,
  id: number,
  patch: Partial<Record<keyof CheckpointRow, unknown>>,
): Promise<void> {
  const { columns, values } = tamperAssignments(patch, (bytes) => `\\x${Buffer.from(bytes).toString('hex')}`);
  if (columns.length === 0) return;
  const set = columns.map((c, i) => `${c} = $${i + 1}`).join(', ');
  const result = await pool.query(`UPDATE ${ident(schema)}.checkpoints SET ${set} WHERE id = $${columns.length + 1}`, [...values, id]);
  if (result.rowCount !== 1) throw new Error(`no row ${id} to tamper with`);
}

/** A quoted identifier. */
export function ident(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}
