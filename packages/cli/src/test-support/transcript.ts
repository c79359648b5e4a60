import { createHash } from 'node:crypto';
import type { TranscriptFile } from '@session-checkpoint/fixtures';

/* The transcript and its types come from `@session-checkpoint/fixtures`; this file rebuilds its large inputs. */

function bundle(items: { id: number; payload: string }[]): Buffer {
  const checkpoints = items.map(({ id, payload }) => {
    const sha = createHash('sha256').update(payload).digest('hex');
    return `    {\n      "id": ${id},\n      "namespace": "bulk",\n      "session_id": "bulk",\n      "kind": "manual",\n      "name": "n${id}",\n      "payload": ${payload
      .replace(/^\{/, '{\n        ')
      .replace(/\}$/, '\n      }')
      .replace(':', ': ')},\n      "payload_sha256": "${sha}",\n      "created_at": "2026-08-08T00:00:00Z",\n      "source_ref": null\n    }`;
  });
  return Buffer.from(
    `{\n  "schema": "ellmos.session-checkpoint-export.v1",\n  "store_schema_version": 1,\n  "exported_at": "2026-11-29T08:07:44Z",\n  "namespace": "bulk",\n  "checkpoints": [\n${checkpoints.join(',\n')}\n  ]\n}\n`,
  );
}

function range(n: number): number[] {
  return Array.from({ length: n }, (_, i) => i + 1);
}

/**
 * Rebuilds the files the transcript only describes (> 64 KiB). `exact` recipes reproduce the
 * reference's bytes (their sha256 is asserted); the bundle recipes reproduce what the recipe
 * text states (item count, payloads) but not the generator's unrecorded field values, so their
 * bytes differ and only their meaning is relied upon.
 */
export const RECIPES: Readonly<Record<string, { exact: boolean; build: () => Buffer }>> = {
  'big_canonical.json': { exact: true, build: () => Buffer.from(`{"s":"${'x'.repeat(1048569)}"}`) },
  'exact_canonical.json': { exact: true, build: () => Buffer.from(`{"s":"${'x'.repeat(1048568)}"}`) },
  'huge_file.json': { exact: true, build: () => Buffer.from(`${' '.repeat(8388607)}{}`) },
  'max_file.json': { exact: true, build: () => Buffer.from(`${' '.repeat(8388606)}{}`) },
  'huge_import.json': { exact: true, build: () => Buffer.from(`${' '.repeat(33554431)}{}`) },
  'many.json': { exact: false, build: () => bundle(range(1001).map((id) => ({ id, payload: `{"n":${id}}` }))) },
  'many1000.json': { exact: false, build: () => bundle(range(1000).map((id) => ({ id, payload: `{"n":${id}}` }))) },
  'aggregate.json': { exact: false, build: () => bundle(range(17).map((id) => ({ id, payload: `{"s":"${'y'.repeat(1_000_000)}"}` }))) },
};

/** The bytes of an input file, from its inline content, hex or recipe. */
export function fileBytes(file: TranscriptFile): { bytes: Buffer; exact: boolean } {
  if (file.content !== null) return { bytes: Buffer.from(file.content, 'utf8'), exact: true };
  if (file.content_hex !== undefined) return { bytes: Buffer.from(file.content_hex, 'hex'), exact: true };
  const recipe = RECIPES[file.path];
  if (!recipe) throw new Error(`no recipe for ${file.path}: ${file.recipe ?? ''}`);
  return { bytes: recipe.build(), exact: recipe.exact };
}
