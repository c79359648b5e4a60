import { CheckpointIntegrityError, CheckpointValidationError, utf8ByteLength, type Checkpoint, type CheckpointStore } from '@session-checkpoint/core';
import { PART_KIND, SAVE_KIND } from './namespace.js';
import { partRef, saveOfRef, savePrefix } from './refs.js';

/**
 * The payload of a save row (kind `ai-sdk.save`): one `saveChat` that changed the chat. The chat
 * after save `n` is the chat after save `n - 1` cut to its first `keep` messages, then `messages`
 * appended: an append keeps them all; an edit, a regenerate or a second writer's save keeps fewer
 * (a fork from the first message it replaces), and the replaced messages stay in the earlier saves.
 */
export interface SavePayload {
  /** The chat id (the row's identity is its source ref; this is a cross-check). */
  chatId: string;
  /** The save number, from 1, dense. */
  save: number;
  /** Messages of the previous save's chat that this save keeps. */
  keep: number;
  /** Messages in the chat after this save. */
  count: number;
  /** SHA-256 of the content hashes of the chat's messages after this save, concatenated (what the next save checks its list against). */
  tip: string;
  /** The messages after `keep`, oldest first, as JSON; absent when they are in part rows. */
  messages?: unknown[];
  /** SHA-256 of each part row's payload, in order, when the messages' JSON text is cut over part rows. */
  parts?: string[];
}

/** The payload of a part row (kind `ai-sdk.part`): a slice of a save's messages JSON text. */
export interface PartPayload {
  part: number;
  text: string;
}

/** A decoded save: its payload fields and its messages, with the row it came from. */
export interface DecodedSave extends Omit<SavePayload, 'messages' | 'parts'> {
  messages: unknown[];
  /** The save row (verified), and the bytes of its part rows. */
  row: Checkpoint;
  partBytes: number;
}

/** Rows per range read. */
const PAGE = 500;

function fail(chatId: string, row: Pick<Checkpoint, 'id'>, why: string): CheckpointIntegrityError {
  return new CheckpointIntegrityError(`chat ${JSON.stringify(chatId)}: save row ${row.id} ${why}`, { failures: [{ id: row.id, reason: why }] });
}

/** The payload of a verified save row, checked for shape (a row the package did not write fails closed). */
export function savePayloadOf(chatId: string, row: Checkpoint): SavePayload {
  const p = row.payload as unknown as Partial<SavePayload> | null;
  const ok =
    row.kind === SAVE_KIND &&
    p !== null &&
    typeof p === 'object' &&
    p.chatId === chatId &&
    p.save === saveOfRef(row.sourceRef) &&
    Number.isSafeInteger(p.keep) &&
    Number.isSafeInteger(p.count) &&
    typeof p.tip === 'string' &&
    (Array.isArray(p.messages) !== Array.isArray(p.parts)) &&
    (p.parts === undefined || p.parts.every((h) => typeof h === 'string'));
  if (!ok) throw fail(chatId, row, 'is not an ai-sdk save of this chat');
  const added = p.messages?.length;
  if ((p.keep as number) < 0 || (added !== undefined && (p.keep as number) + added !== p.count)) throw fail(chatId, row, 'has counts that do not add up');
  return p as SavePayload;
}

/**
 * Decodes save rows: the messages of each, joining part rows (one lookup for the whole batch),
 * each part checked against the SHA-256 its save recorded.
 *
 * @throws CheckpointIntegrityError naming the row when a row is not a save of this chat, or a part
 *   is missing, altered or out of place.
 */
