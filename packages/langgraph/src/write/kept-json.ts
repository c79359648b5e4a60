/*
 * The comparison of a value now with the JSON the saver kept of it (docs/decisions/0014, 0023,
 * 0046): shared by the capture of a list (capture.ts) and the check of a LangChain message without
 * its toJSON() (kept-message.ts, docs/decisions/0050).
 */

/**
 * True when `a` is plain JSON data equal to `b`, the JSON the saver kept (checked when captured):
 * numbers and strings identical, objects with the plain prototype and no `toJSON`, the same keys,
 * arrays of the same length. Equal to a checked value, `a` needs no check of its own: this one walk
 * stands for the walk of {@link plainJsonOf} and the comparison after it, for the unchanged items
 * that are most of a growing list (docs/decisions/0023; capture.test.ts compares both paths on
 * generated values). Anything else is `false`, and the item takes the full path.
 *
 * A long string of `b` found equal to `a`'s is replaced in `b` by `a`'s (see {@link sameMember}).
 */
export function sameAsKept(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || a === null || typeof b !== 'object' || b === null) return false;
  if (Array.isArray(a)) {
    // An array subclass, or one with a toJSON (its own, or patched on), serialises as its toJSON says.
    if (Object.getPrototypeOf(a) !== Array.prototype || typeof (a as { toJSON?: unknown }).toJSON === 'function' || !Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!sameMember(a, b, i)) return false;
    return true;
  }
  const proto: unknown = Object.getPrototypeOf(a);
  if (Array.isArray(b) || (proto !== Object.prototype && proto !== null) || typeof (a as { toJSON?: unknown }).toJSON === 'function') return false;
  const keys = Object.keys(a);
  if (keys.length !== Object.keys(b).length) return false;
  for (const key of keys) if (!Object.hasOwn(b, key) || !sameMember(a, b, key)) return false;
  return true;
}

/** Strings at least this long that compare equal are shared from then on (shorter ones compare at once anyway). */
export const SHARED_STRING_MIN = 64;

/**
 * {@link sameAsKept} of the members at `key`. A string equal by content to the kept one, and long,
 * takes the kept one's place in `kept` (docs/decisions/0046): a string has no identity JavaScript
 * can see, so the kept JSON holds the same text as before, but the next put's comparison of the
 * caller's string (a message keeps its content string from one put to the next) is one pointer
 * check instead of a comparison of every character. A message revived at a read has strings of
 * its own, so each string is compared in full once per read, not once per put.
 */
export function sameMember(a: object, kept: object, key: string | number): boolean {
  const x = (a as Record<string | number, unknown>)[key];
  const y = (kept as Record<string | number, unknown>)[key];
  if (typeof x !== 'string') return sameAsKept(x, y);
  // Content: equal text, every character (V8 compares the pointers first).
  if (x !== y) return false;
  // An own "__proto__" key is never assigned (that would set the prototype); it keeps its string.
  if (x.length >= SHARED_STRING_MIN && key !== '__proto__') (kept as Record<string | number, unknown>)[key] = x;
  return true;
}
