/**
 * Atomic, owner-only file replacement: readers see the old file or the complete new one, never a
 * torn write, and the data is on disk before the rename makes it visible.
 */
import { randomBytes } from 'node:crypto';
import { chmod, mkdir, open, rename, rm, stat, type FileHandle } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { StoreSecurityError } from '@session-checkpoint/core';

const PRIVATE_MODE = 0o600;
const POSIX = process.platform !== 'win32';

/** Writes a chunk to the temporary file. */
export type ChunkWriter = (chunk: string) => Promise<void>;

/**
 * Creates or replaces `target` atomically: a temporary `.{name}.{random}.tmp` (mode 0600, created
 * exclusively) in the same directory receives the content, is fsynced, renamed over the target,
 * and the directory is fsynced so the rename survives a crash. The target ends with mode 0600
 * whatever the umask. Missing parent directories are created. The temporary file is removed on
 * any failure, including one thrown by `produce`.
 *
 * @param produce Writes the content through the given writer; may be async and long.
 * @throws StoreSecurityError when the file stays group- or world-accessible (POSIX).
 * @example
 * ```ts
 * await writeFileAtomic('/tmp/out.json', async (write) => { await write('{}\n'); });
 * ```
 */
export async function writeFileAtomic(target: string, produce: (write: ChunkWriter) => Promise<void>): Promise<void> {
  const directory = dirname(target);
  await mkdir(directory, { recursive: true });
  const temporary = join(directory, `.${basename(target)}.${randomBytes(6).toString('hex')}.tmp`);
  let handle: FileHandle | undefined = await open(temporary, 'wx', PRIVATE_MODE);
  let renamed = false;
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
    await rename(temporary, target);
    renamed = true;
    if (POSIX) {
      await chmod(target, PRIVATE_MODE);
      const mode = (await stat(target)).mode & 0o777;
      if ((mode & 0o077) !== 0) throw new StoreSecurityError(`Export file ${target} is still accessible by others (mode ${mode.toString(8)})`);
      await syncDirectory(directory);
    }
  } finally {
    await handle?.close().catch(() => undefined);
    if (!renamed) await rm(temporary, { force: true }).catch(() => undefined);
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
