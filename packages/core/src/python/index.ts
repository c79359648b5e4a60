/**
 * Python compatibility in one place. Every rule here exists because the Python reference
 * (session-checkpoint 0.1.1) does it that way and our bytes must match its bytes:
 *
 * - {@link formatPythonFloat} / {@link formatJsNumber}: Python's float `repr` (`1.0`, `1e-07`,
 *   `1e+16`, `-0.0`), used by the canonical writer (`float-repr.ts`);
 * - {@link pythonRepr} / {@link pythonListRepr}: Python's `repr()` of strings and lists of strings,
 *   embedded in messages (`repr.ts`);
 * - {@link formatPythonJson}: `json.dumps(..., ensure_ascii=False, indent=N)` layout, for bundles and
 *   CLI output (`json-layout.ts`; also exported with the lossless reader it pairs with);
 * - {@link checkpointRecord}: the snake_case record of `Checkpoint.as_dict()`, shared by bundle
 *   export and CLI output (`as-dict-record.ts`).
 *
 * Two presentation quirks stay in the CLI, next to what they present: argparse's `int()` flag
 * grammar (`cli/src/command/python-int.ts`) and `str(OSError)` messages with errno and path
 * (`cli/src/errors/os-error-message.ts`, which quotes paths with {@link pythonRepr}).
 * The parser's "Expecting ..." messages are CPython's and live with the one JSON tokenizer
 * (`canonical/json-reader.ts`). docs/compatibility.md lists every deliberate difference.
 *
 * `pythonRepr`, `pythonListRepr`, `formatPythonJson` and `checkpointRecord` are public through
 * `@session-checkpoint/core/toolkit`; the float forms are reached only through the canonical writer.
 */
export { formatJsNumber, formatPythonFloat } from './float-repr.js';
export { pythonListRepr, pythonRepr } from './repr.js';
export { checkpointRecord, type CheckpointRecord } from './as-dict-record.js';
