/**
 * `mkdir -p` that can be undone and always terminates. Node's recursive mkdir loops forever on
 * some pseudo file systems (on /proc, `mkdir('/proc/x', { recursive: true })` never settles), so
 * each missing level is created with a plain mkdir, and the created ones are remembered so a
 * failed export leaves no empty directories behind.
 */
import { mkdir, rmdir, stat } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';

/**
 * Creates `directory` and its missing parents, one plain `mkdir` per level. Returns a function
 * that removes the directories created here again (only while empty: never a recursive removal).
 *
 * @throws Node system errors (EACCES, ENOTDIR, ENOENT on a file system that refuses new entries).
 * @example
 * ```ts
 * const undo = await makeParents('out/2026/11');
 * try { await write(); } catch (error) { await undo(); throw error; }
 * ```
 */
export async function makeParents(directory: string): Promise<() => Promise<void>> {
  const missing: string[] = [];
  for (let dir = resolve(directory); ; dir = dirname(dir)) {
    const found = await stat(dir).then(
      () => true,
      (error: unknown) => {
        if ((error as { code?: unknown }).code === 'ENOENT') return false;
        throw error;
      },
    );
    if (found || dirname(dir) === dir) break;
    missing.push(dir);
  }
  const made: string[] = [];
  const undo = async (): Promise<void> => {
    for (const dir of made.splice(0).reverse()) await rmdir(dir).catch(() => undefined);
  };
  try {
    for (const dir of missing.reverse()) {
      const created = await mkdir(dir).then(
        () => true,
        (error: unknown) => {
          // Made meanwhile by someone else: theirs, not ours to remove.
          if ((error as { code?: unknown }).code !== 'EEXIST') throw error;
          return false;
        },
      );
      if (created) made.push(dir);
    }
  } catch (error) {
    await undo();
    throw error;
  }
  return undo;
}
