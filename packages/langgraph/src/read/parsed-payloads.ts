import type { Checkpoint as StoredRow, CheckpointStore, JsonObject } from '@session-checkpoint/core';
import { TwoGenerationCache } from '@session-checkpoint/core/toolkit';

/*
 * An agent loop reads the same rows at every step: DeltaChannel's history (the writes of every
 * checkpoint since the last snapshot), a growing list's pieces, a snapshot split into part rows.
 * The store verifies every one of them at every read (SHA-256 and canonical form, or a full
 * comparison with a text it verified before); what it then hands over is the text, which the
 * saver parsed again at each read, and whose messages it turned back into text for LangChain's
 * `load` (`JSON.stringify` per message): together about a sixth of a long chat's CPU time
 * (docs/decisions/0037).
 *
 * This memo keeps, for rows read again, the parsed payload by the row's verified text: a row whose
 * text is equal, in full, to a text kept here takes the payload parsed from it (parsing is a pure
 * function of the text), and each message of it keeps its JSON text for `load`. Content, not
 * identity: a row that differs by one character is parsed afresh, and nothing skips the store's
 * verification, which runs before the row gets here. As the store's own memo
 * (core's VerifiedPayloads), a payload is kept from its second read on, so a history browsed once
 * leaves no long-lived garbage.
 *
 * A kept payload serves every later read, so it must never change: the readers hand out copies of
 * its plain JSON (see {@link ParsedPayloads.shares}), and messages are revived from text, which
 * builds new objects. (The content check of a put may put an equal string in place of one of its
 * strings, write/capture.ts: the same text, which no reader can tell apart.) read/parsed-payloads.test.ts compares reads with and without the memo over
 * generated chats whose handed-out values are edited in place.
 */

/** The store reads the saver's read path makes: the store itself, or the same reads through a {@link ParsedPayloads}. */
export type RowReads = Pick<CheckpointStore, 'listBySourceRefPrefix' | 'findBySourceRef' | 'findBySourceRefs'>;

/** Hashes noted as read once (in two generations of this many): a row read again within this many first reads is kept. */
const SEEN_ONCE_GENERATION = 8192;

/**
 * Parsed payloads of rows read again, by the row's text (see the comment at the top of this file),
 * bounded by the total length of their texts in UTF-16 code units.
 *
 * @example
 * ```ts
 * const memo = new ParsedPayloads(16 * 1024 * 1024);
 * const reads = memo.reads(store); // listBySourceRefPrefix, findBySourceRef(s) through the memo
 * memo.shares(row.payload);        // true once the payload serves later reads: copy before handing out
 * ```
 */
export class ParsedPayloads {
  readonly #kept: TwoGenerationCache<string, { text: string; payload: JsonObject }>;
  readonly #seenOnce = new TwoGenerationCache<string, true>(2 * SEEN_ONCE_GENERATION);
  /** Every payload ever kept (it may still be held by a reader after it leaves the memo). */
  readonly #shared = new WeakSet<object>();
  /** `JSON.stringify` of items of kept payloads, which never change. */
  readonly #texts = new WeakMap<object, string>();

  /** @param budget total UTF-16 code units of the texts whose payloads are kept; `0` keeps none. */
  constructor(readonly budget: number) {
    this.#kept = new TwoGenerationCache(budget, (entry) => entry.text.length);
  }

  /**
   * The row with its payload: the kept one when its verified text equals the kept text in full,
   * else parsed from its own text (and kept, from the row's second read on).
   */
  row(row: StoredRow): StoredRow {
    if (this.budget === 0) return row;
    const sha = row.payloadSha256;
    const kept = this.#kept.get(sha);
    if (kept !== undefined) {
      if (kept.text !== row.payloadJson) return row;
      return { id: row.id, namespace: row.namespace, sessionId: row.sessionId, kind: row.kind, name: row.name, payload: kept.payload, payloadJson: row.payloadJson, payloadSha256: sha, createdAt: row.createdAt, sourceRef: row.sourceRef };
    }
    if (row.payloadJson.length > this.budget / 2) return row;
    if (!this.#seenOnce.delete(sha)) {
      this.#seenOnce.set(sha, true);
      return row;
    }
    // Read again: parse it now and keep it; from here on it is shared (so is this read's).
    const payload = row.payload;
    this.#shared.add(payload);
    this.#kept.set(sha, { text: row.payloadJson, payload });
    return row;
  }

  /** True when `payload` (a row's parsed payload) serves other reads too: what it holds goes out as copies only. */
  shares(payload: object): boolean {
    return this.#shared.has(payload);
  }

  /** `JSON.stringify(item)` for an item of a shared payload, kept with the item (it never changes). */
  textOf(item: object): string {
    let text = this.#texts.get(item);
    if (text === undefined) this.#texts.set(item, (text = JSON.stringify(item)));
    return text;
  }

  /** The read calls of `store`, each row passed through {@link row}. */
  reads(store: RowReads): RowReads {
    return {
      listBySourceRefPrefix: async (query) => (await store.listBySourceRefPrefix(query)).map((r) => this.row(r)),
      findBySourceRef: async (namespace, sourceRef) => {
        const r = await store.findBySourceRef(namespace, sourceRef);
        return r === undefined ? undefined : this.row(r);
      },
      findBySourceRefs: async (namespace, refs) => (await store.findBySourceRefs(namespace, refs)).map((r) => this.row(r)),
    };
  }
}
