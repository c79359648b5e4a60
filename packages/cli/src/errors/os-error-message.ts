import { constants } from 'node:os';
import { pythonRepr as quote } from '@session-checkpoint/core/internal';

/**
 * Python prints a failed system call as `[Errno 2] No such file or directory: 'missing.json'`;
 * the CLI does the same so scripts written against the reference keep matching.
 */

/** strerror(3) texts for the codes a CLI user can realistically cause. */
const STRERROR: Readonly<Record<string, string>> = {
  E2BIG: 'Argument list too long',
  EACCES: 'Permission denied',
  EADDRNOTAVAIL: 'Cannot assign requested address',
  ECONNREFUSED: 'Connection refused',
  ECONNRESET: 'Connection reset by peer',
  EBUSY: 'Device or resource busy',
  EDQUOT: 'Disk quota exceeded',
  EEXIST: 'File exists',
  EFBIG: 'File too large',
  EHOSTUNREACH: 'No route to host',
  EINVAL: 'Invalid argument',
  EIO: 'Input/output error',
  EISDIR: 'Is a directory',
  ELOOP: 'Too many levels of symbolic links',
  EMFILE: 'Too many open files',
  EMLINK: 'Too many links',
  ENAMETOOLONG: 'File name too long',
  ENETUNREACH: 'Network is unreachable',
  ENFILE: 'Too many open files in system',
  ENOENT: 'No such file or directory',
  ENOSPC: 'No space left on device',
  ENOTDIR: 'Not a directory',
  ENOTEMPTY: 'Directory not empty',
  ENXIO: 'No such device or address',
  EPERM: 'Operation not permitted',
  EROFS: 'Read-only file system',
  ETIMEDOUT: 'Connection timed out',
  ETXTBSY: 'Text file busy',
  EXDEV: 'Invalid cross-device link',
};

/** The fields of a Node.js system error that the message uses. */
export interface SystemErrorLike {
  code: string;
  message: string;
  path?: unknown;
  dest?: unknown;
  address?: unknown;
  port?: unknown;
  hostname?: unknown;
}

/**
 * True for an error raised by a failed system call (it carries a string `code` such as `ENOENT`
 * and a `syscall`), or a DNS lookup failure.
 */
export function isSystemError(value: unknown): value is SystemErrorLike {
  if (!(value instanceof Error)) return false;
  const { code, syscall } = value as { code?: unknown; syscall?: unknown };
  return typeof code === 'string' && /^E[A-Z0-9_]+$/.test(code) && (typeof syscall === 'string' || code === 'ENOTFOUND');
}


/**
 * Formats a system error like Python's `str(OSError)`: with the path when the error has one
 * (`'a' -> 'b'` for two-path calls such as rename), so a user always sees which file failed.
 *
 * @example
 * ```ts
 * osErrorMessage({ code: 'ENOENT', message: '...', path: 'missing.json' });
 * // "[Errno 2] No such file or directory: 'missing.json'"
 * ```
 */
export function osErrorMessage(error: SystemErrorLike): string {
  const errno = (constants.errno as Record<string, number | undefined>)[error.code];
  const text = STRERROR[error.code];
  if (errno === undefined || text === undefined) return error.message;
  if (typeof error.path === 'string') {
    const dest = typeof error.dest === 'string' ? ` -> ${quote(error.dest)}` : '';
    return `[Errno ${errno}] ${text}: ${quote(error.path)}${dest}`;
  }
  if (typeof error.address === 'string') {
    const port = typeof error.port === 'number' ? `:${error.port}` : '';
    return `[Errno ${errno}] ${text} (${error.address}${port})`;
  }
  return `[Errno ${errno}] ${text}`;
}
