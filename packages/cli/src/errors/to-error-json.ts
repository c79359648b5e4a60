import { isCheckpointError } from '@session-checkpoint/core';
import { cleanOclifMessage } from './clean-oclif-message.js';
import { isSystemError, osErrorMessage } from './os-error-message.js';
import { isUsageError } from './usage-error.js';

/*
 * The one place that decides how any failure looks to a CLI user. Every path that can fail
 * (commands, plugin commands, oclif's parser, the bin script) ends here, so a new error class
 * needs one new branch here and nowhere else.
 */

/** The error object printed on stdout. */
export interface ErrorJson {
  ok: false;
  /** Human-readable message, never a stack trace. */
  error: string;
  /** Error class name: a core error name, `UsageError`, `OSError`, `DatabaseError`, `CommandError` or `InternalError`. */
  type: string;
}

/** What to print for a failure and how to exit. */
export interface ErrorOutput {
  /** The JSON to print, or `null` when the command asked to exit quietly (`this.exit(n)`). */
  json: ErrorJson | null;
  /** Process exit code: 2 for usage errors, 1 for every other failure. */
  exitCode: number;
}

function output(type: string, error: string, exitCode = 1): ErrorOutput {
  return { json: { ok: false, error, type }, exitCode };
}

/** oclif's own errors carry `oclif.exit`; its parse errors use exit code 2. */
function oclifExit(error: unknown): number | undefined {
  const meta = (error as { oclif?: { exit?: unknown } } | null)?.oclif;
  return typeof meta?.exit === 'number' ? meta.exit : undefined;
}

function messageOf(error: unknown): string {
  if (error instanceof Error) {
    const message = error.message || error.name;
    return error.name && error.name !== 'Error' && !message.startsWith(error.name) ? `${error.name}: ${message}` : message;
  }
  return String(error);
}

/**
 * Maps any thrown value to the CLI's JSON error and exit code.
 *
 * @example
 * ```ts
 * toErrorOutput(new CheckpointNotFoundError("Checkpoint 9 not found in namespace 'app'"));
 * // { json: { ok: false, error: "Checkpoint 9 not found ...", type: 'CheckpointNotFoundError' }, exitCode: 1 }
 * ```
 */
export function toErrorOutput(error: unknown): ErrorOutput {
  if (isUsageError(error)) return output('UsageError', cleanOclifMessage(error.message), 2);
  if (isCheckpointError(error)) return output(error.name, error.message);
  const exit = oclifExit(error);
  if (exit !== undefined) {
    if ((error as { code?: unknown }).code === 'EEXIT') return { json: null, exitCode: exit };
    const message = cleanOclifMessage(error instanceof Error ? error.message : String(error));
    return exit === 2 ? output('UsageError', message, 2) : output('CommandError', message, exit);
  }
  if (isSystemError(error)) return output('OSError', osErrorMessage(error));
  if (error instanceof AggregateError && error.errors.length > 0) return toErrorOutput(error.errors[0]);
  if (isDriverError(error)) return output('DatabaseError', (error as Error).message);
  return output('InternalError', messageOf(error));
}

/** better-sqlite3 (`SqliteError`, code `SQLITE_*`) and pg (`severity` + SQLSTATE) errors that reach the CLI unwrapped. */
function isDriverError(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const { code, severity } = error as { code?: unknown; severity?: unknown };
  return (typeof code === 'string' && code.startsWith('SQLITE_')) || typeof severity === 'string';
}
