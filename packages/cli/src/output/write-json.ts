import { formatPythonJson } from '@session-checkpoint/core/internal';
import { toErrorOutput } from '../errors/to-error-json.js';

/**
 * Writes one JSON document to stdout in the Python reference's layout
 * (`json.dumps(obj, ensure_ascii=False, indent=2)` plus a newline). Payloads wrapped in
 * `RawJson` keep their stored number lexemes.
 *
 * @example
 * ```ts
 * writeJson({ ok: true, result: [] }); // prints '{\n  "ok": true,\n  "result": []\n}\n'
 * ```
 */
export function writeJson(value: unknown, stream: NodeJS.WritableStream = process.stdout): void {
  stream.write(`${formatPythonJson(value, 2)}\n`);
}

/**
 * Prints `error` as the CLI's JSON error document (when it has one: `--help` and `--version` exits
 * have none) and returns the exit code to use.
 *
 * @example
 * ```ts
 * process.exitCode = writeError(new UsageError('one of --store or --database-url is required')); // 2
 * ```
 */
export function writeError(error: unknown): number {
  const { json, exitCode } = toErrorOutput(error);
  if (json) writeJson(json);
  return exitCode;
}

/** The success envelope: `{"ok": true, "result": ...}`. */
export function successJson(result: unknown): { ok: true; result: unknown } {
  return { ok: true, result };
}
