import { CheckpointValidationError } from '@session-checkpoint/core';

/*
 * Fields the saver reads from a LangGraph config (or a checkpoint, or an argument). A wrong one is
 * refused at the first call with a message that says where the field goes and how to pass it, the
 * way LangGraph's own savers do (SqliteSaver: `Missing "thread_id" field in passed "config.configurable"`).
 */

/** Where each field the saver reads lives, and an example of passing it. */
const PLACES: Record<string, { name: string; where: string; pass: string }> = {
  thread_id: { name: 'thread_id', where: 'config.configurable', pass: 'pass { configurable: { thread_id: "..." } }' },
  checkpoint_ns: { name: 'checkpoint_ns', where: 'config.configurable', pass: 'pass { configurable: { thread_id: "...", checkpoint_ns: "" } } ("" is the root graph)' },
  checkpoint_id: { name: 'checkpoint_id', where: 'config.configurable', pass: 'pass the config that put returned ({ configurable: { thread_id, checkpoint_ns, checkpoint_id } })' },
  'before.checkpoint_id': { name: 'checkpoint_id', where: 'options.before.configurable', pass: 'pass { before: { configurable: { checkpoint_id: "..." } } }' },
  'checkpoint.id': { name: 'id', where: 'the checkpoint', pass: 'pass a checkpoint made by LangGraph (its id is a uuid6 string, e.g. from uuid6(-1))' },
};

function placeOf(field: string): { name: string; where: string; pass: string } {
  return PLACES[field] ?? { name: field, where: 'config.configurable', pass: `pass { configurable: { ${field}: "..." } }` };
}

/** "a number", "an array", "null": what a wrong value is, for messages. */
function kindOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (value === '') return 'an empty string';
  const type = typeof value;
  return /^[aeiou]/.test(type) ? `an ${type}` : `a ${type}`;
}

/**
 * The non-empty string at `field` (a key of {@link PLACES}, e.g. `'thread_id'`).
 *
 * @throws CheckpointValidationError saying where the field goes, e.g.
 *   `Missing "thread_id" in config.configurable: pass { configurable: { thread_id: "..." } }`.
 * @example
 * ```ts
 * requireText(config.configurable?.thread_id, 'thread_id'); // 't-1'
 * ```
 */
export function requireText(value: unknown, field: string): string {
  if (typeof value === 'string' && value !== '') return value;
  const { name, where, pass } = placeOf(field);
  if (value === undefined || value === null) throw new CheckpointValidationError(`Missing "${name}" in ${where}: ${pass}`);
  throw new CheckpointValidationError(`"${name}" in ${where} must be a non-empty string (got ${kindOf(value)}): ${pass}`);
}

/**
 * The string at `field`, or `undefined` when it is absent (`undefined` or `null`).
 *
 * @throws CheckpointValidationError saying where the field goes when it is there but not a string.
 * @example
 * ```ts
 * optionalText(config.configurable?.checkpoint_ns, 'checkpoint_ns') ?? ''; // ''
 * ```
 */
export function optionalText(value: unknown, field: string): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value === 'string') return value;
  const { name, where, pass } = placeOf(field);
  throw new CheckpointValidationError(`"${name}" in ${where} must be a string (got ${kindOf(value)}): ${pass}`);
}

/**
 * The thread id given to `deleteThread`.
 *
 * @throws CheckpointValidationError when it is not a non-empty string.
 * @example
 * ```ts
 * threadArgument('t-1'); // 't-1'
 * ```
 */
export function threadArgument(value: unknown): string {
  if (typeof value === 'string' && value !== '') return value;
  throw new CheckpointValidationError(`deleteThread needs a thread id: a non-empty string (got ${value === undefined ? 'undefined' : kindOf(value)}), e.g. deleteThread("t-1")`);
}
