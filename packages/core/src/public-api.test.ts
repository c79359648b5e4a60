import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

/**
 * Every name `@session-checkpoint/core` exports from its main entry, values and types, sorted. Each is a
 * semver promise: widening (or narrowing) the API means editing this list on purpose.
 */
const PUBLIC_NAMES = [
  'AdapterCapabilities', 'CanonicalPayload', 'CanonicalizeOptions', 'Checkpoint', 'CheckpointAdapter',
  'CheckpointAdapterBase', 'CheckpointConflictError', 'CheckpointError', 'CheckpointErrorCode',
  'CheckpointErrorOptions', 'CheckpointIntegrityError', 'CheckpointLimits', 'CheckpointNotFoundError',
  'CheckpointRow', 'CheckpointStore', 'CheckpointStoreOptions', 'CheckpointValidationError', 'Checkpointer',
  'CheckpointerOptions', 'CreateCheckpointInput', 'CreateOptions', 'DEFAULT_LIMITS', 'DeleteOptions',
  'DeleteResult', 'InsertOptions', 'InsertResult', 'IntegrityFailure', 'JsonObject', 'JsonValue',
  'ListOptions', 'ListRowsQuery', 'MemoryAdapter', 'NamespaceOption', 'NewCheckpointRow', 'PayloadLimits',
  'PreparedCheckpoint', 'PruneOptions', 'PruneQuery', 'PruneResult', 'ScanOptions', 'ScanRowsQuery',
  'SessionSummary', 'SessionSummaryRow', 'StoreNotFoundError', 'StoreSchemaError', 'StoreSecurityError',
  'ThreadEntry', 'VerifyOptions', 'VerifyReport', 'canonicalPayloadFromJson', 'canonicalPayloadFromValue',
  'canonicalize', 'canonicalizeJson', 'checkStoredPayload', 'isCheckpointConflictError', 'isCheckpointError',
  'isCheckpointIntegrityError', 'isCheckpointNotFoundError', 'isCheckpointValidationError',
  'isStoreNotFoundError', 'isStoreSchemaError', 'isStoreSecurityError', 'sha256Hex', 'utf8ByteLength',
];

/** The names a TypeScript consumer sees on the entry, as the compiler resolves them. */
function exportedNames(entry: string): string[] {
  const program = ts.createProgram([entry], { module: ts.ModuleKind.NodeNext, moduleResolution: ts.ModuleResolutionKind.NodeNext, noEmit: true, types: [] });
  const checker = program.getTypeChecker();
  const module = checker.getSymbolAtLocation(program.getSourceFile(entry)!)!;
  return checker.getExportsOfModule(module).map((symbol) => symbol.name).sort();
}

describe('the public API of @session-checkpoint/core', () => {
  it('exports exactly the pinned names', () => {
    expect(exportedNames(fileURLToPath(new URL('./index.ts', import.meta.url)))).toEqual(PUBLIC_NAMES);
  }, 60_000);

  it('exports at run time exactly the pinned names that are values', async () => {
    const runtime = Object.keys(await import('./index.js')).sort();
    expect(PUBLIC_NAMES.filter((name) => runtime.includes(name))).toEqual(runtime);
  });
});
