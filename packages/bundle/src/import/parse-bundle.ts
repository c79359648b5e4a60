/**
 * Structural checks of an import bundle, in the reference's order and with its messages
 * (PYTHON_REFERENCE.md section 8), on a lossless reading of the text. Nothing here touches a store.
 */
import {
  CheckpointConflictError,
  CheckpointValidationError,
  type CheckpointLimits,
} from '@session-checkpoint/core';
import { parseJsonTree, SEALED_BUNDLE_FORMAT } from '@session-checkpoint/core/toolkit';
import { EXPORT_SCHEMA, SEAL_SECTION_KEY, type SealSection } from '../bundle-format.js';
import type { ProgressListener } from '../progress.js';
import { importCandidate, type ImportCandidate } from './import-candidate.js';
import { lastWins } from './last-wins.js';

/** Caps that apply to a bundle. */
export type BundleLimits = Pick<
  CheckpointLimits,
  'maxImportFileBytes' | 'maxImportCheckpoints' | 'maxImportPayloadBytes' | 'maxPayloadBytes' | 'maxDepth'
>;

/** A bundle that passed every structural check; give it to {@link importBundle}. */
export interface ParsedBundle {
  /** Every item, validated and prepared, in bundle order. */
  checkpoints: ImportCandidate[];
  /** Sum of the canonical payload bytes. */
  payloadBytes: number;
  /** The bundle's top-level `namespace` (informational; the reference ignores it). */
  namespace: string | null;
  /** A sealed bundle's seal section (the heads of its sessions); absent in a plain bundle. */
  seal?: SealSection;
}

/** Options of {@link parseBundle}. */
export interface ParseBundleOptions {
  /** Called after each item with phase `validate`. Default is none. */
  onProgress?: ProgressListener;
}

/** Object > checkpoints array > item: how deep a payload's own top level sits. */
const WRAPPER_DEPTH = 3;

/**
 * Checks an import bundle and prepares every item, without touching a store. Order of checks:
 * input size, JSON syntax (Python's messages), top level is an object, `schema`,
 * `store_schema_version` (exactly the integer 1), `checkpoints` is an array, item count (before
 * any item is looked at), each item in order (see {@link importCandidate}) with the running
 * aggregate payload size, then duplicate ids, then duplicate namespace/source_ref pairs.
 * Unknown top-level keys, `exported_at` and `namespace` are ignored, as in the reference.
 *
 * @throws CheckpointValidationError for malformed input or a cap exceeded.
 * @throws CheckpointConflictError for duplicate ids or namespace/source_ref pairs within the bundle.
 * @example
 * ```ts
 * const parsed = parseBundle(await readBundleFile('export.json', store.limits), store.limits);
 * parsed.checkpoints.length;
 * ```
 */
export function parseBundle(text: string, limits: BundleLimits, options: ParseBundleOptions = {}): ParsedBundle {
  if (typeof text !== 'string') throw new CheckpointValidationError('input must be JSON text');
  if (Buffer.byteLength(text, 'utf8') > limits.maxImportFileBytes) {
    throw new CheckpointValidationError(`input exceeds the ${limits.maxImportFileBytes}-byte input limit`);
  }
  const tree = parseJsonTree(text, {
    maxDepth: limits.maxDepth + WRAPPER_DEPTH,
    // Only a payload can legitimately be this deep, and the payload rule is what the user broke.
    depthMessage: `payload nesting exceeds the maximum depth of ${limits.maxDepth}`,
    // Payload members are not needed as nodes: payloads are re-read from their source span.
    keepDepth: WRAPPER_DEPTH,
  });
  if (tree.kind !== 'object') throw new CheckpointValidationError('input must contain a JSON object');
  const top = lastWins(tree.entries);
  const schema = top.get('schema');
  if (schema?.kind !== 'string' || schema.value !== EXPORT_SCHEMA) {
    throw new CheckpointValidationError('Unsupported checkpoint export schema');
  }
  // Python compares with ==, so `true` and `1.0` pass there; we take only the integer 1 (DESIGN.md).
  const version = top.get('store_schema_version');
  if (version?.kind !== 'number' || version.lexeme !== '1') {
    throw new CheckpointValidationError('Unsupported checkpoint store schema version');
  }
  const items = top.get('checkpoints');
  if (items?.kind !== 'array') throw new CheckpointValidationError('Import bundle checkpoints must be an array');
  if (items.items.length > limits.maxImportCheckpoints) {
    throw new CheckpointValidationError(`Import bundle contains more than ${limits.maxImportCheckpoints} checkpoints`);
  }
  const checkpoints: ImportCandidate[] = [];
  let payloadBytes = 0;
  for (const item of items.items) {
    const candidate = importCandidate(item, text, limits);
    payloadBytes += candidate.payloadBytes;
    if (payloadBytes > limits.maxImportPayloadBytes) {
      throw new CheckpointValidationError(`Import bundle aggregate payload exceeds the ${limits.maxImportPayloadBytes}-byte carrier limit`);
    }
    checkpoints.push(candidate);
    options.onProgress?.({ phase: 'validate', done: checkpoints.length, total: items.items.length });
  }
  assertNoDuplicates(checkpoints);
  const namespace = top.get('namespace');
  const seal = sealSection(top.get(SEAL_SECTION_KEY));
  return { checkpoints, payloadBytes, namespace: namespace?.kind === 'string' ? namespace.value : null, ...(seal === undefined ? {} : { seal }) };
}

/** The seal section of a sealed bundle, checked for shape (its heads are checked on import). */
function sealSection(node: ReturnType<typeof lastWins> extends Map<string, infer N> ? N | undefined : never): SealSection | undefined {
  if (node === undefined) return undefined;
  const fields = node.kind === 'object' ? lastWins(node.entries) : undefined;
  const format = fields?.get('format');
  const heads = fields?.get('heads');
  if (format?.kind !== 'string' || format.value !== SEALED_BUNDLE_FORMAT || heads?.kind !== 'array' || !heads.items.every((h) => h.kind === 'string')) {
    throw new CheckpointValidationError(`Import bundle ${SEAL_SECTION_KEY} must be {"format": "${SEALED_BUNDLE_FORMAT}", "heads": [text, ...]}`);
  }
  return { format: format.value, heads: heads.items.map((h) => (h as { value: string }).value) };
}

function assertNoDuplicates(checkpoints: readonly ImportCandidate[]): void {
  const ids = new Set<number>();
  const duplicateIds = new Set<number>();
  for (const c of checkpoints) (ids.has(c.id) ? duplicateIds : ids).add(c.id);
  if (duplicateIds.size > 0) {
    throw new CheckpointConflictError('Import bundle contains duplicate checkpoint ids', { ids: [...duplicateIds] });
  }
  // Keyed by both parts; namespaces are tokens without spaces, so the separator cannot collide.
  const refs = new Map<string, number>();
  for (const c of checkpoints) {
    if (c.sourceRef === null) continue;
    const key = `${c.namespace} ${c.sourceRef}`;
    const other = refs.get(key);
    if (other !== undefined) {
      throw new CheckpointConflictError('Import bundle contains duplicate namespace/source_ref pairs', { ids: [other, c.id] });
    }
    refs.set(key, c.id);
  }
}

