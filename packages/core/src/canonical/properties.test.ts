import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CheckpointValidationError } from '../errors.js';
import { isCanonicalObjectText } from './canonical-validator.js';
import { canonicalizeJson } from './canonicalize-json.js';
import { canonicalize } from './canonicalize-value.js';
import { canonicalPayloadFromJson, checkStoredPayload } from './payload.js';

const RUNS = 1000;

/** Any UTF-16 unit, lone surrogates included. */
const anyUnit = fc.integer({ min: 0, max: 0xffff }).map((u) => String.fromCharCode(u));
/** Strings that stress escaping and ordering: ASCII, controls, quotes, BMP, astral, surrogates. */
const trickyString = fc.oneof(
  fc.string({ maxLength: 8 }),
  fc.string({ unit: 'binary', maxLength: 6 }),
  fc.string({ unit: fc.constantFrom('"', '\\', '/', '\n', '\u0000', '\u001f', '\u007f', '\u2028', '\ufeff', 'é', '\uff01', '😀', 'a'), maxLength: 6 }),
);
const wellFormedString = trickyString.filter((s) => !/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/.test(s));

/**
 * JSON values whose numbers print the same through both paths: safe integers (an integer lexeme in
 * text, an integral number in JS) and non-integral doubles (a float lexeme either way, printed with
 * Python's repr). Integral doubles are excluded: `1.0` in text stays `1.0`, while JS cannot tell
 * `1.0` from `1`.
 */
function jsonValue(str: fc.Arbitrary<string>) {
  const number = fc.oneof(
    fc.maxSafeInteger(),
    fc.integer({ min: -1000, max: 1000 }),
    fc.double({ noNaN: true, noDefaultInfinity: true }).filter((x) => !Number.isInteger(x)),
  );
  return fc.letrec<{ value: unknown }>((tie) => ({
    value: fc.oneof(
      { depthSize: 'small' },
      fc.constant(null),
      fc.boolean(),
      number,
      str,
      fc.array(tie('value'), { maxLength: 5 }),
      fc.dictionary(str, tie('value'), { maxKeys: 6 }),
    ),
  })).value;
}

/** JSON text of a value, compact or indented (the whitespace must not matter). */
const jsonText = fc.tuple(jsonValue(wellFormedString), fc.constantFrom(undefined, 1, '\t', ' \r\n')).map(([value, indent]) => JSON.stringify(value, null, indent));

function outcome(fn: () => string): string {
  try {
    return 'ok:' + fn();
  } catch (error) {
    expect(error).toBeInstanceOf(CheckpointValidationError);
    return 'error:' + (error as Error).message;
  }
}

describe('properties', () => {
  it('canonicalizeJson is idempotent and preserves the parsed value', () => {
    fc.assert(
      fc.property(jsonText, (text) => {
        const canonical = canonicalizeJson(text);
        expect(canonicalizeJson(canonical)).toBe(canonical);
        expect(JSON.parse(canonical)).toEqual(JSON.parse(text));
      }),
      { numRuns: RUNS },
    );
  });

  it('canonicalize(JSON.parse(t)) === canonicalizeJson(t) when numbers are exact', () => {
    fc.assert(
      fc.property(jsonText, (text) => {
        expect(canonicalize(JSON.parse(text))).toBe(canonicalizeJson(text));
      }),
      { numRuns: RUNS },
    );
  });

  it('both paths agree on every value, including the error for lone surrogates', () => {
    fc.assert(
      fc.property(jsonValue(fc.oneof(trickyString, fc.string({ unit: anyUnit, maxLength: 4 }))), (value) => {
        // JSON.stringify escapes lone surrogates, which the text path decodes back to lone units.
        expect(outcome(() => canonicalizeJson(JSON.stringify(value)))).toBe(outcome(() => canonicalize(value)));
      }),
      { numRuns: RUNS },
    );
  });

  it('the read-path validator agrees with the canonicaliser', () => {
    const candidates = fc.oneof(
      jsonText,
      jsonText.map((t) => canonicalizeJson(t)),
      jsonText.chain((t) => mutation(canonicalizeJson(t))),
    );
    fc.assert(
      fc.property(candidates, (text) => {
        let canonicalObject = false;
        try {
          canonicalObject = canonicalPayloadFromJson(text, { maxPayloadBytes: 1 << 30 }).json === text;
        } catch {
          // not canonical
        }
        expect(isCanonicalObjectText(text, 1000)).toBe(canonicalObject);
      }),
      { numRuns: RUNS },
    );
  });
});

/** Random edits of a text: insert JSON-ish characters, delete, truncate. */
function mutation(text: string): fc.Arbitrary<string> {
  const piece = fc.oneof(
    fc.constantFrom(' ', ',', ':', '[', ']', '{', '}', '"', '\\', '\\u', '\\ud800', '0', '-', '.', 'e', '+', 'NaN', 'true', '\n', '\u0000', '\ufeff', '😀', '\ud800'),
    anyUnit,
  );
  const edit = fc.tuple(fc.nat(), fc.constantFrom('insert', 'delete', 'truncate'), piece);
  return fc.array(edit, { minLength: 1, maxLength: 3 }).map((edits) => {
    let s = text;
    for (const [at, kind, p] of edits) {
      const i = s.length === 0 ? 0 : at % (s.length + 1);
      if (kind === 'insert') s = s.slice(0, i) + p + s.slice(i);
      else if (kind === 'delete') s = s.slice(0, i) + s.slice(i + 1);
      else s = s.slice(0, i);
    }
    return s;
  });
}

describe('fuzzing: nothing but CheckpointValidationError escapes', () => {
  const inputs = fc.oneof(
    fc.string(),
    fc.string({ unit: 'binary' }),
    fc.string({ unit: anyUnit }),
    fc.string({ unit: fc.constantFrom('{', '}', '[', ']', '"', ':', ',', '\\', 'u', '0', '1', '-', '.', 'e', 'E', '+', ' ', 'n', 'N', 'I', 't', 'f') }),
    jsonText.chain(mutation),
  );

  it('canonicalizeJson, canonicalPayloadFromJson, checkStoredPayload', () => {
    fc.assert(
      fc.property(inputs, (text) => {
        outcome(() => canonicalizeJson(text));
        outcome(() => canonicalPayloadFromJson(text).json);
        const reason = checkStoredPayload(text, 'ab'.repeat(32));
        expect(reason).toBe('payload hash mismatch');
        outcome(() => canonicalizeJson(text, { maxDepth: 2 }));
      }),
      { numRuns: 3 * RUNS },
    );
  });

  it('canonicalize on arbitrary JS values', () => {
    fc.assert(
      fc.property(fc.anything({ withBigInt: true, withDate: true, withMap: true, withSet: true, withTypedArray: true, withNullPrototype: true, withObjectString: true, withBoxedValues: true, withSparseArray: true }), (value) => {
        outcome(() => canonicalize(value));
      }),
      { numRuns: RUNS },
    );
  });
});
