import { formatPythonJson } from '@session-checkpoint/core/internal';
import { toErrorOutput } from '../errors/to-error-json.js';
import { claimDocument } from './one-document.js';

/**
 * Writes one JSON document to stdout in the Python reference's layout
 * (`json.dumps(obj, ensure_ascii=False, indent=2)` plus a newline). Payloads wrapped in
 * `RawJson` keep their stored number lexemes. Writing to `process.stdout` (the default) counts as
 * the run's one document: a later result or error of the same run is not printed.
 *
 * @param stream Default is `process.stdout`.
 * @example
 * ```ts
 * writeJson({ ok: true, result: [] }); // prints '{\n  "ok": true,\n  "result": []\n}\n'
 * ```
 */
export function writeJson(value: unknown, stream: NodeJS.WritableStream = process.stdout): void {
  if (stream === process.stdout) claimDocument();
  stream.write(`${formatPythonJson(value, 2)}\n`);
}

/**
 * Prints `value` as the run's document unless one has been printed already (then nothing).
 * Returns whether it was printed.
 *
 * @example
 * ```ts
 * writeDocument({ ok: true, result: 1 });
 * ```
 */
export function writeDocument(value: unknown): boolean {
  if (!claimDocument()) return false;
  process.stdout.write(`${formatPythonJson(value, 2)}\n`);
  return true;
}

/**
 * Prints the success envelope of `result` as the run's document (nothing when one was printed
 * already, e.g. by a plugin calling {@link writeJson} itself).
 *
 * @example
 * ```ts
 * writeResult({ deleted: [7] }); // {"ok": true, "result": {"deleted": [7]}}
 * ```
 */
export function writeResult(result: unknown): void {
  writeDocument(successJson(result));
}

/**
 * Prints `error` as the CLI's JSON error document (when it has one: `--help` and `--version` exits
 * have none, and nothing is printed when the run has printed its document already) and returns
 * the exit code to use.
 *
 * @example
 * ```ts
 * process.exitCode = writeError(new UsageError('one of --store or --database-url is required')); // 2
 * ```
 */
export function writeError(error: unknown): number {
  const { json, exitCode } = toErrorOutput(error);
  if (json) writeDocument(json);
  return exitCode;
}

/** The success envelope: `{"ok": true, "result": ...}`. */
export function successJson(result: unknown): { ok: true; result: unknown } {
  return { ok: true, result };
}
