import { formatPythonJson } from '@session-checkpoint/core/internal';

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

/** The success envelope: `{"ok": true, "result": ...}`. */
export function successJson(result: unknown): { ok: true; result: unknown } {
  return { ok: true, result };
}
