/**
 * The import cases of the Python CLI transcript, replayed through importBundle on every backend:
 * same results, same messages (except the documented decision on `store_schema_version: true`).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { CheckpointConflictError, CheckpointValidationError } from '@session-checkpoint/core';
import { transcriptInput, transcriptOutput } from '../test-support/fixtures.js';
import { describeBackends, openTestStore, type TestStore } from '../test-support/stores.js';
import { importBundle } from './import-bundle.js';

function toCli(result: { dryRun: boolean; inserted: number[]; unchanged: number[] }) {
  return { dry_run: result.dryRun, inserted: result.inserted, unchanged: result.unchanged };
}

async function expectError(promise: Promise<unknown>, type: new (...args: never[]) => Error, message: string) {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(type);
  expect((error as Error).message).toBe(message);
}

describeBackends('transcript import cases', (backend) => {
  let opened: TestStore[] = [];
  afterEach(async () => {
    for (const s of opened) await s.cleanup();
    opened = [];
  });
  const open = async () => {
    const s = await openTestStore(backend);
    opened.push(s);
    return s.store;
  };

  it('dry run, apply, idempotent re-apply, partial overlap, conflicts', async () => {
    const t = await open();
    const appA = transcriptInput('import_dry_run');
    const run = async (name: string, text: string, apply: boolean) => {
      expect(toCli(await importBundle(t, text, { apply })), name).toEqual(transcriptOutput(name).result);
    };
    await run('import_dry_run', appA, false);
    await run('import_apply', appA, true);
    await run('import_apply_again_idempotent', appA, true);
    await run('import_dry_run_after_apply', appA, false);
    await run('import_all_partial_overlap', transcriptInput('import_all_partial_overlap'), true);
    const imported = await t.get(3, { namespace: 'app-b' });
    expect(imported.name).toBe('checkpoint_20260808T080000Z');
    for (const [name, apply] of [['import_conflicting_id', false], ['import_conflicting_id_apply', true], ['import_conflicting_source_ref', true]] as const) {
      await expectError(importBundle(t, transcriptInput(name), { apply }), CheckpointConflictError, transcriptOutput(name).error as string);
    }
    // The next id follows the highest imported id, as in the reference.
    const created = await t.create({ namespace: 'app-a', sessionId: 'sess-010', payload: { after_delete: true }, createdAt: '2026-08-10T00:00:00Z', name: 'post-import' });
    expect(created.id).toBe(7);
  });

  it('rejects malformed bundles with the reference messages', async () => {
    const u = await open();
    const cases: Array<[string, new (...args: never[]) => Error]> = [
      ['import_duplicate_ids', CheckpointConflictError],
      ['import_duplicate_source_refs', CheckpointConflictError],
      ['import_hash_mismatch', CheckpointValidationError],
      ['import_hash_uppercase_rejected', CheckpointValidationError],
      ['import_wrong_schema', CheckpointValidationError],
      ['import_extra_item_field', CheckpointValidationError],
      ['import_float_id', CheckpointValidationError],
      ['import_non_object_file', CheckpointValidationError],
    ];
    for (const [name, type] of cases) {
      await expectError(importBundle(u, transcriptInput(name)), type, transcriptOutput(name).error as string);
    }
    // Deliberate difference (DESIGN.md): Python accepts `true` because True == 1.
    await expectError(importBundle(u, transcriptInput('import_store_schema_version_true_accepted')), CheckpointValidationError, 'Unsupported checkpoint store schema version');
  });

  it('null name gets the default name; empty bundle is a no-op', async () => {
    const u = await open();
    expect(toCli(await importBundle(u, transcriptInput('import_null_name_gets_default'), { apply: true }))).toEqual(
      transcriptOutput('import_null_name_gets_default').result,
    );
    const got = transcriptOutput('get_null_name_import').result as { name: string };
    expect((await u.get(77, { namespace: 'app-a' })).name).toBe(got.name);
    // Idempotent even though the name was defaulted.
    expect((await importBundle(u, transcriptInput('import_null_name_gets_default'), { apply: true })).unchanged).toEqual([77]);
    expect(toCli(await importBundle(u, transcriptInput('import_empty_bundle'), { apply: true }))).toEqual(transcriptOutput('import_empty_bundle').result);
  });
});
