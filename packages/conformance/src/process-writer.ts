/*
 * The child process of the `multiProcess` case (groups/concurrency.ts): opens the subject's store
 * through its `otherProcess.module`, prints `ready`, waits for a line on stdin (so that every
 * writer starts at once), creates checkpoints one by one, closes, and prints `done <count>`.
 * Arguments: module, location, writer number, count, and for the sealed case a key file (the store
 * is then opened with its keys, and every second create goes to the session `shared`, which every
 * writer extends). A failure prints its message on stderr and exits 1, for the case to report.
 */
import { isAbsolute } from 'node:path';
import { pathToFileURL } from 'node:url';
import { CheckpointStore, loadKeyFile, type CheckpointAdapter } from '@session-checkpoint/core';

const [module, location, writer, count, keyFile] = process.argv.slice(2);
try {
  const opener = (await import(isAbsolute(module!) ? pathToFileURL(module!).href : module!)) as { openAdapter?: (location: string) => Promise<CheckpointAdapter> };
  if (typeof opener.openAdapter !== 'function') throw new Error(`${module} does not export openAdapter(location)`);
  const store = new CheckpointStore(await opener.openAdapter(location!), keyFile === undefined ? {} : { keys: await loadKeyFile(keyFile) });
  process.stdout.write('ready\n');
  await new Promise((resolve) => process.stdin.once('data', resolve));
  process.stdin.destroy();
  for (let i = 0; i < Number(count); i++) {
    const sessionId = keyFile !== undefined && i % 2 === 1 ? 'shared' : `process-${writer}`;
    await store.create({ namespace: 'app', sessionId, payload: { writer: Number(writer), i } });
  }
  await store.close();
  process.stdout.write(`done ${count}\n`);
} catch (error) {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 1;
}
