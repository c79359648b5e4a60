/**
 * Atomic, owner-only file replacement: readers see the old file or the complete new one, never a
 * torn write, and the data is on disk before the rename makes it visible. Only a regular file is
 * ever replaced: what stands at the target is checked again just before the new file takes its
 * place, so a device, FIFO, directory or symlink swapped in meanwhile is not clobbered.
 */
import { randomBytes } from 'node:crypto';
import { link, lstat, open, rename, rm, type FileHandle } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { CheckpointValidationError, StoreSecurityError } from '@session-checkpoint/core';
import { fileKind, namingPath } from './file-kind.js';
import { makeParents } from './make-parents.js';
import type { FileIdentity } from './store-path-guard.js';

const PRIVATE_MODE = 0o600;
const POSIX = process.platform !== 'win32';

/** Writes a chunk to the temporary file. */
export type ChunkWriter = (chunk: string) => Promise<void>;

/** Options of {@link writeFileAtomic}. */
export interface WriteFileAtomicOptions {
  /**
   * What the target must still be when the new file takes its place: the regular file seen
   * earlier (same device and inode), or `null` for "nothing" (the file is then published with
   * `link`, which never replaces anything). Default: anything but a regular file is refused.
   */
  expected?: FileIdentity | null;
}

/** Refuses to publish over anything but the expected regular file. */
async function assertReplaceable(target: string, expected: FileIdentity | null | undefined): Promise<void> {
  let current;
  try {
    current = await lstat(target);
  } catch (error) {
    if ((error as { code?: unknown }).code === 'ENOENT') {
      if (expected) throw new CheckpointValidationError(`Output file ${target} disappeared while it was being written; nothing was replaced`);
      return;
    }
    throw namingPath(error, target, { replace: true });
  }
  if (!current.isFile()) throw new CheckpointValidationError(`Output ${target} is a ${fileKind(current)}, not a regular file; refusing to replace it`);
  if (expected === null) throw new CheckpointValidationError(`Output file ${target} was created by someone else while it was being written; nothing was replaced`);
  if (expected !== undefined && (expected.dev !== current.dev || expected.ino !== current.ino)) {
    throw new CheckpointValidationError(`Output file ${target} was changed by someone else while it was being written; nothing was replaced`);
  }
}

/** Moves the finished temporary file to `target`: `link` when nothing may be there, else `rename`. */
async function publish(temporary: string, target: string, expected: FileIdentity | null | undefined): Promise<void> {
  await assertReplaceable(target, expected);
  if (expected === null) {
    try {
      await link(temporary, target);
      await rm(temporary, { force: true });
      return;
    } catch (error) {
      const code = (error as { code?: unknown }).code;
      if (code === 'EEXIST') throw new CheckpointValidationError(`Output file ${target} was created by someone else while it was being written; nothing was replaced`);
      // File systems without hard links (EPERM, ENOTSUP...): the check above is all we can do.
      await assertReplaceable(target, expected);
    }
  }
  await rename(temporary, target).catch((error: unknown) => {
    throw namingPath(error, target, { replace: true });
  });
}

/**
 * Creates or replaces `target` atomically: a temporary `.{name}.{random}.tmp` (mode 0600, created
 * exclusively) in the same directory receives the content, is fsynced, takes the target's place,
 * and the directory is fsynced so that survives a crash. The target ends with mode 0600 whatever
 * the umask. Missing parent directories are created. The temporary file is removed on any
 * failure, including one thrown by `produce`. Only a regular file is ever replaced (see
 * {@link WriteFileAtomicOptions.expected}); a symlink at the target is refused, not followed.
 *
 * @param produce Writes the content through the given writer; may be async and long.
 * @throws CheckpointValidationError when the target is not (or no longer) what may be replaced.
 * @throws StoreSecurityError when the file stays group- or world-accessible (POSIX).
 * @example
 * ```ts
 * await writeFileAtomic('/tmp/out.json', async (write) => { await write('{}\n'); });
 * ```
 */
export async function writeFileAtomic(
  target: string,
  produce: (write: ChunkWriter) => Promise<void>,
  options: WriteFileAtomicOptions = {},
): Promise<void> {
  const directory = dirname(target);
  await makeParents(directory).catch((error: unknown) => {
    throw namingPath(error, target, { replace: true });
  });
  // Fail before producing anything when the target can never be replaced.
  await assertReplaceable(target, options.expected === null ? undefined : options.expected);
  const temporary = join(directory, `.${basename(target)}.${randomBytes(6).toString('hex')}.tmp`);
  let handle: FileHandle | undefined = await open(temporary, 'wx', PRIVATE_MODE).catch((error: unknown) => {
    throw namingPath(error, target, { replace: true });
  });
  let published = false;
  try {
    // The umask can only clear bits, but a permissive creation mode elsewhere must not leak.
    if (POSIX) await handle.chmod(PRIVATE_MODE);
    const file = handle;
    await produce(async (chunk) => {
      await file.write(chunk, null, 'utf8');
    });
    await handle.sync();
    await handle.close();
    handle = undefined;
    await publish(temporary, target, options.expected);
    published = true;
    if (POSIX) {
      // The mode was set on the open handle; a chmod by path here could follow a symlink swapped in
      // after the rename and change some other file's mode, so the path is only looked at.
      const mode = (await lstat(target)).mode & 0o777;
      if ((mode & 0o077) !== 0) throw new StoreSecurityError(`Export file ${target} is still accessible by others (mode ${mode.toString(8)})`);
      await syncDirectory(directory);
    }
  } finally {
    await handle?.close().catch(() => undefined);
    if (!published) await rm(temporary, { force: true }).catch(() => undefined);
  }
}

/** fsync of a directory makes a rename in it durable; some file systems refuse it, which is harmless. */
async function syncDirectory(directory: string): Promise<void> {
  let dir: FileHandle | undefined;
  try {
    dir = await open(directory, 'r');
    await dir.sync();
  } catch {
    // EISDIR/EINVAL/EPERM on exotic file systems: the data itself was already synced.
  } finally {
    await dir?.close().catch(() => undefined);
  }
}
