/**
 * Python's `repr()` of a string, which the reference embeds in messages such as
 * `source_ref 'run:1' conflicts in namespace 'app'`: single quotes unless the text holds a single
 * quote and no double quote, backslash escapes for quotes, `\t \n \r`, `\xNN` for other ASCII
 * controls and DEL, raw printable Unicode, `\xNN`/`\uNNNN`/`\UNNNNNNNN` for the non-printable rest.
 */

/**
 * Characters Python's `str.isprintable()` rejects (besides ASCII, handled separately). Built on
 * first use: V8 builds the Unicode sets of a `\p{...}` class when the literal is evaluated, which
 * cost every CLI call about 5 million instructions although most never quote a non-ASCII text.
 */
let nonPrintable: RegExp | undefined;

function hex(value: number, width: number): string {
  return value.toString(16).padStart(width, '0');
}

/**
 * Python's `repr(text)`.
 *
 * @example
 * ```ts
 * pythonRepr('legacy:1');  // "'legacy:1'"
 * pythonRepr("it's");      // `"it's"`
 * pythonRepr('a\u00a0b');  // "'a\\xa0b'"
 * ```
 */
export function pythonRepr(text: string): string {
  const quote = text.includes("'") && !text.includes('"') ? '"' : "'";
  let out = quote;
  for (const ch of text) {
    const cp = ch.codePointAt(0) as number;
    if (ch === quote || ch === '\\') out += '\\' + ch;
    else if (ch === '\t') out += '\\t';
    else if (ch === '\n') out += '\\n';
    else if (ch === '\r') out += '\\r';
    else if (cp < 0x20 || cp === 0x7f) out += '\\x' + hex(cp, 2);
    else if (cp < 0x7f) out += ch;
    else if (ch !== ' ' && (nonPrintable ??= /^[\p{Cc}\p{Cf}\p{Cs}\p{Co}\p{Cn}\p{Zl}\p{Zp}\p{Zs}]$/u).test(ch)) out += cp <= 0xff ? '\\x' + hex(cp, 2) : cp <= 0xffff ? '\\u' + hex(cp, 4) : '\\U' + hex(cp, 8);
    else out += ch;
  }
  return out + quote;
}

/**
 * Python's `repr()` of a list of str, as the reference embeds in messages.
 *
 * @example
 * ```ts
 * pythonListRepr(['checkpoint_meta', 'checkpoints']); // "['checkpoint_meta', 'checkpoints']"
 * ```
 */
export function pythonListRepr(values: readonly string[]): string {
  return `[${values.map(pythonRepr).join(', ')}]`;
}
