/**
 * The lossless JSON tree: every value keeps its source span, numbers keep their exact lexeme, and
 * object members stay an ordered list of pairs (duplicates included). No plain object is ever
 * keyed by user data, so a key such as `__proto__` is just data.
 *
 * Spans are UTF-16 indices into the parsed text (`text.slice(node.start, node.end)` is the value's
 * source), so a caller can hand a sub-document to another parser without re-serialising it.
 */

/** Source span of a value: `start` inclusive, `end` exclusive, in UTF-16 units of the parsed text. */
export interface JsonSpan {
  readonly start: number;
  readonly end: number;
}

/**
 * An object. `entries` keeps members in source order, duplicates included (Python's `json.loads`
 * lets the last one win; callers decide). `skipped` is true when the parser was asked not to keep
 * children this deep (see `keepDepth`): the object was fully checked, only its span is kept.
 */
export interface JsonObjectNode extends JsonSpan {
  readonly kind: 'object';
  readonly entries: Array<[key: string, value: JsonNode]>;
  readonly skipped?: true;
}

/** An array; `skipped` as for {@link JsonObjectNode}. */
export interface JsonArrayNode extends JsonSpan {
  readonly kind: 'array';
  readonly items: JsonNode[];
  readonly skipped?: true;
}

/** A string, escapes decoded. May hold lone surrogates (`"\ud800"`), as Python's parser allows. */
export interface JsonStringNode extends JsonSpan {
  readonly kind: 'string';
  readonly value: string;
}

/**
 * A number exactly as written: `1.0`, `12345678901234567890`, `-0`, `1E400`. Python's parser also
 * accepts `NaN`, `Infinity` and `-Infinity`, so these arrive here too; canonicalisation rejects them.
 */
export interface JsonNumberNode extends JsonSpan {
  readonly kind: 'number';
  readonly lexeme: string;
}

/** `true`, `false` or `null`. */
export interface JsonLiteralNode extends JsonSpan {
  readonly kind: 'true' | 'false' | 'null';
}

/**
 * Any node of the lossless tree.
 *
 * @example
 * ```ts
 * const node = parseJsonTree('{"n": 1.0}');
 * if (node.kind === 'object') node.entries[0]; // ['n', { kind: 'number', lexeme: '1.0', start: 6, end: 9 }]
 * ```
 */
export type JsonNode = JsonObjectNode | JsonArrayNode | JsonStringNode | JsonNumberNode | JsonLiteralNode;

/**
 * True when a number lexeme is an integer literal (no fraction, no exponent), as Python's
 * `json.loads` would give an `int`.
 *
 * @example
 * ```ts
 * isIntegerLexeme('42');  // true
 * isIntegerLexeme('1.0'); // false
 * isIntegerLexeme('NaN'); // false
 * ```
 */
export function isIntegerLexeme(lexeme: string): boolean {
  return /^-?(?:0|[1-9][0-9]*)$/.test(lexeme);
}
