/**
 * Seeded generator of JSON-ish texts for the randomized comparison with CPython: valid documents
 * full of the cases that matter (escapes, surrogates, number spellings, duplicate and
 * code-point-ordered keys, NaN/Infinity, odd whitespace), half of them then mutated by a few
 * random edits so that every error path is reached too.
 */

/** mulberry32: a tiny, fast, seeded PRNG (uniform in [0, 1)). */
function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const NUMBERS = ['0', '-0', '-0.0', '1', '-1', '42', '1.0', '1.5', '0.1', '-2.5e-3', '1e5', '1E5', '1e+5', '1e-7', '1E-07', '1e16', '1e15', '9999999999999998', '0.0001', '0.00001', '1e400', '-1e400', '1e-400', '12345678901234567890', '123456789012345678901234567890.5', '5e-324', '1.7976931348623157e308', '100.0', '0.30000000000000004'];
const STRING_PIECES = ['a', 'b', 'Z', ' ', 'é', '😀', '\u2028', '\u007f', '\ufeff', '/', '\\"', '\\\\', '\\/', '\\b', '\\f', '\\n', '\\r', '\\t', '\\u0000', '\\u001F', '\\u00e9', '\\uFF01', '\\ud83d\\ude00', '\\uD800', '\\udc00', '\ud800', '\udc00', '\\ud83d\\u0041', '\ud83d\\ude00', '\\ud83d\ude00'];
const KEYS = ['a', 'b', 'B', '', 'é', '\uff01', '😀', '\uffff', '𐀀', '__proto__', 'constructor', 'a\\u0000', '\\u00e9', '\\ud83d\\ude00', '\\ud800', 'k1', 'k10', 'k2'];
const SPACES = ['', '', '', ' ', '\n', '\t', '\r\n', '  '];
/** Units inserted by mutations: structure, escapes, number parts, literals' letters, oddities. */
const ALPHABET = '{}[]",:\\ \n\t0123456789-+.eEnulltruefalsNIay/\u0000\u001f\ufeff\ud800\udc00é😀';

/** Returns `count` texts, the same for the same seed. */
export function randomJsonTexts(count: number, seed: number): string[] {
  const random = rng(seed);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)] as T;
  const ws = () => pick(SPACES);

  const string = (pieces: readonly string[], max: number) => {
    let out = '"';
    const n = Math.floor(random() * max);
    for (let i = 0; i < n; i++) out += pick(pieces);
    return out + '"';
  };
  const number = () => (random() < 0.7 ? pick(NUMBERS) : String((random() - 0.5) * 10 ** Math.floor(random() * 40 - 20)));
  const value = (depth: number): string => {
    const r = random();
    if (depth < 4 && r < 0.25) {
      const n = Math.floor(random() * 5);
      const members: string[] = [];
      for (let i = 0; i < n; i++) members.push(ws() + (random() < 0.7 ? '"' + pick(KEYS) + '"' : string(STRING_PIECES, 4)) + ws() + ':' + ws() + value(depth + 1) + ws());
      return '{' + (n === 0 ? ws() : members.join(',')) + '}';
    }
    if (depth < 4 && r < 0.4) {
      const n = Math.floor(random() * 5);
      const items: string[] = [];
      for (let i = 0; i < n; i++) items.push(ws() + value(depth + 1) + ws());
      return '[' + (n === 0 ? ws() : items.join(',')) + ']';
    }
    if (r < 0.6) return string(STRING_PIECES, 6);
    if (r < 0.85) return number();
    return pick(['true', 'false', 'null', 'NaN', 'Infinity', '-Infinity']);
  };
  const mutate = (text: string): string => {
    const edits = 1 + Math.floor(random() * 3);
    for (let e = 0; e < edits; e++) {
      const at = Math.floor(random() * (text.length + 1));
      const op = random();
      if (op < 0.3) text = text.slice(0, at) + text.slice(at + 1);
      else if (op < 0.6) text = text.slice(0, at) + pick([...ALPHABET]) + text.slice(at);
      else if (op < 0.85) text = text.slice(0, at) + pick([...ALPHABET]) + text.slice(at + 1);
      else text = text.slice(0, at);
    }
    return text;
  };

  const texts: string[] = [];
  for (let i = 0; i < count; i++) {
    // Mostly objects (the payload shape), some other top-level values.
    let text = ws() + (random() < 0.7 ? value(0).replace(/^[[\]"0-9a-zA-Z-].*$/s, (v) => `{"v":${v}}`) : value(0)) + ws();
    if (random() < 0.5) text = mutate(text);
    texts.push(text);
  }
  return texts;
}
