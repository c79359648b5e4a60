import type { CheckpointStore } from '@session-checkpoint/core';
import { writeResult } from '../output/write-json.js';
import { openBrowser } from './open-browser.js';
import { readerSource } from './reader-source.js';
import type { InspectSource } from './source.js';
import { startInspectServer } from './server.js';

/** What {@link serveInspector} needs from the command. */
export interface ServeOptions {
  /** The store, opened read-only; the command's lifecycle closes it after this returns. Not needed with `source`. */
  store?: CheckpointStore | undefined;
  /** What to serve instead of `store` (an official saver's store, `officialSource`). */
  source?: InspectSource | undefined;
  /** Only this store namespace; default is every namespace. */
  namespace?: string | undefined;
  /** Port on 127.0.0.1; default `0` (random free port). */
  port?: number | undefined;
  /** Open the system browser. Default is `true`. */
  open?: boolean | undefined;
  /** Resolves when the server must stop. Default: the first SIGINT or SIGTERM. */
  stop?: Promise<unknown> | undefined;
}

/** The first SIGINT or SIGTERM (the handlers are removed then, so a second one ends the process as usual). */
function signalled(): Promise<string> {
  return new Promise((resolve) => {
    const on = (signal: string) => {
      process.off('SIGINT', on);
      process.off('SIGTERM', on);
      resolve(signal);
    };
    process.on('SIGINT', on);
    process.on('SIGTERM', on);
  });
}

/**
 * The `inspect` command's work, loaded only by that command: starts the server over the store,
 * prints the run's one JSON document (`{"ok": true, "result": {"url": ...}}`) at once, opens the
 * browser unless told not to, and serves until SIGINT or SIGTERM.
 *
 * @example
 * ```ts
 * await serveInspector({ store, open: false });
 * ```
 */
export async function serveInspector(options: ServeOptions): Promise<void> {
  const source = options.source ?? (options.store === undefined ? undefined : readerSource(options.store, { namespace: options.namespace }));
  if (source === undefined) throw new TypeError('serveInspector needs a store or a source');
  const server = await startInspectServer({ source, port: options.port ?? 0 });
  // Listening from here on: a signal before this point (or a failed start) ends the process as usual.
  const stop = options.stop ?? signalled();
  try {
    writeResult({ url: server.url });
    if (options.open !== false) openBrowser(server.url);
    await stop;
  } finally {
    await server.close();
  }
}
