import { DEFAULT_LIMITS } from '@session-checkpoint/core';
import { prepareCheckpoint } from '@session-checkpoint/core/internal';
import { readPayloadFile } from '../input/payload-file.js';
import { checkpointJson, planJson } from '../output/records.js';
import type { CommandContext } from './command-context.js';

/** Flags of `create`. */
export interface CreateFlags {
  /** RFC 3339 timestamp; now when absent. */
  'created-at'?: string | undefined;
  /** Validate and plan only; the store is never opened. */
  'dry-run': boolean;
  /** Kind token. */
  kind: string;
  /** Human name; derived from created_at when absent. */
  name?: string | undefined;
  /** Namespace of the new checkpoint. */
  namespace?: string | undefined;
  /** File holding the JSON object payload; `-` reads standard input. */
  'payload-file': string;
  /** Session the checkpoint belongs to. */
  'session-id': string;
  /** Caller reference, unique within the namespace. */
  'source-ref'?: string | undefined;
}

/**
 * `create`: stores one checkpoint from a JSON object file (or standard input), or with
 * `dry-run` returns `{ dry_run: true, plan }` without opening the store.
 *
 * @example
 * ```ts
 * await createCheckpoint(context); // { id: 10, ..., payload: {...} }
 * ```
 */
export async function createCheckpoint({ flags, storeSelection, openStore }: CommandContext<CreateFlags>): Promise<unknown> {
  // Resolve the store selection first: a missing --store is a usage error even for a dry run.
  storeSelection();
  const payloadJson = await readPayloadFile(flags['payload-file'], DEFAULT_LIMITS);
  const prepared = prepareCheckpoint(
    {
      namespace: flags.namespace,
      sessionId: flags['session-id'],
      payloadJson,
      kind: flags.kind,
      name: flags.name ?? null,
      createdAt: flags['created-at'] ?? null,
      sourceRef: flags['source-ref'] ?? null,
    },
    DEFAULT_LIMITS,
  );
  if (flags['dry-run']) return { dry_run: true, plan: planJson(prepared) };
  const store = await openStore({ create: true });
  return checkpointJson(await store.insertPrepared(prepared));
}
