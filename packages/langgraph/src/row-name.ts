/**
 * A row name from an id or channel: the store caps names at 256 characters without controls, so
 * controls become "?", an empty text "-", and a longer one is cut at 256 characters.
 *
 * @example
 * ```ts
 * displayName('task\n1'); // 'task?1'
 * ```
 */
export function displayName(text: string): string {
  const clean = text.replace(/[\u0000-\u001f]/g, '?');
  if (clean === '') return '-';
  // At most 256 UTF-16 units is at most 256 characters: only longer names need splitting.
  return clean.length <= 256 ? clean : Array.from(clean).slice(0, 256).join('');
}
