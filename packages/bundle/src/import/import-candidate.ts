/**
 * One bundle item turned into a checkpoint ready to insert with its original id, checked in the
 * reference's order (PYTHON_REFERENCE.md section 8): object, exact key set, the create rules
 * (`prepareCheckpoint`), payload hash, id. Two deliberate differences (DESIGN.md): `created_at: null`
 * is refused instead of becoming "now" (re-import would not be idempotent), and ids must be safe
 * integers (they travel as JavaScript numbers).
 */
import { CheckpointValidationError, type CheckpointLimits, type PreparedCheckpoint } from '@session-checkpoint/core';
import { isIntegerLexeme, prepareCheckpoint, validateId, type JsonNode } from '@session-checkpoint/core/toolkit';
import { CHECKPOINT_FIELDS } from '../bundle-format.js';
import { lastWins } from './last-wins.js';

/** A validated bundle item: a prepared checkpoint plus the id it must keep. */
export interface ImportCandidate extends PreparedCheckpoint {
  /** The id from the bundle, kept on insert. */
  id: number;
}

/** Python's `sorted(required)` repr, as the reference prints it. */
const FIELDS_MESSAGE = `Imported checkpoint fields must be exactly [${[...CHECKPOINT_FIELDS]
  .sort()
  .map((f) => `'${f}'`)
  .join(', ')}]`;

/**
 * Stands for any JSON value that is not a string where the create rules expect text. The rules
 * then fail with their usual type message, in their usual order; using `null` instead would let
 * defaults kick in (`namespace ?? 'default'`), which the reference does not do for bundle items.
 */
const NOT_TEXT = Object.freeze({ notText: true }) as unknown as string;

function text(node: JsonNode): string {
  return node.kind === 'string' ? node.value : NOT_TEXT;
}

function textOrNull(node: JsonNode): string | null {
  return node.kind === 'null' ? null : text(node);
}

/** How Python's f-string would print the item's id in the hash-mismatch message. */
function idForMessage(node: JsonNode | undefined, source: string): string {
  if (node === undefined || node.kind === 'null') return 'None';
  if (node.kind === 'true') return 'True';
  if (node.kind === 'false') return 'False';
  if (node.kind === 'string') return node.value;
  if (node.kind === 'number') return isIntegerLexeme(node.lexeme) ? BigInt(node.lexeme).toString() : node.lexeme;
  return source.slice(node.start, node.end);
}

/** The id as a positive safe integer, with the reference's message for anything else. */
function candidateId(node: JsonNode): number {
  if (node.kind !== 'number' || !isIntegerLexeme(node.lexeme) || node.lexeme.startsWith('-') || /^0+$/.test(node.lexeme)) {
    throw new CheckpointValidationError('id must be a positive integer');
  }
  // Digits beyond 2^53 would be rounded by Number(); validateId reports them as too large.
  return validateId(node.lexeme.length > 16 ? Number.MAX_SAFE_INTEGER + 2 : Number(node.lexeme), 'id');
}

/**
 * Validates one bundle item (a node of the lossless tree over `source`) and prepares it.
 *
 * @throws CheckpointValidationError with the reference's message for the first rule broken.
 * @example
 * ```ts
 * const tree = parseJsonTree(itemText);
 * const candidate = importCandidate(tree, itemText, DEFAULT_LIMITS);
 * candidate.id; candidate.payloadJson;
 * ```
 */
export function importCandidate(
  node: JsonNode,
  source: string,
  limits: Pick<CheckpointLimits, 'maxPayloadBytes' | 'maxDepth'>,
): ImportCandidate {
  if (node.kind !== 'object') throw new CheckpointValidationError('Every imported checkpoint must be an object');
  const fields = lastWins(node.entries);
  if (fields.size !== CHECKPOINT_FIELDS.length || !CHECKPOINT_FIELDS.every((f) => fields.has(f))) {
    throw new CheckpointValidationError(FIELDS_MESSAGE);
  }
  const field = (name: (typeof CHECKPOINT_FIELDS)[number]) => fields.get(name) as JsonNode;
  const createdAt = field('created_at');
  // created_at comes first in the create rules, so refusing null here keeps the reference's order.
  if (createdAt.kind === 'null') throw new CheckpointValidationError('created_at must be an ISO-8601 string');
  const payload = field('payload');
  const prepared = prepareCheckpoint(
    {
      namespace: text(field('namespace')),
      sessionId: text(field('session_id')),
      // The payload is handed over as its exact source text: lexemes and duplicate keys reach the
      // canonicaliser untouched, as json.loads would have seen them.
      payloadJson: source.slice(payload.start, payload.end),
      kind: text(field('kind')),
      // null and "" get the default name, as in the reference (deterministic, so still idempotent).
      name: textOrNull(field('name')),
      createdAt: text(createdAt),
      sourceRef: textOrNull(field('source_ref')),
    },
    limits,
  );
  const hash = field('payload_sha256');
  if (hash.kind !== 'string' || hash.value !== prepared.payloadSha256) {
    throw new CheckpointValidationError(`Imported checkpoint ${idForMessage(fields.get('id'), source)} has a payload hash mismatch`);
  }
  return { ...prepared, id: candidateId(field('id')) };
}
