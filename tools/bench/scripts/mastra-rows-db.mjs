// What the two SQLite row-cost scripts (mastra-save-sqlite-rows.mjs, mastra-save-row-formats.mjs)
// share: a fresh store file with the v1 schema and indexes, opened raw by better-sqlite3 in WAL at
// synchronous=NORMAL (the store's durability "normal"), and the turn's messages they write.
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openSqliteStore } from '@session-checkpoint/store-kysely';

const require = createRequire(import.meta.url);
const Database = require('better-sqlite3');

/** A store file made by openSqliteStore, opened raw: `{ db, path, remove }`. */
export async function openRowsDb(prefix) {
  const dir = mkdtempSync(join(tmpdir(), `${prefix}-`));
  const path = join(dir, 'rows.sqlite');
  (await openSqliteStore(path, { durability: 'normal' })).close();
  const db = new Database(path);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  return { db, path, remove: () => { db.close(); rmSync(dir, { recursive: true, force: true }); } };
}

export const sha = (t) => createHash('sha256').update(t).digest('hex');
export const pad = (n) => String(n).padStart(16, '0');
const text = (i, w) => `${w} ${i}: `.padEnd(560, 'lorem ipsum dolor sit amet ');
/** Message `i` of the bench's thread `w` (about 600 bytes), as a Mastra save stores it. */
export const msg = (i, role) => ({ id: `w-${i}`, threadId: 'w', resourceId: 'user-1', role, type: 'v2', createdAt: new Date(Date.UTC(2026, 0, 1) + i * 1000).toISOString(), content: { format: 2, parts: [{ type: 'text', text: text(i, role) }] } });
