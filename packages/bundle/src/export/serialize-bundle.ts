/**
 * Bundle text in the reference's layout: `json.dumps(bundle, ensure_ascii=False, indent=2) + "\n"`.
 * The streaming pieces below produce the same bytes one item at a time, so a file export never
 * holds more than one formatted checkpoint.
 */
import { formatPythonJson } from '@session-checkpoint/core/toolkit';
import type { ExportBundle, ExportedCheckpoint, SealSection } from '../bundle-format.js';

/**
 * The bundle as file text, byte-identical to what the Python reference writes (trailing newline included).
 *
 * @example
 * ```ts
 * await fs.writeFile('out.json', serializeBundle(await exportBundle(store)));
 * ```
 */
export function serializeBundle(bundle: ExportBundle): string {
  return formatPythonJson(bundle) + '\n';
}

/** Where the `checkpoints` array opens: the text before its first item. */
export function bundleTextHead(header: Omit<ExportBundle, 'checkpoints' | 'session_checkpoint_seal'>): string {
  // Derived from the formatter itself so that header layout cannot drift from serializeBundle.
  const empty = formatPythonJson({ ...header, checkpoints: [] });
  return empty.slice(0, empty.length - '[]\n}'.length) + '[';
}

/** One item as it appears inside the array: preceded by its separator, indented two levels. */
export function bundleTextItem(item: ExportedCheckpoint, first: boolean): string {
  return (first ? '\n    ' : ',\n    ') + formatPythonJson(item, 2, 2);
}

/**
 * The text after the last item (`empty` when there was none), with a sealed bundle's seal
 * section, which follows `checkpoints` (its heads are read after the rows).
 */
export function bundleTextTail(empty: boolean, seal?: SealSection): string {
  const close = empty ? ']' : '\n  ]';
  if (seal === undefined) return `${close}\n}\n`;
  const full = formatPythonJson({ checkpoints: [], session_checkpoint_seal: seal });
  return close + full.slice(full.indexOf('[]') + 2) + '\n';
}
