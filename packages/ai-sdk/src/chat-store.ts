import { CheckpointValidationError, isCheckpointConflictError, sha256Hex, type CheckpointStore } from '@session-checkpoint/core';
import { storeArgument } from '@session-checkpoint/core/toolkit';
import { validateUIMessages, type UIMessage } from 'ai';
import { canonicalText, hashMessages, tipOf } from './message-hashes.js';
import { aiSdkChats } from './rows/chats.js';
import { AI_SDK_NAMESPACE } from './rows/namespace.js';
import { chatPrefix, savePrefix } from './rows/refs.js';
import { chatMessages, decodeSaves, saveRows, savePayloadOf, foldSaves } from './rows/save-rows.js';
import { writeSave } from './save-writer.js';

/** The options `validateUIMessages` takes besides the messages: schemas for metadata, data parts and tools. */
export type ChatValidation<UI_MESSAGE extends UIMessage> = Omit<Parameters<typeof validateUIMessages<UI_MESSAGE>>[0], 'messages'>;

/** Options of {@link createChatStore}. */
export interface ChatStoreOptions<UI_MESSAGE extends UIMessage = UIMessage> extends ChatValidation<UI_MESSAGE> {
  /** Store namespace of the chat rows. Default is `"ai-sdk-chats"`. */
  namespace?: string;
}

/** What {@link ChatStore.saveChat} did. */
export interface SaveResult {
  /** The chat's newest save after the call (`0` when the chat has none: an empty list saved to an empty chat). */
  save: number;
  /** False when the list was the stored chat already: nothing was written. */
  written: boolean;
  /** Messages of the stored chat that the list keeps, in order, from the first. */
  keep: number;
  /** Messages written after them. */
  added: number;
  /**
   * Messages of the stored chat the list does not keep: an edit, a regenerate, or another writer's
   * save that this one follows. They stay in the earlier save (see `chatHistory`). 0 for an append.
   */
  replaced: number;
}

/** One chat of the store. */
export interface ChatInfo {
  chatId: string;
  /** Messages in the chat now. */
  messages: number;
  /** Saves (checkpoints) of the chat. */
  saves: number;
  /** When the chat was last saved (RFC 3339, UTC). */
  updatedAt: string;
}

/** One save of a chat's history, oldest first in {@link ChatStore.chatHistory}. */
export interface ChatSave {
  /** From 1, dense. */
  save: number;
  /** Messages kept from the chat before this save. */
  keep: number;
  /** Ids of the messages this save added after them. */
  addedIds: string[];
  /** Ids of the messages of the chat before this save that it replaced (a fork when not empty). */
  replacedIds: string[];
  /** Messages in the chat after this save. */
  count: number;
  /** When the save was written (RFC 3339, UTC). */
  createdAt: string;
}

/** A chat store: the `loadChat`/`saveChat` pair the AI SDK leaves to the application, and more. */
export interface ChatStore<UI_MESSAGE extends UIMessage = UIMessage> {
  /** The store the chats are in. */
  readonly store: CheckpointStore;
  /** The store namespace of the chat rows. */
  readonly namespace: string;
  /**
   * The chat's messages after its newest save, each row verified on read, then checked by the AI
   * SDK's own `validateUIMessages` (with the store's schemas); `[]` for a chat never saved.
   *
   * @throws CheckpointIntegrityError when a row of the chat fails verification or a save is missing.
   */
  loadChat(chatId: string): Promise<UI_MESSAGE[]>;
  /**
   * Saves `messages` as the chat: one verified checkpoint (a save) holding only what changed.
   * A list that starts with the stored chat appends its new messages; the same list again writes
   * nothing. A list that differs from the stored chat at some message (an edited message, a
   * regenerated answer, or a list another writer had not seen) keeps the common start and replaces
   * the rest: the later save wins and the replaced messages stay in the earlier save, listed by
   * `chatHistory` (the result's `replaced` says how many). Messages are checked with
   * `validateUIMessages` before anything is written.
   *
   * Reads one row and hashes the list's messages (a memo skips messages seen before); only a list
   * that replaces messages reads the stored chat. Concurrent saves from several processes are
   * serialised: each is applied whole, after the other.
   *
   * @throws CheckpointValidationError (or the SDK's validation error) for messages that are not
   *   UI messages or cannot be stored as JSON; nothing is written.
   */
  saveChat(input: { chatId: string; messages: readonly UI_MESSAGE[] }): Promise<SaveResult>;
  /** The chats of the namespace, most recently saved first. */
  listChats(): Promise<ChatInfo[]>;
  /** Deletes every row of the chat (its whole history), in one transaction; resolves to the rows deleted. */
  deleteChat(chatId: string): Promise<number>;
  /** Every save of the chat, oldest first: what each kept, added and replaced. `[]` for a chat never saved. */
  chatHistory(chatId: string): Promise<ChatSave[]>;
  /** The chat as it was after save `save` (validated like `loadChat`). */
  chatAt(chatId: string, save: number): Promise<UI_MESSAGE[]>;
}

