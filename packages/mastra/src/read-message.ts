import type { MastraDBMessage } from '@mastra/core/memory';
import type { StoredMessage } from './rows/types.js';

/** The members of a read message in the order Mastra's SQL stores build them (`@mastra/libsql`'s and `@mastra/pg`'s row parsers). */
const READ_ORDER = ['id', 'content', 'role', 'createdAt', 'threadId', 'resourceId'] as const;

/**
 * A stored message as Mastra's `MastraDBMessage` (date as `Date`): the plain conversion, for any
 * stored message. Its members come in {@link READ_ORDER} (those the message has), then any others
 * in stored order, then `type` when it is not the default 'v2' (as @mastra/libsql reads a row), so
 * an answer's messages list their keys alike whichever conversion built them.
 */
export function messageOut(m: StoredMessage): MastraDBMessage {
  const from = m as unknown as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  // Own data properties, as the object spread this replaces made them (an own "__proto__" key stays a key).
  const put = (key: string, value: unknown) => void Object.defineProperty(out, key, { value, enumerable: true, writable: true, configurable: true });
  for (const key of READ_ORDER) if (key === 'createdAt' || Object.hasOwn(from, key)) put(key, key === 'createdAt' ? new Date(m.createdAt) : from[key]);
  for (const key of Object.keys(from)) if (key !== 'type' && !Object.hasOwn(out, key)) put(key, from[key]);
  if (m.type && m.type !== 'v2') put('type', m.type);
  return out as unknown as MastraDBMessage;
}

/**
 * {@link messageOut} for the messages a read hands to `MessageList`, built as one object literal
 * in the order Mastra's own stores build a read message (`@mastra/pg`: id, content, role,
 * createdAt, threadId, resourceId): one allocation instead of an object rest and a spread. Every
 * read of the memory domain uses it, so `MessageList`, which runs type checks over every pair of
 * the messages it is given, sees one hidden class from all of them (a page built one way after
 * a recall built another made the page slower than before; decision 0051).
 *
 * It serves only a stored message of exactly the keys a save writes, as its canonical JSON lists
 * them (sorted), of type 'v2' or none; any other (an update may add keys of its own, a v1
 * message keeps its type) goes through `messageOut`, so the answer, its key order included, is
 * the same either way.
 */
export function readMessage(m: StoredMessage): MastraDBMessage {
  const k = Object.keys(m);
  if (k.length !== 7 || k[0] !== 'content' || k[1] !== 'createdAt' || k[2] !== 'id' || k[3] !== 'resourceId' || k[4] !== 'role' || k[5] !== 'threadId' || k[6] !== 'type' || (m.type && m.type !== 'v2')) return messageOut(m);
  return { id: m.id, content: m.content, role: m.role, createdAt: new Date(m.createdAt), threadId: m.threadId, resourceId: m.resourceId } as unknown as MastraDBMessage;
}
