import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

/**
 * Every name `@session-checkpoint/cli` exports from its main entry, values and types, sorted. Each is a
 * semver promise: widening (or narrowing) the API means editing this list on purpose.
 */
const PUBLIC_NAMES = [
  'BaseCommand', 'CommandArgs', 'CommandFlags', 'DATABASE_URL_ENV', 'ErrorJson', 'ErrorOutput',
  'OpenStoreOptions', 'ProgressEvent', 'ReadInputOptions', 'STORE_ENV', 'StoreFlagValues', 'StoreSelection',
  'UsageError', 'applyFlag', 'checkpointJson', 'describeStore', 'integerFlag', 'isUsageError', 'main',
  'namespaceFlag', 'openStore', 'parsePythonInt', 'planJson', 'readInputText', 'readPayloadFile',
  'requireJsonObjectText', 'run', 'selectStore', 'sessionJson', 'stderrProgress', 'storeFlags',
  'successJson', 'toErrorOutput', 'writeJson',
];

/** The names a TypeScript consumer sees on the entry, as the compiler resolves them. */
function exportedNames(entry: string): string[] {
  const program = ts.createProgram([entry], { module: ts.ModuleKind.NodeNext, moduleResolution: ts.ModuleResolutionKind.NodeNext, noEmit: true, types: [] });
  const checker = program.getTypeChecker();
  const module = checker.getSymbolAtLocation(program.getSourceFile(entry)!)!;
  return checker.getExportsOfModule(module).map((symbol) => symbol.name).sort();
}

describe('the public API of @session-checkpoint/cli', () => {
  it('exports exactly the pinned names', () => {
    expect(exportedNames(fileURLToPath(new URL('./index.ts', import.meta.url)))).toEqual(PUBLIC_NAMES);
  }, 60_000);

  it('exports at run time exactly the pinned names that are values', async () => {
    const runtime = Object.keys(await import('./index.js')).sort();
    expect(PUBLIC_NAMES.filter((name) => runtime.includes(name))).toEqual(runtime);
  });
});
