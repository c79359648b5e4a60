import { isCheckpointValidationError } from '@session-checkpoint/core';
import { describe, expect, it } from 'vitest';
import { checkSchemaName } from './postgres-schema-name.js';

function refusal(name: unknown): unknown {
  try {
    checkSchemaName(name);
  } catch (error) {
    return error;
  }
  return undefined;
}

describe('checkSchemaName', () => {
  it("refuses the server's own catalog schemas, which pg_dump leaves out", () => {
    for (const name of ['information_schema', 'INFORMATION_SCHEMA', 'pg_catalog', 'pg_toast', 'pg_temp', 'pg_temp_3', 'pg_toast_temp_1', 'pg_anything']) {
      const error = refusal(name);
      expect(isCheckpointValidationError(error), name).toBe(true);
      expect(String(error), name).toMatch(/^CheckpointValidationError: schema must not (be|start with) .*PostgreSQL/u);
    }
    expect(String(refusal('information_schema'))).toMatch(/information_schema/u);
  });

  it('keeps ordinary names as given', () => {
    for (const name of ['public', 'checkpoints', 'Mixed Case', 'information_schema2', 'my_pg_schema']) expect(checkSchemaName(name)).toBe(name);
  });
});
