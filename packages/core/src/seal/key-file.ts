/**
 * Key files: a keyring as a small JSON file, owner-only.
 *
 * ```json
 * {
 *   "format": "session-checkpoint.keys.v1",
 *   "active": "k-20261206-3fa9c1",
 *   "keys": [{ "id": "k-20261206-3fa9c1", "secret": "<32 bytes, base64>" }]
 * }
 * ```
 *
 * A key file is refused when its group or others have any permission bit (it is read as the
 * secrets of every row), with an error that names the path and the mode, never the content. New
 * files are created with mode 0600 whatever the umask, and never overwrite an existing file.
 * Windows has no POSIX modes: there the check is skipped (rely on the folder's ACLs).
 */
import { CheckpointValidationError, StoreSecurityError } from '../errors.js';
import { Keyring, SECRET_BYTES, checkKeyId, secretsOf } from './keyring.js';
import { nodeBuffer, nodeFs } from './node-builtins.js';

/** The `format` value of every key file. */
export const KEY_FILE_FORMAT = 'session-checkpoint.keys.v1';

/** Largest key file read: many keys fit in a few kilobytes. */
const MAX_KEY_FILE_BYTES = 65_536;

const isWindows = () => (globalThis as { process?: { platform?: string } }).process?.platform === 'win32';

/** Reads the whole of an open file, at most `cap + 1` bytes. */
function readAll(fd: number, cap: number): Uint8Array {
  const fs = nodeFs();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const chunk = new Uint8Array(Math.min(16_384, cap + 1 - total));
    const read = fs.readSync(fd, chunk, 0, chunk.length, null);
    if (read === 0) break;
    chunks.push(chunk.subarray(0, read));
    total += read;
    if (total > cap) break;
  }
  return nodeBuffer().concat(chunks);
}

/** A keyring from the text of a key file; `path` is only named in errors. */
export function parseKeyFile(text: string, path: string): Keyring {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    // The engine's message may quote the text around the error, which holds secrets.
    throw new CheckpointValidationError(`Key file ${path} is not valid JSON`);
  }
  const file = parsed as { format?: unknown; active?: unknown; keys?: unknown };
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed) || file.format !== KEY_FILE_FORMAT) {
    throw new CheckpointValidationError(`Key file ${path} is not a session-checkpoint key file (format must be "${KEY_FILE_FORMAT}")`);
  }
  if (!Array.isArray(file.keys) || file.keys.length === 0) throw new CheckpointValidationError(`Key file ${path} holds no keys`);
  const keys = file.keys.map((entry: unknown, index: number) => {
    const key = entry as { id?: unknown; secret?: unknown };
    if (typeof entry !== 'object' || entry === null) throw new CheckpointValidationError(`Key file ${path}: key ${index + 1} is not an object`);
    const id = checkKeyId(key.id, `Key file ${path}: the id of key ${index + 1}`);
    const secret = typeof key.secret === 'string' && /^[A-Za-z0-9+/]+={0,2}$/.test(key.secret) ? nodeBuffer().from(key.secret, 'base64') : undefined;
    if (secret === undefined || secret.length !== SECRET_BYTES || nodeBuffer().from(secret).toString('base64') !== key.secret) {
      throw new CheckpointValidationError(`Key file ${path}: key '${id}' must have a secret of ${SECRET_BYTES} bytes in base64`);
    }
    return { id, secret: new Uint8Array(secret) };
  });
  if (file.active !== undefined && typeof file.active !== 'string') throw new CheckpointValidationError(`Key file ${path}: active must be a key id`);
  try {
    return new Keyring(keys, file.active as string | undefined);
  } catch (error) {
    throw new CheckpointValidationError(`Key file ${path}: ${(error as Error).message}`);
  }
}

/**
 * Reads a key file into a {@link Keyring}.
 *
 * @throws StoreSecurityError when the file grants group or others any permission (POSIX), naming
 *   the path and its mode: `chmod 600` it.
 * @throws CheckpointValidationError for a file that is not a key file (never quoting it).
 * @example
 * ```ts
 * const keys = await loadKeyFile('/run/secrets/checkpoints.keys');
 * const store = await openSqliteStore('agent.db', { keys });
 * ```
 */
export async function loadKeyFile(path: string): Promise<Keyring> {
  if (typeof path !== 'string' || path === '') throw new CheckpointValidationError('key file path must be a non-empty string');
  const fs = nodeFs();
  const fd = fs.openSync(path, fs.constants.O_RDONLY);
  try {
    const stat = fs.fstatSync(fd);
    if (!stat.isFile()) throw new CheckpointValidationError(`Key file ${path} is not a regular file`);
    if (!isWindows() && (stat.mode & 0o077) !== 0) {
      const mode = (stat.mode & 0o777).toString(8).padStart(4, '0');
      throw new StoreSecurityError(`Key file ${path} is accessible to group or others (mode ${mode}): make it owner-only (chmod 600 ${path})`);
    }
    const bytes = readAll(fd, MAX_KEY_FILE_BYTES);
    if (bytes.length > MAX_KEY_FILE_BYTES) throw new CheckpointValidationError(`Key file ${path} is larger than ${MAX_KEY_FILE_BYTES} bytes`);
    return parseKeyFile(nodeBuffer().from(bytes).toString('utf8'), path);
  } finally {
    fs.closeSync(fd);
  }
}

/** The text of a key file holding `keys`. */
export function keyFileText(keys: Keyring): string {
  const secrets = secretsOf(keys);
  const entries = [...secrets].map(([id, secret]) => ({ id, secret: nodeBuffer().from(secret).toString('base64') }));
  return `${JSON.stringify({ format: KEY_FILE_FORMAT, active: keys.activeId, keys: entries }, null, 2)}\n`;
}

/**
 * Writes `keys` to a new key file with mode 0600 (whatever the umask), flushed to disk. Never
 * overwrites: an existing path fails with the file system's `EEXIST` error, and a failed write
 * leaves no file behind.
 *
 * @example
 * ```ts
 * await writeKeyFile('rotated.keys', oldKeys.with(Keyring.generate()));
 * ```
 */
export async function writeKeyFile(path: string, keys: Keyring): Promise<void> {
  const text = keyFileText(keys);
  const fs = nodeFs();
  const { O_WRONLY, O_CREAT, O_EXCL } = fs.constants;
  const fd = fs.openSync(path, O_WRONLY | O_CREAT | O_EXCL, 0o600);
  let written = false;
  try {
    if (!isWindows()) fs.fchmodSync(fd, 0o600);
    const bytes = nodeBuffer().from(text, 'utf8');
    for (let at = 0; at < bytes.length; ) at += fs.writeSync(fd, bytes.subarray(at));
    fs.fsyncSync(fd);
    written = true;
  } finally {
    fs.closeSync(fd);
    if (!written) fs.unlinkSync(path);
  }
}

/**
 * Generates a new random key and writes it to a new key file (mode 0600): what
 * `session-checkpoint keys new --output PATH` does. Returns the keyring it wrote (its id is
 * `keys.activeId`).
 *
 * @param options.id the key's id. Default is `k-<UTC date>-<6 random hex digits>`.
 * @example
 * ```ts
 * const keys = await generateKeyFile('checkpoints.keys');
 * keys.activeId; // 'k-20261206-3fa9c1'
 * ```
 */
export async function generateKeyFile(path: string, options: { id?: string } = {}): Promise<Keyring> {
  const keys = Keyring.generate(options.id);
  await writeKeyFile(path, keys);
  return keys;
}
