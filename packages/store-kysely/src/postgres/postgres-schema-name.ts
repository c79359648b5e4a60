import { CheckpointValidationError } from '@session-checkpoint/core';

/** PostgreSQL truncates identifiers beyond this many bytes (NAMEDATALEN - 1). */
const MAX_IDENTIFIER_BYTES = 63;

/**
 * Checks a schema name before it reaches SQL, where it is always quoted (`"name"`), so case and
 * any printable character are kept as given. Refused: the empty name, more than 63 UTF-8 bytes
 * (PostgreSQL would silently truncate it to another name), control characters, and the server's
 * own catalog schemas: `information_schema` and every name starting with `pg_` (`pg_catalog`,
 * `pg_toast`, `pg_temp_N`; PostgreSQL reserves the prefix), which `pg_dump` leaves out, so a
 * store there would silently be missing from every backup.
 *
 * @returns the name, unchanged.
 * @throws CheckpointValidationError naming the rule broken.
 * @example
 * ```ts
 * checkSchemaName('checkpoints'); // 'checkpoints'
 * checkSchemaName('pg_catalog'); // throws
 * checkSchemaName('information_schema'); // throws
 * ```
 */
export function checkSchemaName(name: unknown): string {
  if (typeof name !== 'string' || name.length === 0) throw new CheckpointValidationError('schema must be a non-empty string');
  if (Buffer.byteLength(name, 'utf8') > MAX_IDENTIFIER_BYTES) {
    throw new CheckpointValidationError(`schema must be at most ${MAX_IDENTIFIER_BYTES} bytes in UTF-8 (PostgreSQL would truncate it)`);
  }
  if (/[\u0000-\u001f\u007f]/u.test(name)) throw new CheckpointValidationError('schema must not contain control characters');
  if (/^pg_/iu.test(name)) throw new CheckpointValidationError("schema must not start with 'pg_' (reserved by PostgreSQL for its own catalog schemas)");
  if (name.toLowerCase() === 'information_schema') {
    throw new CheckpointValidationError("schema must not be 'information_schema' (a catalog schema of PostgreSQL, left out by pg_dump)");
  }
  return name;
}
