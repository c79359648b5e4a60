import { constants } from 'node:os';

/**
 * Python prints a failed system call as `[Errno 2] No such file or directory: 'missing.json'`;
 * the CLI does the same so scripts written against the reference keep matching.
 */

/** strerror(3) texts for the codes a CLI user can realistically cause. */
const STRERROR: Readonly<Record<string, string>> = {
  EACCES: 'Permission denied',
  EADDRNOTAVAIL: 'Cannot assign requested address',
  ECONNREFUSED: 'Connection refused',
  ECONNRESET: 'Connection reset by peer',
  EEXIST: 'File exists',
  EHOSTUNREACH: 'No route to host',
  EISDIR: 'Is a directory',
  ELOOP: 'Too many levels of symbolic links',
  EMFILE: 'Too many open files',
  ENAMETOOLONG: 'File name too long',
  ENETUNREACH: 'Network is unreachable',
  ENOENT: 'No such file or directory',
  ENOSPC: 'No space left on device',
  ENOTDIR: 'Not a directory',
  EPERM: 'Operation not permitted',
  EROFS: 'Read-only file system',
  ETIMEDOUT: 'Connection timed out',
};

/** The fields of a Node.js system error that the message uses. */
export interface SystemErrorLike {
  code: string;
  message: string;
  path?: unknown;
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

/** Python's `repr()` of a path string, close enough for messages: single quotes, escaped. */
function quote(text: string): string {
  return `'${text.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
}

/**
 * Formats a system error like Python's `str(OSError)`.
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
  if (typeof error.path === 'string') return `[Errno ${errno}] ${text}: ${quote(error.path)}`;
  if (typeof error.address === 'string') {
    const port = typeof error.port === 'number' ? `:${error.port}` : '';
    return `[Errno ${errno}] ${text} (${error.address}${port})`;
  }
  return `[Errno ${errno}] ${text}`;
}
