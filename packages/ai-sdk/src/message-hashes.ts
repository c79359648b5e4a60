import { CheckpointValidationError, canonicalize, sha256Hex } from '@session-checkpoint/core';
import { TwoGenerationCache } from '@session-checkpoint/core/internal';

/**
 * The content hash of a message is the SHA-256 of its canonical JSON: what the store would hash,
 * so key order and `undefined` members (which JSON drops) make no difference. A chat's hash chain
 * is `tip(0) = ""`, `tip(i) = SHA-256(tip(i - 1) + hash(message i - 1))`; each save records the
 * tip of the chat after it, so the next save checks that its list starts with the stored chat by
 * hashing the list, without reading a stored message.
 *
 * Canonicalising every message on every save would cost O(chat) in the JavaScript canonicaliser.
 * Messages are therefore first written with the native `JSON.stringify`, and a memo maps the
 * SHA-256 of that text to the canonical hash: the same text is the same content (never identity:
 * a message changed in place has another text), so only messages not seen before are
 * canonicalised. Texts that differ only in key order miss the memo and are canonicalised: still
 * correct.
 */
export class MessageHasher {
  /** SHA-256 of a message's JSON text -> SHA-256 of its canonical JSON. */
  readonly #memo = new TwoGenerationCache<string, string>(200_000);

  /**
   * The JSON text and the content hash of each message.
   *
   * @throws CheckpointValidationError naming the message when it is not JSON (a function, a
   *   bigint, a cycle) or holds what canonical JSON refuses (a lone surrogate, a non-finite number).
   */
  hash(messages: readonly unknown[]): { texts: string[]; hashes: string[] } {
    const texts: string[] = [];
    const hashes: string[] = [];
    messages.forEach((message, i) => {
      let text: string | undefined;
      try {
        text = JSON.stringify(message);
      } catch (error) {
        throw new CheckpointValidationError(`message ${i} is not JSON: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
      }
      if (typeof text !== 'string' || message === null || typeof message !== 'object' || Array.isArray(message)) {
        throw new CheckpointValidationError(`message ${i} is not an object`);
      }
      const key = sha256Hex(text);
      let hash = this.#memo.get(key);
      if (hash === undefined) {
        hash = sha256Hex(canonicalText(JSON.parse(text), i));
        this.#memo.set(key, hash);
      }
      texts.push(text);
      hashes.push(hash);
    });
    return { texts, hashes };
  }
}

/** The canonical JSON of message `i`, or a validation error that names it. */
export function canonicalText(message: unknown, i: number): string {
  try {
    return canonicalize(message);
  } catch (error) {
    throw new CheckpointValidationError(`message ${i} cannot be stored: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
  }
}

/** `tips[i]` is the chain tip after the first `i` messages (`tips[0]` is `start`, `""` from the chat's first message). */
export function chainTips(hashes: readonly string[], start = ''): string[] {
  const tips = [start];
  for (const hash of hashes) tips.push(sha256Hex((tips[tips.length - 1] as string) + hash));
  return tips;
}
