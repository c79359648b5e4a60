/**
 * `@session-checkpoint/core/hash`: canonical JSON and SHA-256 only, for consumers that need to
 * compute or verify payload hashes without loading the store, adapters or thread API. This module
 * must keep importing nothing but `canonical/*`, `sha256`, `errors` and `limits` (a test checks it).
 *
 * @example
 * ```ts
 * import { canonicalPayloadFromValue } from '@session-checkpoint/core/hash';
 * canonicalPayloadFromValue({ b: 1, a: 2 }).sha256;
 * ```
 */
export { canonicalize } from './canonical/canonicalize-value.js';
export type { CanonicalizeOptions } from './canonical/canonicalize-value.js';
export { canonicalizeJson } from './canonical/canonicalize-json.js';
export { canonicalPayloadFromJson, canonicalPayloadFromValue, checkStoredPayload } from './canonical/payload.js';
export type { CanonicalPayload, PayloadLimits } from './canonical/payload.js';
export { sha256Hex, utf8ByteLength } from './sha256.js';
