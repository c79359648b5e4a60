import type { MastraDBMessage } from '@mastra/core/memory';
import type { StoredMessage } from './rows/types.js';

/** A stored message as Mastra's `MastraDBMessage` (date as `Date`): the plain conversion, for any stored message. */
export function messageOut(m: StoredMessage): MastraDBMessage {
  const { type, ...rest } = m;
  // As @mastra/libsql reads a row: `type` only when it is not the default 'v2'.
  return { ...rest, ...(type && type !== 'v2' ? { type } : {}), createdAt: new Date(m.createdAt) } as unknown as MastraDBMessage;
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
 * message keeps its type) goes through `messageOut`, so the answer is the same either way.
 */
export function readMessage(m: StoredMessage): MastraDBMessage {
  const k = Object.keys(m);
  if (k.length !== 7 || k[0] !== 'content' || k[1] !== 'createdAt' || k[2] !== 'id' || k[3] !== 'resourceId' || k[4] !== 'role' || k[5] !== 'threadId' || k[6] !== 'type' || (m.type && m.type !== 'v2')) return messageOut(m);
  return { id: m.id, content: m.content, role: m.role, createdAt: new Date(m.createdAt), threadId: m.threadId, resourceId: m.resourceId } as unknown as MastraDBMessage;
}
