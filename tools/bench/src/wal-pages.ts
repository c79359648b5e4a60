import Database from 'better-sqlite3';

/**
 * WAL pages (frames) that `work` appends to the SQLite database at `path`, which must be in WAL
 * mode. On this machine a durable SQLite write costs in proportion to the pages it writes (each is
 * written to the WAL, then once more by the checkpoint, which also flushes), so this is what
 * bounds a saver's put and putWrites (docs/decisions/0016-sqlite-writes-bounded-by-reference-schema.md).
 *
 * A second connection empties the WAL and then holds a read transaction that reads the database
 * file alone. While it does, no checkpoint can copy frames back or restart the WAL, so the WAL's
 * length afterwards counts every frame `work` appended, however the writer's connection is set up.
 *
 * @example
 * ```ts
 * const pages = await walPagesOf(path, async () => {
 *   await saver.put(config, checkpoint, metadata, versions);
 * });
 * ```
 */
export async function walPagesOf(path: string, work: () => Promise<void>): Promise<number> {
  const reader = new Database(path);
  try {
    const [emptied] = reader.pragma('wal_checkpoint(TRUNCATE)') as Array<{ busy: number }>;
    if (emptied!.busy !== 0) throw new Error(`could not empty the WAL of ${path}: another connection is using it`);
    reader.exec('BEGIN');
    reader.prepare('SELECT count(*) FROM sqlite_master').get();
    try {
      await work();
    } finally {
      reader.exec('COMMIT');
    }
    const [status] = reader.pragma('wal_checkpoint(PASSIVE)') as Array<{ log: number }>;
    return status!.log;
  } finally {
    reader.close();
  }
}
