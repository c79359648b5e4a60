import { UsageError } from '../errors/usage-error.js';
import type { CommandContext } from './command-context.js';

/** Flags of `inspect`. */
export interface InspectFlags {
  /** Only this store namespace; every namespace when absent. */
  namespace?: string | undefined;
  /** Port on 127.0.0.1; 0 (the default) picks a free one. */
  port?: number | undefined;
  /** Do not open the system browser. */
  'no-open'?: boolean | undefined;
}

/**
 * `inspect`: serves the read-only viewer (src/inspect/) until SIGINT or SIGTERM. Prints
 * `{"ok": true, "result": {"url": "http://127.0.0.1:PORT/?token=..."}}` as soon as it listens;
 * returns nothing, so the lifecycle prints nothing more. The viewer's modules load only here.
 *
 * @example
 * ```ts
 * await inspectStore(context); // serves until a signal
 * ```
 */
export async function inspectStore({ flags, openStore }: CommandContext<InspectFlags>): Promise<undefined> {
  const port = flags.port ?? 0;
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new UsageError('--port must be from 0 to 65535 (0 picks a free port)');
  const store = await openStore({ readOnly: true });
  const { serveInspector } = await import('../inspect/serve.js');
  await serveInspector({ store, namespace: flags.namespace, port, open: flags['no-open'] !== true });
  return undefined;
}