/** Attempts before a save that keeps losing races gives up (each loss means another writer won). */
const MAX_ATTEMPTS = 200;

/** Runs `attempt` again while it loses a race on the save number (each attempt is a whole transaction). */
async function retryRaces<T>(attempt: () => Promise<T>): Promise<T> {
  for (let tries = 1; ; tries++) {
    try {
      return await attempt();
    } catch (error) {
      if (!isCheckpointConflictError(error) || tries >= MAX_ATTEMPTS) throw error;
      await new Promise((resolve) => setTimeout(resolve, Math.random() * Math.min(50, 2 * tries)));
    }
  }
}

function checkChatId(chatId: unknown): string {
  if (typeof chatId !== 'string' || chatId === '') throw new CheckpointValidationError('chatId must be a non-empty string');
  return chatId;
}

const SAVE_METHODS = ['create', 'prepare', 'insertPreparedMany', 'listBySourceRefPrefix', 'findBySourceRef', 'findBySourceRefs', 'transaction'];

/**
 * A chat store over a session-checkpoint store: `loadChat`, `saveChat`, `listChats`, `deleteChat`,
 * `chatHistory` and `chatAt` for the AI SDK's `UIMessage[]`. Every save is a verified checkpoint
 * holding only the messages it adds, so saving a long chat costs what it adds, and edits and
 * regenerations are a history rather than overwrites.
 *
 * @example
 * ```ts
 * const chats = createChatStore(await openSqliteStore('./chats.sqlite'));
 * const messages = await chats.loadChat(chatId);
 * // ... streamText, then in toUIMessageStreamResponse's onFinish:
 * await chats.saveChat({ chatId, messages });
 * ```
 */
