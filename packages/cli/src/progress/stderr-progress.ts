/**
 * Progress for long exports and imports. It goes to stderr, and only with `--verbose` when stderr
 * is a terminal: stdout stays one JSON document, stderr stays empty unless asked, and logs or
 * pipes never collect carriage-return noise.
 */
import { isVerbose } from '../output/stderr-guard.js';

/** What the bundle functions report while they work (structurally `BundleProgress`). */
export interface ProgressEvent {
  /** Step being counted, e.g. `export`, `validate`, `insert`. */
  phase: string;
  /** Items done so far in this phase. */
  done: number;
  /** Items expected in this phase, or `null` when unknown. */
  total: number | null;
}

/**
 * A progress callback for `writeBundleFile` / `importBundle`, or `undefined` when the stream is
 * not a terminal or `--verbose` was not given. Updates are throttled to ten per second; the last one of a phase ends the line.
 *
 * @param stream Default is `process.stderr`.
 * @example
 * ```ts
 * const onProgress = stderrProgress();
 * await writeBundleFile(store, out, { ...(onProgress ? { onProgress } : {}) });
 * ```
 */
export function stderrProgress(stream: NodeJS.WriteStream = process.stderr): ((event: ProgressEvent) => void) | undefined {
  if (!stream.isTTY || !isVerbose()) return undefined;
  let last = 0;
  return (event) => {
    const finished = event.total !== null && event.done >= event.total;
    const now = Date.now();
    if (!finished && now - last < 100) return;
    last = now;
    const total = event.total === null ? '' : ` of ${event.total}`;
    stream.write(`\r${event.phase}: ${event.done}${total} checkpoints${finished ? '\n' : ''}`);
  };
}
