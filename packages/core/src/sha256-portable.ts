/**
 * SHA-256 (FIPS 180-4) in plain, synchronous JavaScript, for runtimes without Node's `crypto`
 * (browsers, workers, edge runtimes). The hash API is synchronous, so WebCrypto's async
 * `subtle.digest` cannot back it. `sha256.ts` uses this only where Node's built-in is missing; its
 * results are byte-identical (a test compares both on thousands of random inputs and every shared
 * canonical vector, in Node and in headless Chromium).
 */

/** Round constants: the first 32 bits of the fractional parts of the cube roots of the first 64 primes. */
const K = new Int32Array([
  0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
  0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
  0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
  0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
  0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
  0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
  0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
  0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
]);

/** Initial hash value: the first 32 bits of the fractional parts of the square roots of the first 8 primes. */
const H0 = [0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19];

/** `HEX[b]` is the two lowercase hex digits of byte `b`. */
const HEX = Array.from({ length: 256 }, (_, b) => b.toString(16).padStart(2, '0'));

/**
 * Lowercase hex SHA-256 of `data`, computed in JavaScript; a string is hashed as its UTF-8 bytes
 * (`TextEncoder`, so lone surrogates become U+FFFD like in Node).
 *
 * @example
 * ```ts
 * sha256HexPortable('{}'); // '44136fa355b3678a1146ad16f7e8649e94fb4fc21fe77e8310c060f61caaff8a'
 * ```
 */
export function sha256HexPortable(data: string | Uint8Array): string {
  const bytes = typeof data === 'string' ? new TextEncoder().encode(data) : data;
  const state = Int32Array.from(H0);
  const w = new Int32Array(64);
  const whole = bytes.length - (bytes.length % 64);
  for (let offset = 0; offset < whole; offset += 64) compress(state, w, bytes, offset);

  // Padding: the rest, 0x80, zeros, then the message length in bits as a 64-bit big-endian integer.
  const tail = new Uint8Array(bytes.length - whole < 56 ? 64 : 128);
  tail.set(bytes.subarray(whole));
  tail[bytes.length - whole] = 0x80;
  const view = new DataView(tail.buffer);
  const bits = bytes.length * 8;
  view.setUint32(tail.length - 8, Math.floor(bits / 0x1_0000_0000));
  view.setUint32(tail.length - 4, bits >>> 0);
  for (let offset = 0; offset < tail.length; offset += 64) compress(state, w, tail, offset);

  let hex = '';
  for (let i = 0; i < 8; i++) {
    const word = state[i]!;
    hex += HEX[(word >>> 24) & 0xff]! + HEX[(word >>> 16) & 0xff]! + HEX[(word >>> 8) & 0xff]! + HEX[word & 0xff]!;
  }
  return hex;
}

/** One 64-byte block at `offset` of `bytes` into `state`; `w` is the message schedule, reused. */
function compress(state: Int32Array, w: Int32Array, bytes: Uint8Array, offset: number): void {
  for (let t = 0; t < 16; t++) {
    const i = offset + t * 4;
    w[t] = (bytes[i]! << 24) | (bytes[i + 1]! << 16) | (bytes[i + 2]! << 8) | bytes[i + 3]!;
  }
  for (let t = 16; t < 64; t++) {
    const x = w[t - 15]!;
    const y = w[t - 2]!;
    const s0 = ror(x, 7) ^ ror(x, 18) ^ (x >>> 3);
    const s1 = ror(y, 17) ^ ror(y, 19) ^ (y >>> 10);
    w[t] = (w[t - 16]! + s0 + w[t - 7]! + s1) | 0;
  }
  let a = state[0]!, b = state[1]!, c = state[2]!, d = state[3]!;
  let e = state[4]!, f = state[5]!, g = state[6]!, h = state[7]!;
  for (let t = 0; t < 64; t++) {
    const t1 = (h + (ror(e, 6) ^ ror(e, 11) ^ ror(e, 25)) + ((e & f) ^ (~e & g)) + K[t]! + w[t]!) | 0;
    const t2 = ((ror(a, 2) ^ ror(a, 13) ^ ror(a, 22)) + ((a & b) ^ (a & c) ^ (b & c))) | 0;
    h = g;
    g = f;
    f = e;
    e = (d + t1) | 0;
    d = c;
    c = b;
    b = a;
    a = (t1 + t2) | 0;
  }
  state[0] = (state[0]! + a) | 0;
  state[1] = (state[1]! + b) | 0;
  state[2] = (state[2]! + c) | 0;
  state[3] = (state[3]! + d) | 0;
  state[4] = (state[4]! + e) | 0;
  state[5] = (state[5]! + f) | 0;
  state[6] = (state[6]! + g) | 0;
  state[7] = (state[7]! + h) | 0;
}

/** 32-bit rotate right. */
function ror(x: number, n: number): number {
  return (x >>> n) | (x << (32 - n));
}

/**
 * Number of bytes of `text` encoded as UTF-8, counted without encoding it. A lone surrogate counts
 * 3 bytes (its U+FFFD replacement), as `TextEncoder` and Node's `Buffer.byteLength` do.
 *
 * @example
 * ```ts
 * utf8ByteLengthPortable('ä😀'); // 6
 * ```
 */
export function utf8ByteLengthPortable(text: string): number {
  let bytes = text.length;
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    if (unit < 0x80) continue;
    if (unit < 0x800) bytes += 1;
    else if (unit >= 0xd800 && unit <= 0xdbff && i + 1 < text.length && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      // A surrogate pair: two UTF-16 units, four UTF-8 bytes.
      bytes += 2;
      i++;
    } else bytes += 2;
  }
  return bytes;
}