export function createChatStore<UI_MESSAGE extends UIMessage = UIMessage>(store: CheckpointStore, options: ChatStoreOptions<UI_MESSAGE> = {}): ChatStore<UI_MESSAGE> {
  const checked = storeArgument(store, { name: 'createChatStore', methods: SAVE_METHODS });
  const { namespace = AI_SDK_NAMESPACE, ...validation } = options;
  checked.prepare({ namespace, sessionId: 'x', payload: {} }); // a bad namespace fails here, not at the first save
  const validate = async (messages: unknown[]): Promise<UI_MESSAGE[]> => (messages.length === 0 ? [] : validateUIMessages<UI_MESSAGE>({ ...validation, messages } as Parameters<typeof validateUIMessages<UI_MESSAGE>>[0]));
  /** The stored JSON form of validated messages: what loadChat validates again, and what the hashes cover. */
  const storedForm = async (messages: unknown[]): Promise<unknown[]> => JSON.parse(JSON.stringify(await validate(messages))) as unknown[];

  return {
    store: checked,
    namespace,

    async loadChat(chatId) {
      return validate((await chatMessages(checked, namespace, checkChatId(chatId))).messages);
    },

    async saveChat(input) {
      const chatId = checkChatId(input?.chatId);
      if (!Array.isArray(input.messages)) throw new CheckpointValidationError('messages must be an array of UI messages');
      const { texts, hashes } = hashMessages(input.messages);
      const n = hashes.length;
      return retryRaces(() =>
        checked.transaction(async (tx): Promise<SaveResult> => {
          const [newest] = await tx.listBySourceRefPrefix({ namespace, prefix: savePrefix(chatId), descending: true, limit: 1 });
          const previous = newest === undefined ? undefined : savePayloadOf(chatId, newest);
          const count = previous?.count ?? 0;
          const save = previous?.save ?? 0;
          let keep: number;
          let kept: string[];
          let adds: unknown[];
          if (count <= n && tipOf(hashes.slice(0, count)) === (previous?.tip ?? '')) {
            // The list starts with the stored chat: append what follows (often nothing).
            if (count === n) return { save, written: false, keep: count, added: 0, replaced: 0 };
            keep = count;
            kept = hashes.slice(0, count);
            adds = await storedForm(texts.slice(keep).map((t) => JSON.parse(t) as unknown));
          } else {
            // The list differs from the stored chat: compare both in the stored (validated) form.
            const stored = (await chatMessages(tx, namespace, chatId)).messages.map((m, i) => canonicalText(m, i));
            const incoming = await storedForm(texts.map((t) => JSON.parse(t) as unknown));
            const incomingTexts = incoming.map((m, i) => canonicalText(m, i));
            keep = 0;
            while (keep < stored.length && keep < incoming.length && stored[keep] === incomingTexts[keep]) keep++;
            if (keep === stored.length && keep === incoming.length) return { save, written: false, keep, added: 0, replaced: 0 };
            kept = stored.slice(0, keep).map((t) => sha256Hex(t));
            adds = incoming.slice(keep);
          }
          const addTexts = adds.map((m, i) => canonicalText(m, keep + i));
          // The tip covers the stored form: the kept messages, then the added ones.
          const tip = tipOf([...kept, ...addTexts.map((t) => sha256Hex(t))]);
          await writeSave(tx, { namespace, chatId, save: save + 1, keep, count: keep + adds.length, tip, messages: adds, texts: addTexts });
          return { save: save + 1, written: true, keep, added: adds.length, replaced: count - keep };
        }),
      );
    },

    async listChats() {
      return (await aiSdkChats(checked, { namespace })).map((c) => ({ chatId: c.thread_id, messages: c.count, saves: c.saves, updatedAt: c.latest_created_at }));
    },

    async deleteChat(chatId) {
      const prefix = chatPrefix(checkChatId(chatId));
      return checked.transaction(async (tx) => {
        let deleted = 0;
        for (;;) {
          const page = await tx.listBySourceRefPrefix({ namespace, prefix, limit: 500 });
          if (page.length === 0) return deleted;
          deleted += (await tx.adapter.deleteRows(page.map((r) => r.id), namespace)).length;
        }
      });
    },

    async chatHistory(chatId) {
      const id = checkChatId(chatId);
      const saves = await decodeSaves(checked, namespace, id, await saveRows(checked, namespace, id));
      const out: ChatSave[] = [];
      let before: unknown[] = [];
      foldSaves(id, saves, (s, chat) => {
        const idOf = (m: unknown) => String((m as { id?: unknown }).id);
        out.push({ save: s.save, keep: s.keep, addedIds: s.messages.map(idOf), replacedIds: before.slice(s.keep).map(idOf), count: s.count, createdAt: s.row.createdAt });
        before = chat.slice();
      });
      return out;
    },

    async chatAt(chatId, save) {
      if (!Number.isSafeInteger(save) || save < 1) throw new CheckpointValidationError('save must be a positive integer');
      const { messages, save: found } = await chatMessages(checked, namespace, checkChatId(chatId), save);
      if (found !== save) throw new CheckpointValidationError(`chat ${JSON.stringify(chatId)} has ${found} saves, not ${save}`);
      return validate(messages);
    },
  };
}
