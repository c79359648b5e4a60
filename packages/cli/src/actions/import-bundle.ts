import { DEFAULT_LIMITS } from '@session-checkpoint/core';
import { expandHome } from '../input/expand-home.js';
import { readInputText } from '../input/read-input-text.js';
import { stderrProgress } from '../progress/stderr-progress.js';
import type { CommandContext } from './command-context.js';

/** Flags of `import`. */
export interface ImportFlags {
  /** Write; without it the command is a dry run. */
  apply: boolean;
  /** Bundle file to read; `-` reads standard input. */
  input: string;
  /** Only this namespace's checkpoints; all when absent. */
  namespace?: string | undefined;
}

/**
 * `import`: `{ dry_run, inserted, unchanged }`. Unlike the reference, the input is read and
 * validated before the store is opened (and perhaps created): a missing or bad bundle must not
 * leave a new empty store behind.
 *
 * @example
 * ```ts
 * await importBundle(context); // { dry_run: false, inserted: [1, 2], unchanged: [] }
 * ```
 */
export async function importBundle({ flags, openStore }: CommandContext<ImportFlags>): Promise<Record<string, unknown>> {
  const bundle = await import('@session-checkpoint/bundle');
  const text = await readInputText(expandHome(flags.input), { maxBytes: DEFAULT_LIMITS.maxImportFileBytes, label: 'input' });
  const onProgress = stderrProgress();
  const parsed = bundle.parseBundle(text, DEFAULT_LIMITS, onProgress ? { onProgress } : {});
  const store = await openStore({ create: true });
  const result = await bundle.importBundle(store, parsed, {
    apply: flags.apply,
    ...(flags.namespace === undefined ? {} : { namespace: flags.namespace }),
    ...(onProgress === undefined ? {} : { onProgress }),
  });
  return { dry_run: result.dryRun, inserted: result.inserted, unchanged: result.unchanged };
}
