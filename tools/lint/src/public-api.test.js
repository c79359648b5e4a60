import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

/**
 * Every name each package exports from its main entry (`packages/<dir>/src/index.ts`) and its public
 * subpaths (`langgraph/rows`: `packages/langgraph/src/rows/index.ts`; `core/toolkit`:
 * `packages/core/src/toolkit.ts`), values and types, sorted. Each is a semver promise: widening (or
 * narrowing) an API means editing this list on purpose. An `./internal` subpath is not pinned: only
 * a package that pins its owner to an exact version may import it (tools/pack-test checks that).
 * (The test target lists every package's `src` among its Nx inputs, so an edit there re-runs it.)
 */
const PUBLIC_NAMES = {
  'core': [
    'AdapterCapabilities', 'CanonicalPayload', 'CanonicalizeOptions', 'Checkpoint', 'CheckpointAdapter',
    'CheckpointAdapterBase', 'CheckpointConflictError', 'CheckpointError', 'CheckpointErrorCode',
    'CheckpointErrorOptions', 'CheckpointIntegrityError', 'CheckpointLimits', 'CheckpointNotFoundError',
    'CheckpointRow', 'CheckpointStore', 'CheckpointStoreOptions', 'CheckpointValidationError', 'Checkpointer',
    'CheckpointerOptions', 'CreateCheckpointInput', 'CreateOptions', 'DEFAULT_LIMITS', 'DeleteOptions',
    'DeleteResult', 'InsertOptions', 'InsertPrecondition', 'InsertResult', 'IntegrityFailure', 'JsonObject', 'JsonValue',
    'ListOptions', 'ListRowsQuery', 'MAX_CHECKPOINT_ID', 'MemoryAdapter', 'NamespaceOption', 'NewCheckpointRow', 'PayloadLimits',
    'PreparedCheckpoint', 'PruneOptions', 'PruneQuery', 'PruneResult', 'ScanOptions', 'ScanRowsQuery',
    'SessionSummary', 'SessionSummaryRow', 'SourceRefPositionQuery', 'SourceRefPrefixQuery', 'SourceRefRangeQuery', 'StoreNotFoundError', 'StoreSchemaError', 'StoreSecurityError',
    'ThreadEntry', 'VerifyOptions', 'VerifyReport', 'canonicalPayloadFromJson', 'canonicalPayloadFromValue',
    'canonicalize', 'canonicalizeJson', 'checkStoredPayload', 'idLimitError', 'isCheckpointConflictError', 'isCheckpointError',
    'isCheckpointIntegrityError', 'isCheckpointNotFoundError', 'isCheckpointValidationError',
    'isStoreNotFoundError', 'isStoreSchemaError', 'isStoreSecurityError', 'sha256Hex', 'utf8ByteLength',
    // Sealed and encrypted stores (issue 36).
    'DeleteIdsOptions', 'KEY_FILE_FORMAT', 'Keyring', 'META_NAMESPACE', 'MetaChange', 'MetaEntry', 'MetaSwap',
    'RekeyOptions', 'RekeyReport', 'SealProblem', 'SealReport', 'SealedImportOptions', 'generateKeyFile',
    'loadKeyFile', 'writeKeyFile',
    // Store upkeep: stats, idle expiry, pins, compaction (issue 37).
    'ExpireIdleOptions', 'ExpireIdleResult', 'ExpiredSession', 'NamespaceStats', 'PinnedSession', 'ScheduledExpiry',
    'ScheduledExpiryOptions', 'SessionStats', 'SessionStatsQuery', 'SessionStatsRow', 'StorageReport', 'StoreStats',
    'scheduleIdleExpiry',
  ],
  'core/toolkit': [
    'CheckpointRecord', 'JsonNode', 'RowError', 'SEALED_BUNDLE_FORMAT', 'StoreTaker', 'TwoGenerationCache', 'batchClashError', 'checkedByRef',
    'checkedRange', 'checkpointRecord', 'compareCodePoints', 'compareNewestFirst', 'decodeCursor', 'encodeCursor', 'firstBatchClash',
    'formatPythonJson', 'isIdLimitError', 'isIntegerLexeme', 'looksSealed', 'nonNegativeInteger', 'nowTimestamp',
    'parseJsonTree', 'positiveInteger', 'prepareCheckpoint', 'pythonListRepr', 'pythonRepr', 'rawRange', 'rowError',
    'runInTransaction', 'selectPrunable', 'sourceRefBounds', 'storeArgument', 'utf8Length', 'validateId', 'validateToken',
  ],
  'bundle': [
    'BundleLimits', 'BundlePhase', 'BundleProgress', 'CHECKPOINT_FIELDS', 'CheckpointField', 'EXPORT_SCHEMA',
    'ExportBundle', 'ExportOptions', 'ExportedCheckpoint', 'ImportCandidate', 'ImportOptions', 'ImportPlan',
    'ImportResult', 'ParseBundleOptions', 'ParsedBundle', 'ProgressListener', 'STORE_SCHEMA_VERSION',
    'WriteBundleFileOptions', 'WriteBundleFileResult', 'exportBundle', 'importBundle', 'parseBundle',
    'planImport', 'readBundleFile', 'serializeBundle', 'writeBundleFile', 'SEAL_SECTION_KEY', 'SealSection',
  ],
  'conformance': [
    'CONFORMANCE_GROUPS', 'CaseContext', 'DEFAULT_CASE_TIMEOUT_MS', 'TamperPatch', 'ConformanceCase', 'ConformanceFactory', 'ConformanceFailure',
    'ConformanceGroup', 'ConformanceOptions', 'ConformanceRequirement', 'ConformanceSubject',
    'ConformanceTestApi', 'ConformanceTestFunction', 'ensure', 'ensureEqual', 'rejectsWith',
    'runConformanceGroup', 'runConformanceSuite',
  ],
  'store-kysely': [
    'AdapterConnection', 'CheckpointDatabase', 'CheckpointMetaTable', 'CheckpointsTable',
    'CreateSqliteAdapterOptions', 'DEFAULT_BUSY_TIMEOUT_MS', 'DEFAULT_CONNECT_TIMEOUT_MS', 'KyselyAdapter', 'KyselyAdapterOptions',
    'KyselyConnection', 'KyselyConnectionOptions', 'LATEST_SCHEMA_VERSION', 'MIGRATIONS', 'MigrateOptions',
    'MigrationContext', 'MigrationReport', 'NAMESPACE_INDEX', 'PostgresAdapterOptions', 'PostgresConnection',
    'PostgresConnectionError', 'PostgresTarget', 'checkSchemaName',
    'DEFAULT_ACQUIRE_TIMEOUT_MS', 'DEFAULT_POOL_SIZE', 'PostgresPoolTimeoutError', 'isRetryablePostgresError',
    'PostgresStoreOptions', 'QueryRunner', 'SCHEMA_VERSION', 'SESSION_INDEX', 'SQLITE_MEMORY', 'STORE_COLUMNS',
    'STORE_TABLES', 'SchemaMigration', 'SqlFlavor', 'SqliteAdapterOptions', 'SqliteDatabaseLike',
    'SqliteDurability', 'SqliteStatementLike', 'SqliteStoreOptions', 'createSqliteAdapter', 'migrateToLatest',
    'openPostgresAdapter', 'openPostgresStore', 'openSqliteAdapter', 'openSqliteStore',
  ],
  'cli': [
    'Args', 'BaseCommand', 'CommandArgs', 'CommandFlags', 'DATABASE_URL_ENV', 'ErrorJson', 'ErrorOutput',
    'Flags', 'OpenStoreOptions', 'ProgressEvent', 'ReadInputOptions', 'STORE_ENV', 'StoreFlagValues', 'StoreSelection',
    'UsageError', 'applyFlag', 'checkpointJson', 'describeStore', 'integerFlag', 'isUsageError', 'main',
    'namespaceFlag', 'openStore', 'parsePythonInt', 'planJson', 'readInputText', 'readPayloadFile',
    'requireJsonObjectText', 'run', 'selectStore', 'sessionJson', 'stderrProgress', 'storeFlags',
    'successJson', 'toErrorOutput', 'writeJson',
  ],
  'langgraph': [
    'CHECKPOINT_KIND', 'CheckpointPayload', 'ListPiece', 'MigrationDifference', 'MigrationOptions', 'MigrationProgress',
    'MigrationReport', 'MissingPackageError', 'OpenOfficialSaverOptions', 'OpenedSaver', 'PART_KIND', 'PartPayload',
    'PartRef', 'PruneReport', 'SaverPruneOptions', 'SessionCheckpointSaver', 'SessionCheckpointSaverOptions',
    'StoredValue', 'StoredWrite', 'VerificationReport', 'VerifyMigrationOptions', 'WRITE_KIND', 'WritePayload',
    'migrateCheckpoints', 'openOfficialSaver', 'verifyMigration',
    'ThreadExpiryOptions', 'expireIdleThreads', 'pinThread', 'scheduleThreadExpiry', 'unpinThread',
  ],
  'openai-agents': [
    'CheckpointSession', 'CheckpointSessionOptions', 'DEFAULT_NAMESPACE', 'ITEM_KIND', 'ItemPayload', 'OPERATION_KIND',
    'OperationPayload',
    'PART_KIND',
    'PartPayload',
    'SessionExpiryOptions', 'expireIdleSessions', 'scheduleSessionExpiry',
  ],
  'ai-sdk': [
    'AI_SDK_NAMESPACE', 'ChatInfo', 'ChatSave', 'ChatStore', 'ChatStoreOptions', 'ChatValidation', 'PART_KIND',
    'PartPayload', 'SAVE_KIND', 'SaveResult', 'SavePayload', 'createChatStore',
  ],
  'ai-sdk/rows': [
    'AI_SDK_NAMESPACE', 'ChatRowsPlace', 'ChatState', 'ChatStateOptions', 'ChatSummary', 'ChatTimelineEntry',
    'ChatTimelineOptions', 'PART_KIND', 'PartPayload', 'RowError', 'SAVE_KIND', 'SavePayload', 'TimelinePage',
    'aiSdkChats', 'chatState', 'chatTimeline',
  ],
  'mastra': [
    'CheckpointMemoryStorage', 'CheckpointMemoryStorageOptions', 'CheckpointWorkflowsStorage',
    'CheckpointWorkflowsStorageOptions', 'KINDS', 'MASTRA_NAMESPACE', 'MastraDomains', 'MastraMigrationDifference',
    'MastraMigrationOptions', 'MastraMigrationReport', 'MastraStorageOptions', 'MissingPackageError', 'OpenedMastraStore',
    'createMastraStorage', 'migrateMastra', 'openMastraStore',
  ],
  'mastra/rows': [
    'ChangePayload', 'KINDS', 'MASTRA_NAMESPACE', 'MastraChangeEntry', 'MastraObservationalMemorySummary',
    'MastraObservationalMemoryVersion', 'MastraRowsPlace', 'MastraRunState', 'MastraRunSummary', 'MastraSnapshotEntry',
    'MastraThreadState', 'MastraThreadSummary', 'OM_KINDS', 'StoredChunk', 'StoredMessage', 'StoredObservationalMemory',
    'StoredRun', 'StoredThread', 'mastraObservationalMemory', 'mastraObservationalMemoryVersion', 'mastraRunState',
    'mastraRunTimeline', 'mastraRunWorkflows', 'mastraRuns', 'mastraThreadState', 'mastraThreadTimeline', 'mastraThreads',
  ],
  'langgraph/rows': [
    'CheckpointSelector', 'LANGGRAPH_NAMESPACE', 'LanggraphState', 'LanggraphThreadSummary', 'LanggraphTimelineEntry',
    'LanggraphTimelineOptions', 'LanggraphWrite', 'OfficialSource', 'PendingWriteTuple', 'RowError', 'RowsPlace', 'TimelinePage',
    'langgraphChannelValues', 'langgraphState', 'langgraphThreads', 'langgraphTimeline', 'langgraphWrites',
  ],
  'langgraph/official': [
    'DecodedValue', 'OUR_ROW_OVERHEAD', 'OfficialCheckpoint', 'OfficialConnection', 'OfficialKind', 'OfficialRow', 'OfficialSelector',
    'OfficialStore', 'OfficialStoreStats', 'OfficialThreadStats', 'OfficialTimelineOptions', 'OfficialWrite', 'OpenOfficialStoreOptions',
    'UndecodableValueError', 'ValuePlace', 'decodeStored', 'decodeStoredValue', 'jsonFormOf', 'officialChannelValues', 'officialCheckpoint',
    'officialState', 'officialStoreOver', 'officialStoreStats', 'officialThreads', 'officialTimeline', 'officialWrites', 'openOfficialStore',
    'sourceOf',
  ],
  'openai-agents/rows': [
    'AGENTS_NAMESPACE', 'RowError', 'SessionRowsPlace', 'SessionState', 'SessionStateOptions', 'SessionSummary',
    'SessionTimelineEntry', 'SessionTimelineOptions', 'TimelinePage', 'agentSessions', 'sessionState', 'sessionTimeline',
  ],
};

