/*
 * The reference's error messages embed Python reprs (`tables=['a', 'b']`); ours match them so
 * messages can be compared across the two tools.
 */

/** Python's `repr()` of a str. */
export function pythonStrRepr(value: string): string {
  const quote = value.includes("'") && !value.includes('"') ? '"' : "'";
  let out = quote;
  for (const char of value) {
    const code = char.codePointAt(0) ?? 0;
    if (char === '\\' || char === quote) out += `\\${char}`;
    else if (char === '\n') out += '\\n';
    else if (char === '\r') out += '\\r';
    else if (char === '\t') out += '\\t';
    else if (code < 0x20 || code === 0x7f) out += `\\x${code.toString(16).padStart(2, '0')}`;
    else out += char;
  }
  return out + quote;
}

/** Python's `repr()` of a list of str, e.g. `['checkpoint_meta', 'checkpoints']`. */
export function pythonListRepr(values: readonly string[]): string {
  return `[${values.map(pythonStrRepr).join(', ')}]`;
}
