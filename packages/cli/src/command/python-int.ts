import { UsageError } from '../errors/usage-error.js';

/** Python `int()` syntax: optional sign, ASCII digits, single underscores between digits. */
const PYTHON_INT = /^[+-]?\d+(?:_\d+)*$/;

/**
 * Parses an integer option the way the reference's argparse `type=int` does, so `0_1`, `+5`
 * and ` 7 ` are accepted and `1e3` or `abc` are usage errors. The value is returned as a
 * JavaScript number even when it is too large to be exact: range checks belong to core, which
 * reports them as validation errors (`checkpoint_id must not exceed 9007199254740991`).
 *
 * @param flag The flag as typed, for the message, e.g. `--id`.
 * @throws UsageError `argument --id: invalid int value: 'abc'`.
 * @example
 * ```ts
 * parsePythonInt('0_1', '--id'); // 1
 * ```
 */
export function parsePythonInt(input: string, flag: string): number {
  const text = input.trim();
  if (!PYTHON_INT.test(text)) {
    throw new UsageError(`argument ${flag}: invalid int value: '${input}'`);
  }
  const value = Number(text.replace(/_/g, ''));
  // -0 is 0 to every consumer; keep it from leaking into messages or SQL.
  return value === 0 ? 0 : value;
}