/** `core` is packages/core/src/index.ts; a subpath such as `langgraph/rows`, packages/langgraph/src/rows/index.ts. */
const entryOf = (key) => {
  const [dir, ...sub] = key.split('/');
  const folder = fileURLToPath(new URL(`../../../packages/${dir}/src/${[...sub, 'index.ts'].join('/')}`, import.meta.url));
  // A subpath may also be one file, src/<sub>.ts (core/toolkit).
  return sub.length > 0 && !existsSync(folder) ? fileURLToPath(new URL(`../../../packages/${dir}/src/${sub.join('/')}.ts`, import.meta.url)) : folder;
};

/** One program over every entry; names need no standard library, so none is loaded. */
let program;

/** The names a TypeScript consumer sees on an entry, as the compiler resolves them. */
function exportedNames(entry) {
  program ??= ts.createProgram(Object.keys(PUBLIC_NAMES).map(entryOf), {
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    noEmit: true,
    noLib: true,
    types: [],
  });
  const checker = program.getTypeChecker();
  return checker.getExportsOfModule(checker.getSymbolAtLocation(program.getSourceFile(entry))).map((symbol) => symbol.name).sort();
}

describe('the public API of each package', () => {
  for (const [dir, names] of Object.entries(PUBLIC_NAMES)) {
    it(`@session-checkpoint/${dir} exports exactly the pinned names`, () => {
      expect(exportedNames(entryOf(dir))).toEqual([...names].sort());
    }, 120_000);
  }
});
