import { CheckpointValidationError, canonicalize, sha256Hex } from '@session-checkpoint/core';
import { TwoGenerationCache } from '@session-checkpoint/core/toolkit';

/**
 * The content hash of a message is the SHA-256 of its canonical JSON: what the store would hash,
 * so key order and `undefined` members (which JSON drops) make no difference. Each save records
 * the chat's tip, the SHA-256 of its messages' hashes concatenated in order, so the next save
 * checks that its list starts with the stored chat by hashing the list, without reading a stored
 * message.
 *
 * Canonicalising every message on every save would cost O(chat) in the JavaScript canonicaliser.
 * Messages are therefore first written with the native `JSON.stringify`, and a memo shared by
 * every chat store of the process maps that text to the canonical hash: the same text is the same
 * content (never identity: a message changed in place has another text), so only messages not
 * seen before are canonicalised. Texts that differ only in key order miss the memo and are
 * canonicalised: still correct. The memo keeps the texts of the last 32 to 64 MiB of messages
 * (two generations of 32 MiB): about 50,000 messages of 600 bytes.
 */
const MEMO = new TwoGenerationCache<string, { hash: string; weight: number }>(64 * 1024 * 1024, (v) => v.weight);

/**
 * The JSON text and the content hash of each message.
 *
 * @throws CheckpointValidationError naming the message when it is not JSON (a function, a
 *   bigint, a cycle) or holds what canonical JSON refuses (a lone surrogate, a non-finite number).
 */
export function hashMessages(messages: readonly unknown[]): { texts: string[]; hashes: string[] } {
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
    let known = MEMO.get(text);
    if (known === undefined) {
      known = { hash: sha256Hex(canonicalText(JSON.parse(text), i)), weight: text.length + 64 };
      MEMO.set(text, known);
    }
    texts.push(text);
    hashes.push(known.hash);
  });
  return { texts, hashes };
}

/** The canonical JSON of message `i`, or a validation error that names it. */
export function canonicalText(message: unknown, i: number): string {
  try {
    return canonicalize(message);
  } catch (error) {
    throw new CheckpointValidationError(`message ${i} cannot be stored: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
  }
}

/** The tip of a chat whose messages have these content hashes: `""` for none. */
export function tipOf(hashes: readonly string[]): string {
  return hashes.length === 0 ? '' : sha256Hex(hashes.join(''));
}
