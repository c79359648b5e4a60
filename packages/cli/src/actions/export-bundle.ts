import { expandHome } from '../input/expand-home.js';
import { stderrProgress } from '../progress/stderr-progress.js';
import type { CommandContext } from './command-context.js';

/** Flags of `export`. */
export interface ExportFlags {
  /** Only this namespace; every namespace when absent. */
  namespace?: string | undefined;
  /** Bundle file to write. */
  output: string;
}

/**
 * `export`: writes a bundle file; `{ schema, output, checkpoints }`. The output is checked before
 * the store is opened, so a refused export touches nothing.
 *
 * @example
 * ```ts
 * await exportBundle(context); // { schema: 'ellmos.session-checkpoint-export.v1', output: '/abs/all.json', checkpoints: 3 }
 * ```
 */
export async function exportBundle({ flags, storeSelection, openStore }: CommandContext<ExportFlags>): Promise<Record<string, unknown>> {
  const { writeBundleFile } = await import('@session-checkpoint/bundle');
  const { prepareExportTarget } = await import('@session-checkpoint/bundle/internal');
  const selection = storeSelection();
  const storePath = selection.kind === 'sqlite' ? { storePath: selection.path } : {};
  const target = await prepareExportTarget(expandHome(flags.output), storePath);
  let result;
  try {
    const store = await openStore();
    const onProgress = stderrProgress();
    result = await writeBundleFile(store, target.path, {
      ...(flags.namespace === undefined ? {} : { namespace: flags.namespace }),
      ...storePath,
      ...(onProgress === undefined ? {} : { onProgress }),
    });
  } catch (error) {
    await target.undo();
    throw error;
  }
  return { schema: result.schema, output: result.output, checkpoints: result.checkpoints };
}
