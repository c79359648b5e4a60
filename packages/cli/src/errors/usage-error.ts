/**
 * A command line that cannot be run as typed: unknown command or flag, missing or malformed
 * value, no store selected. Printed as `{"ok": false, "error": ..., "type": "UsageError"}` with
 * exit code 2, like an argparse error in the Python reference.
 *
 * @example
 * ```ts
 * throw new UsageError('one of --store or --database-url is required');
 * ```
 */
export class UsageError extends Error {
  /** Always 2: the exit code of a usage error. */
  readonly exitCode = 2;

  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
}

/** True for a {@link UsageError} from any copy of this package (plugins may bundle their own). */
export function isUsageError(value: unknown): value is UsageError {
  return value instanceof Error && value.name === 'UsageError' && (value as { exitCode?: unknown }).exitCode === 2;
}