export async function decodeSaves(store: CheckpointStore, namespace: string, chatId: string, rows: readonly Checkpoint[]): Promise<DecodedSave[]> {
  const payloads = rows.map((row) => savePayloadOf(chatId, row));
  const refs = payloads.flatMap((p) => (p.parts ?? []).map((_, k) => partRef(chatId, p.save, k)));
  const parts = new Map((refs.length === 0 ? [] : await store.findBySourceRefs(namespace, refs)).map((r) => [r.sourceRef, r]));
  return payloads.map((p, i) => {
    const row = rows[i] as Checkpoint;
    let messages = p.messages;
    let partBytes = 0;
    if (messages === undefined) {
      let text = '';
      (p.parts ?? []).forEach((sha, k) => {
        const part = parts.get(partRef(chatId, p.save, k));
        const payload = part?.payload as unknown as Partial<PartPayload> | undefined;
        if (part === undefined || part.kind !== PART_KIND || part.payloadSha256 !== sha || payload?.part !== k || typeof payload.text !== 'string') throw fail(chatId, row, `has part ${k} missing or altered`);
        text += payload.text;
        partBytes += utf8ByteLength(part.payloadJson);
      });
      try {
        messages = JSON.parse(text) as unknown[];
      } catch {
        throw fail(chatId, row, 'has parts that do not join into JSON');
      }
      if (!Array.isArray(messages) || p.keep + messages.length !== p.count) throw fail(chatId, row, 'has parts that do not hold its messages');
    }
    const { messages: _m, parts: _p, ...fields } = p;
    return { ...fields, messages, row, partBytes };
  });
}

/** Options of {@link readSaves}. */
export interface ReadSavesOptions {
  /** Newest first. Default is oldest first. */
  descending?: boolean;
  /** At most this many saves. Default is all. */
  limit?: number;
  /** Only saves after (ascending) or before (descending) this source ref. */
  from?: string;
}

/** The verified save rows of a chat, in pages, as one list (not decoded). */
export async function saveRows(store: CheckpointStore, namespace: string, chatId: string, options: ReadSavesOptions = {}): Promise<Checkpoint[]> {
  const out: Checkpoint[] = [];
  let from = options.from;
  const want = options.limit ?? Number.MAX_SAFE_INTEGER;
  for (;;) {
    const limit = Math.min(PAGE, want - out.length);
    if (limit <= 0) break;
    const bound = from === undefined ? {} : options.descending ? { before: from } : { after: from };
    const page = await store.listBySourceRefPrefix({ namespace, prefix: savePrefix(chatId), limit, descending: options.descending === true, ...bound });
    out.push(...page);
    if (page.length < limit) break;
    from = page[page.length - 1]?.sourceRef ?? undefined;
  }
  return out;
}

/**
 * The chat after each save, folded oldest first: calls `visit` with each save and the chat after
 * it (the same array, changed in place: copy it to keep it). Checks that saves are dense from 1
 * and that each save's counts agree with what came before.
 *
 * @throws CheckpointIntegrityError when a save is missing or does not follow its predecessor.
 */
export function foldSaves(chatId: string, saves: readonly DecodedSave[], visit?: (save: DecodedSave, chat: unknown[]) => void): unknown[] {
  const chat: unknown[] = [];
  let expected = 1;
  for (const s of saves) {
    if (s.save !== expected) throw fail(chatId, s.row, `is save ${s.save} where save ${expected} was expected (a save row is missing)`);
    if (s.keep > chat.length) throw fail(chatId, s.row, `keeps ${s.keep} messages of a chat of ${chat.length}`);
    chat.length = s.keep;
    chat.push(...s.messages);
    expected++;
    visit?.(s, chat);
  }
  return chat;
}

/**
 * The messages of a chat after its newest save (or after save `upTo`), verified, as stored JSON;
 * `[]` for a chat with no saves. Reads every save row of the chat (each holds only what it added).
 *
 * @throws CheckpointValidationError for a bad `upTo`; CheckpointIntegrityError for a damaged chat.
 */
export async function chatMessages(store: CheckpointStore, namespace: string, chatId: string, upTo?: number): Promise<{ messages: unknown[]; save: number }> {
  if (upTo !== undefined && (!Number.isSafeInteger(upTo) || upTo < 0)) throw new CheckpointValidationError('save must be a non-negative integer');
  let rows = await saveRows(store, namespace, chatId);
  if (upTo !== undefined) rows = rows.slice(0, upTo);
  const saves = await decodeSaves(store, namespace, chatId, rows);
  return { messages: foldSaves(chatId, saves), save: saves.length === 0 ? 0 : (saves[saves.length - 1] as DecodedSave).save };
}
