/**
 * Number printing the way Python's `json.dumps` prints it: `float.__repr__` for floats (shortest
 * round-trip digits, like JavaScript, but with Python's own choice between fixed and exponent
 * notation), exact decimal for integers.
 */

/**
 * Formats a finite double like Python's `repr(float)`: shortest round-trip digits, fixed notation
 * when the decimal exponent is in [-4, 16), else `d.ddde±XX`; a fixed integral value keeps `.0`.
 * The caller must reject non-finite values first.
 *
 * @example
 * ```ts
 * formatPythonFloat(1);      // '1.0'
 * formatPythonFloat(1e16);   // '1e+16'
 * formatPythonFloat(1e-7);   // '1e-07'
 * formatPythonFloat(-0);     // '-0.0'
 * ```
 */
export function formatPythonFloat(x: number): string {
  if (x === 0) return Object.is(x, -0) ? '-0.0' : '0.0';
  const abs = x < 0 ? -x : x;
  // Non-integral values with 1e-4 <= |x| < 1e16: JS `String` also prints fixed notation with the
  // same shortest digits, so it is exact and by far the cheapest route.
  if (abs >= 1e-4 && abs < 1e16 && !Number.isInteger(x)) return String(x);
  // toExponential() without an argument yields the shortest round-trip digits: "d.ddde±n".
  const exp = abs.toExponential();
  const ePos = exp.indexOf('e');
  const mantissa = exp.slice(0, ePos);
  const e = Number(exp.slice(ePos + 1));
  const sign = x < 0 ? '-' : '';
  if (e >= -4 && e < 16) {
    const digits = mantissa.length > 1 ? mantissa[0] + mantissa.slice(2) : mantissa;
    if (e < 0) return sign + '0.' + '0'.repeat(-e - 1) + digits;
    if (digits.length <= e + 1) return sign + digits + '0'.repeat(e + 1 - digits.length) + '.0';
    return sign + digits.slice(0, e + 1) + '.' + digits.slice(e + 1);
  }
  const absE = e < 0 ? -e : e;
  return sign + mantissa + (e < 0 ? 'e-' : 'e+') + (absE < 10 ? '0' : '') + absE;
}

/**
 * Formats a JavaScript number as the canonical text would: integral values as exact integers
 * (`1` and `1.0` are the same JS number, and JSON-parsed data uses integers far more often),
 * `-0` as `0`, other values with {@link formatPythonFloat}. The caller must reject non-finite values.
 *
 * @example
 * ```ts
 * formatJsNumber(2 ** 64); // '18446744073709551616'
 * formatJsNumber(0.5);     // '0.5'
 * ```
 */
export function formatJsNumber(x: number): string {
  if (Number.isInteger(x)) {
    // String(-0) is already '0'; beyond 2^53 String() switches to exponent notation.
    return x <= Number.MAX_SAFE_INTEGER && x >= -Number.MAX_SAFE_INTEGER ? String(x) : BigInt(x).toString();
  }
  return formatPythonFloat(x);
}
