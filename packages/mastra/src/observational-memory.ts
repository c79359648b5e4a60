import { randomUUID } from 'node:crypto';
import { CheckpointIntegrityError, CheckpointValidationError, type Checkpoint, type CheckpointStore } from '@session-checkpoint/core';
import type {
  BufferedObservationChunk,
  CreateObservationalMemoryInput,
  CreateReflectionGenerationInput,
  ObservationalMemoryHistoryOptions,
  ObservationalMemoryRecord,
  SwapBufferedReflectionToActiveInput,
  SwapBufferedToActiveInput,
  SwapBufferedToActiveResult,
  UpdateActiveObservationsInput,
  UpdateBufferedObservationsInput,
  UpdateBufferedReflectionInput,
  UpdateObservationalMemoryConfigInput,
} from '@mastra/core/storage';
import { changesPrefix, changeRef, idRef, OM_KINDS, omLookupKey, recordPrefix, recordRef, GENERATIONS, type IdFields, type RecordFields, type StoredChunk, type StoredObservationalMemory } from './rows/observational-memory.js';
import { sessionOf } from './rows/refs.js';
import { valuesOf } from './rows/values.js';
import { inTransaction, LostRace, refAt, rowsByPrefix } from './store-rows.js';
import { deleteValueRows, jsonOf, putValue } from './value-writer.js';

export { OM_KINDS, OM_PREFIXES, omLookupKey, type StoredObservationalMemory } from './rows/observational-memory.js';

/*
 * Mastra's observational memory (OM) over the store: the rows are laid out in
 * rows/observational-memory.ts (a record row per record, its current version; a change row per
 * version; an id row), and each method here is one store transaction that reads (verified) and
 * writes them as Mastra's SQL adapters read and write their table's row.
 */

/** A date's ISO text, failing as Mastra's SQL adapters do (`toISOString` of a non-date throws). */
function iso(value: Date | undefined | null): string {
  return (value as Date).toISOString();
}

function dateOf(value: unknown): unknown {
  return typeof value === 'string' ? new Date(value) : value;
}

function chunkOut(chunk: StoredChunk): BufferedObservationChunk {
  return { ...chunk, lastObservedAt: dateOf(chunk.lastObservedAt), createdAt: dateOf(chunk.createdAt) } as BufferedObservationChunk;
}

/** A stored record as Mastra's type has it, read as @mastra/libsql's parseOMRow reads a row (dates as `Date`). */
export function recordOut(s: StoredObservationalMemory): ObservationalMemoryRecord {
  return {
    id: s.id,
    scope: s.scope as ObservationalMemoryRecord['scope'],
    threadId: s.threadId || null,
    resourceId: s.resourceId as string,
    createdAt: new Date(s.createdAt),
    updatedAt: new Date(s.updatedAt),
    lastObservedAt: s.lastObservedAt ? new Date(s.lastObservedAt) : undefined,
    originType: (s.originType || 'initial') as ObservationalMemoryRecord['originType'],
    generationCount: Number(s.generationCount || 0),
    activeObservations: s.activeObservations || '',
    bufferedObservationChunks: Array.isArray(s.bufferedObservationChunks) ? s.bufferedObservationChunks.map(chunkOut) : undefined,
    // Deprecated fields that Mastra's SQL adapters neither write nor read back.
    bufferedObservations: undefined,
    bufferedObservationTokens: undefined,
    bufferedMessageIds: undefined,
    bufferedReflection: s.bufferedReflection || undefined,
    bufferedReflectionTokens: s.bufferedReflectionTokens ? Number(s.bufferedReflectionTokens) : undefined,
    bufferedReflectionInputTokens: s.bufferedReflectionInputTokens ? Number(s.bufferedReflectionInputTokens) : undefined,
    reflectedObservationLineCount: s.reflectedObservationLineCount ? Number(s.reflectedObservationLineCount) : undefined,
    totalTokensObserved: Number(s.totalTokensObserved || 0),
    observationTokenCount: Number(s.observationTokenCount || 0),
    pendingMessageTokens: Number(s.pendingMessageTokens || 0),
    isReflecting: Boolean(s.isReflecting),
    isObserving: Boolean(s.isObserving),
    isBufferingObservation: s.isBufferingObservation === true || s.isBufferingObservation === 'true' || s.isBufferingObservation === 1,
    isBufferingReflection: s.isBufferingReflection === true || s.isBufferingReflection === 'true' || s.isBufferingReflection === 1,
    lastBufferedAtTokens: typeof s.lastBufferedAtTokens === 'number' ? s.lastBufferedAtTokens : parseInt(String(s.lastBufferedAtTokens ?? '0'), 10) || 0,
    lastBufferedAtTime: s.lastBufferedAtTime ? new Date(s.lastBufferedAtTime) : null,
    config: s.config ?? {},
    metadata: s.metadata ?? undefined,
    observedMessageIds: s.observedMessageIds ?? undefined,
    observedTimezone: s.observedTimezone || undefined,
  };
}

function notFound(id: string): Error {
  return new Error(`Observational memory record not found: ${id}`);
}

function checkGeneration(value: number): number {
  if (!Number.isSafeInteger(value) || value < 0 || value >= GENERATIONS) throw new CheckpointValidationError(`generationCount must be an integer from 0 to ${GENERATIONS - 1}, not ${String(value)}`);
  return value;
}

/** A record found by id: its row, its value and where it lives. */
interface Found {
  row: Checkpoint;
  record: StoredObservationalMemory;
  fields: RecordFields;
}

/**
 * The observational memory of Mastra's `memory` domain over a store: every method of
 * `MemoryStorage`'s OM interface, each write one transaction, each record version a row, each
 * read verified. {@link CheckpointMemoryStorage} delegates to it.
 */
export class ObservationalMemoryRows {
  /**
   * @param store - The store of the rows.
   * @param namespace - Their store namespace.
   * @param mergeConfig - Mastra's deep merge of a config (`MemoryStorage.deepMergeConfig`).
   */
  constructor(
    readonly store: CheckpointStore,
    readonly namespace: string,
    private readonly mergeConfig: (target: Record<string, unknown>, source: Record<string, unknown>) => Record<string, unknown>,
  ) {}

  // ---- rows -----------------------------------------------------------------------------------

  async #byId(reader: CheckpointStore, id: string): Promise<Found | undefined> {
    const index = await reader.findBySourceRef(this.namespace, idRef(id));
    if (index === undefined) return undefined;
    const { ref } = index.payload as unknown as IdFields;
    const row = await reader.findBySourceRef(this.namespace, ref);
    // Gone between the two reads: a clear committed in between (PostgreSQL reads each statement's
    // own snapshot). A lost race, retried by the caller's transaction; the retry finds no id row.
    if (row === undefined) throw new LostRace(`observational memory record ${id} was cleared by another writer`);
    const fields = row.payload as unknown as RecordFields | undefined;
    if (row.kind !== OM_KINDS.record || fields?.recordId !== id) {
      throw new CheckpointIntegrityError(`observational memory record ${id}: its row ${ref} is another record's`, { failures: [{ id: index.id, reason: 'record row altered' }] });
    }
    const [record] = (await valuesOf(reader, this.namespace, [row])) as [StoredObservationalMemory];
    return { row, record, fields };
  }

  /** The number of the next record of a key: one past the newest record's change rows (a ref read, unverified: only the number is taken). */
  async #nextRecordNumber(tx: CheckpointStore, lookupKey: string): Promise<number> {
    const newest = await refAt(tx, this.namespace, changesPrefix(lookupKey), 0, true);
    if (newest === undefined) return 1;
    const n = Number(newest.slice(changesPrefix(lookupKey).length).split('/')[0]);
    return Number.isSafeInteger(n) ? n + 1 : 1;
  }

  /** Writes version `version` of record `n`: the record row (replacing `previous`) and its change row. */
  async #write(tx: CheckpointStore, record: StoredObservationalMemory, n: number, version: number, op: string, change: unknown, previous: Checkpoint | undefined): Promise<void> {
    if (previous) await deleteValueRows(tx, this.namespace, [previous]);
    const sessionId = sessionOf(record.threadId || record.resourceId || '');
    const generation = checkGeneration(record.generationCount);
    const ref = recordRef(record.lookupKey, generation, n);
    const fields: RecordFields = { recordId: record.id, lookupKey: record.lookupKey, generationCount: generation, n, version, createdAt: record.createdAt };
    await putValue(tx, { namespace: this.namespace, sessionId, kind: OM_KINDS.record, name: 'observational memory', ref, fields: { ...fields }, value: record });
    await putValue(tx, { namespace: this.namespace, sessionId, kind: OM_KINDS.change, name: op, ref: changeRef(record.lookupKey, n, version), fields: { recordId: record.id, n, version, op, at: record.updatedAt }, value: change });
    if (previous === undefined) {
      const id: IdFields = { recordId: record.id, lookupKey: record.lookupKey, ref };
      await tx.create({ namespace: this.namespace, sessionId, kind: OM_KINDS.id, name: 'observational memory id', payload: { ...id }, sourceRef: idRef(record.id) });
    }
  }

  /** Adds a new record (its first version) in the caller's transaction. */
  async #add(tx: CheckpointStore, record: StoredObservationalMemory, op: string): Promise<void> {
    if (await tx.findBySourceRef(this.namespace, idRef(record.id))) throw new Error(`Observational memory record ${record.id} already exists`);
    await this.#write(tx, record, await this.#nextRecordNumber(tx, record.lookupKey), 1, op, record, undefined);
  }

  /**
   * Updates a record by id in one transaction: `change` gives the fields to set (nothing written
   * when it gives `undefined`) or throws; the result is the record's next version.
   */
  async #update<T>(id: string, op: string, change: (record: StoredObservationalMemory) => { set: Partial<StoredObservationalMemory>; result: T } | { set?: undefined; result: T }): Promise<T> {
    return inTransaction(this.store, async (tx) => {
      const found = await this.#byId(tx, id);
      if (!found) throw notFound(id);
      const { set, result } = change(found.record);
      if (set === undefined) return result;
      const patch = jsonOf(set, `update of observational memory record ${id}`) as Partial<StoredObservationalMemory>;
      // JSON leaves out an `undefined` member: the update sets it to null, as an SQL column.
      for (const key of Object.keys(set)) if (!(key in patch)) (patch as Record<string, unknown>)[key] = null;
      const next = { ...found.record, ...patch };
      await this.#write(tx, next, found.fields.n, found.fields.version + 1, op, patch, found.row);
      return result;
    });
  }

  /** The records of a key, newest generation first, verified. */
  async #records(lookupKey: string, limit?: number): Promise<Checkpoint[]> {
    return rowsByPrefix(this.store, this.namespace, recordPrefix(lookupKey), { kind: OM_KINDS.record, ...(limit === undefined ? {} : { limit }) });
  }

  /** A new reflection generation's record, made from `current` as Mastra's SQL adapters make it. */
  #reflection(current: ObservationalMemoryRecord, reflection: string, tokenCount: number, now: string): StoredObservationalMemory {
    return newRecord(current, now, {
      activeObservations: reflection,
      originType: 'reflection',
      generationCount: checkGeneration(current.generationCount + 1),
      lastObservedAt: current.lastObservedAt ? iso(current.lastObservedAt) : null,
      totalTokensObserved: current.totalTokensObserved,
      observationTokenCount: tokenCount,
      metadata: current.metadata ?? null,
    });
  }

  // ---- reads ----------------------------------------------------------------------------------

  /** The current record of a thread's (or a resource's) OM: its newest generation. */
  async get(threadId: string | null, resourceId: string): Promise<ObservationalMemoryRecord | null> {
    const [row] = await this.#records(omLookupKey(threadId, resourceId), 1);
    if (row === undefined) return null;
    const [record] = (await valuesOf(this.store, this.namespace, [row])) as [StoredObservationalMemory];
    return recordOut(record);
  }

  /**
   * The records (generations) of a thread's or resource's OM, newest first: `limit` of them (10
   * when absent, as Mastra's SQL adapters; a negative limit is none), created within
   * `options.from`/`options.to`, after `options.offset`.
   */
  async history(threadId: string | null, resourceId: string, limit = 10, options: ObservationalMemoryHistoryOptions = {}): Promise<ObservationalMemoryRecord[]> {
    let rows = await this.#records(omLookupKey(threadId, resourceId));
    const created = (row: Checkpoint) => new Date((row.payload as unknown as RecordFields).createdAt).getTime();
    if (options.from) {
      const from = options.from.getTime();
      rows = rows.filter((r) => created(r) >= from);
    }
    if (options.to) {
      const to = options.to.getTime();
      rows = rows.filter((r) => created(r) <= to);
    }
    const offset = options.offset != null ? Math.max(0, Math.trunc(options.offset)) : 0;
    const count = limit === null || limit < 0 ? rows.length : Math.trunc(limit);
    rows = rows.slice(offset, offset + count);
    return ((await valuesOf(this.store, this.namespace, rows)) as StoredObservationalMemory[]).map(recordOut);
  }

  // ---- writes ---------------------------------------------------------------------------------

  /** Starts a new record (generation 0) for a thread or resource. */
  async initialize(input: CreateObservationalMemoryInput): Promise<ObservationalMemoryRecord> {
    const now = new Date().toISOString();
    const record = newRecord(input, now, { activeObservations: '', originType: 'initial', generationCount: 0, lastObservedAt: null, totalTokensObserved: 0, observationTokenCount: 0, metadata: null });
    if (record.config == null) throw new CheckpointValidationError('an observational memory record needs a config');
    await inTransaction(this.store, (tx) => this.#add(tx, record, 'initialize'));
    return recordOut(record);
  }

  /** Inserts a whole record (Mastra's thread cloning copies OM with it); its id must be new. */
  async insert(input: ObservationalMemoryRecord): Promise<void> {
    if (!input.config) throw new CheckpointValidationError(`observational memory record ${input.id} has no config`);
    if (input.scope == null) throw new CheckpointValidationError(`observational memory record ${input.id} has no scope`);
    const record = jsonOf({
      id: input.id,
      lookupKey: omLookupKey(input.threadId, input.resourceId),
      scope: input.scope,
      resourceId: input.resourceId ?? null,
      threadId: input.threadId || null,
      activeObservations: input.activeObservations || '',
      originType: input.originType || 'initial',
      config: input.config,
      generationCount: input.generationCount || 0,
      lastObservedAt: input.lastObservedAt ? iso(input.lastObservedAt) : null,
      pendingMessageTokens: input.pendingMessageTokens || 0,
      totalTokensObserved: input.totalTokensObserved || 0,
      observationTokenCount: input.observationTokenCount || 0,
      observedMessageIds: input.observedMessageIds || null,
      bufferedObservationChunks: input.bufferedObservationChunks || null,
      bufferedReflection: input.bufferedReflection || null,
      bufferedReflectionTokens: input.bufferedReflectionTokens ?? null,
      bufferedReflectionInputTokens: input.bufferedReflectionInputTokens ?? null,
      reflectedObservationLineCount: input.reflectedObservationLineCount ?? null,
      isObserving: input.isObserving || false,
      isReflecting: input.isReflecting || false,
      isBufferingObservation: input.isBufferingObservation || false,
      isBufferingReflection: input.isBufferingReflection || false,
      lastBufferedAtTokens: input.lastBufferedAtTokens || 0,
      lastBufferedAtTime: input.lastBufferedAtTime ? iso(input.lastBufferedAtTime) : null,
      observedTimezone: input.observedTimezone || null,
      metadata: input.metadata || null,
      createdAt: iso(input.createdAt),
      updatedAt: iso(input.updatedAt),
    }, `observational memory record ${input.id}`) as StoredObservationalMemory;
    checkGeneration(record.generationCount);
    await inTransaction(this.store, (tx) => this.#add(tx, record, 'insert'));
  }

  /** Replaces the active observations (observed and activated at once). */
  async updateActive(input: UpdateActiveObservationsInput): Promise<void> {
    const lastObservedAt = iso(input.lastObservedAt);
    await this.#update(input.id, 'updateActiveObservations', (r) => ({
      set: {
        activeObservations: input.observations,
        lastObservedAt,
        pendingMessageTokens: 0,
        observationTokenCount: input.tokenCount,
        totalTokensObserved: Number(r.totalTokensObserved || 0) + input.tokenCount,
        // Not given: cleared, as Mastra's SQL adapters set the column.
        observedMessageIds: input.observedMessageIds ? input.observedMessageIds : null,
        updatedAt: new Date().toISOString(),
      },
      result: undefined,
    }));
  }

  /** Adds a buffered chunk (none when a chunk of the same cycle is there). */
  async updateBuffered(input: UpdateBufferedObservationsInput): Promise<void> {
    const lastBufferedAtTime = input.lastBufferedAtTime ? iso(input.lastBufferedAtTime) : undefined;
    await this.#update(input.id, 'updateBufferedObservations', (r) => {
      const chunks = Array.isArray(r.bufferedObservationChunks) ? r.bufferedObservationChunks : [];
      if (chunks.some((c) => c.cycleId === input.chunk.cycleId)) return { result: undefined };
      const { chunk } = input;
      const added = {
        id: `ombuf-${randomUUID()}`,
        cycleId: chunk.cycleId,
        observations: chunk.observations,
        tokenCount: chunk.tokenCount,
        messageIds: chunk.messageIds,
        messageTokens: chunk.messageTokens,
        lastObservedAt: chunk.lastObservedAt,
        createdAt: new Date(),
        suggestedContinuation: chunk.suggestedContinuation,
        currentTask: chunk.currentTask,
        threadTitle: chunk.threadTitle,
        extractedValues: chunk.extractedValues,
        extractionFailures: chunk.extractionFailures,
      };
      return { set: { bufferedObservationChunks: jsonOf([...chunks, added], 'buffered observations') as StoredChunk[], ...(lastBufferedAtTime === undefined ? {} : { lastBufferedAtTime }), updatedAt: new Date().toISOString() }, result: undefined };
    });
  }

  /**
   * Moves buffered chunks to the active observations, as many as Mastra's activation rule picks
   * (`input.bufferedChunks`, when given, in place of the stored chunks, as the interface says);
   * the stored chunks not activated stay buffered.
   */
  async swapBufferedToActive(input: SwapBufferedToActiveInput): Promise<SwapBufferedToActiveResult> {
    const none: SwapBufferedToActiveResult = { chunksActivated: 0, messageTokensActivated: 0, observationTokensActivated: 0, messagesActivated: 0, activatedCycleIds: [], activatedMessageIds: [] };
    return this.#update(input.id, 'swapBufferedToActive', (r) => {
      const stored = Array.isArray(r.bufferedObservationChunks) ? r.bufferedObservationChunks.map(chunkOut) : [];
      const chunks = Array.isArray(input.bufferedChunks) ? input.bufferedChunks : stored;
      if (chunks.length === 0) return { result: none };
      // Mastra's activation rule, as its adapters have it: the fewest chunks that bring the
      // pending tokens down to the retention floor without overshooting it by much.
      const retentionFloor = input.messageTokensThreshold * (1 - input.activationRatio);
      const target = Math.max(0, input.currentPendingTokens - retentionFloor);
      let cumulative = 0;
      let overBoundary = 0;
      let overTokens = 0;
      let underBoundary = 0;
      let underTokens = 0;
      for (let i = 0; i < chunks.length; i++) {
        cumulative += (chunks[i] as BufferedObservationChunk).messageTokens ?? 0;
        if (cumulative >= target) {
          if (overBoundary === 0 || cumulative < overTokens) {
            overBoundary = i + 1;
            overTokens = cumulative;
          }
        } else if (cumulative > underTokens) {
          underBoundary = i + 1;
          underTokens = cumulative;
        }
      }
      const minRemaining = Math.min(1e3, retentionFloor);
      const remainingAfterOver = input.currentPendingTokens - overTokens;
      let take: number;
      if (input.forceMaxActivation && overBoundary > 0 && remainingAfterOver >= minRemaining) take = overBoundary;
      else if (overBoundary > 0 && overTokens - target <= retentionFloor * 0.95 && remainingAfterOver >= minRemaining) take = overBoundary;
      else if (underBoundary > 0 && input.currentPendingTokens - underTokens >= minRemaining) take = underBoundary;
      else if (overBoundary > 0) take = overBoundary;
      else take = 1;
      const activated = chunks.slice(0, take);
      // What stays buffered is what the record holds now less what was activated: given chunks
      // are the caller's reading of the record (Mastra passes the chunks it read just before), and
      // a chunk buffered since (async buffering, another process) must not be dropped by it.
      const activatedIds = new Set(activated.map((c) => c.id));
      const remaining = stored.filter((c) => !activatedIds.has(c.id));
      const content = activated.map((c) => c.observations).join('\n\n');
      const tokens = activated.reduce((sum, c) => sum + c.tokenCount, 0);
      const messageTokens = activated.reduce((sum, c) => sum + (c.messageTokens ?? 0), 0);
      const latest = activated[activated.length - 1];
      const lastObservedAt = input.lastObservedAt ?? (latest?.lastObservedAt ? new Date(latest.lastObservedAt) : new Date());
      const active = r.activeObservations ? `${r.activeObservations}\n\n--- message boundary (${lastObservedAt.toISOString()}) ---\n\n${content}` : content;
      return {
        set: {
          activeObservations: active,
          observationTokenCount: Number(r.observationTokenCount || 0) + tokens,
          pendingMessageTokens: Math.max(0, Number(r.pendingMessageTokens || 0) - messageTokens),
          bufferedObservationChunks: remaining.length > 0 ? (jsonOf(remaining, 'buffered observations') as StoredChunk[]) : null,
          lastObservedAt: lastObservedAt.toISOString(),
          updatedAt: new Date().toISOString(),
        },
        result: {
          chunksActivated: activated.length,
          messageTokensActivated: messageTokens,
          observationTokensActivated: tokens,
          messagesActivated: activated.reduce((sum, c) => sum + c.messageIds.length, 0),
          activatedCycleIds: activated.map((c) => c.cycleId).filter((id) => !!id),
          activatedMessageIds: activated.flatMap((c) => c.messageIds ?? []),
          observations: content,
          perChunk: activated.map((c) => ({ cycleId: c.cycleId ?? '', messageTokens: c.messageTokens ?? 0, observationTokens: c.tokenCount, messageCount: c.messageIds.length, observations: c.observations })),
          suggestedContinuation: latest?.suggestedContinuation ?? undefined,
          currentTask: latest?.currentTask ?? undefined,
        },
      };
    });
  }

  /** A new generation whose active observations are `reflection`, made from `input.currentRecord` (as given). */
  async createReflectionGeneration(input: CreateReflectionGenerationInput): Promise<ObservationalMemoryRecord> {
    const record = this.#reflection(input.currentRecord, input.reflection, input.tokenCount, new Date().toISOString());
    await inTransaction(this.store, (tx) => this.#add(tx, record, 'createReflectionGeneration'));
    return recordOut(record);
  }

  /** Appends to the buffered reflection of a record. */
  async updateBufferedReflection(input: UpdateBufferedReflectionInput): Promise<void> {
    await this.#update(input.id, 'updateBufferedReflection', (r) => ({
      set: {
        bufferedReflection: r.bufferedReflection ? `${r.bufferedReflection}\n\n${input.reflection}` : input.reflection,
        bufferedReflectionTokens: Number(r.bufferedReflectionTokens ?? 0) + input.tokenCount,
        bufferedReflectionInputTokens: Number(r.bufferedReflectionInputTokens ?? 0) + input.inputTokenCount,
        reflectedObservationLineCount: input.reflectedObservationLineCount,
        updatedAt: new Date().toISOString(),
      },
      result: undefined,
    }));
  }

  /**
   * A new generation from the stored buffered reflection and the observations made after it
   * began, and the buffered reflection cleared from the record: one transaction.
   *
   * @throws Error when the record is not found or has no buffered reflection.
   */
  async swapBufferedReflectionToActive(input: SwapBufferedReflectionToActiveInput): Promise<ObservationalMemoryRecord> {
    const id = input.currentRecord.id;
    return inTransaction(this.store, async (tx) => {
      const found = await this.#byId(tx, id);
      if (!found) throw notFound(id);
      const { record: r } = found;
      const buffered = r.bufferedReflection || '';
      if (!buffered) throw new Error('No buffered reflection to swap');
      const unreflected = (r.activeObservations || '').split('\n').slice(Number(r.reflectedObservationLineCount || 0)).join('\n').trim();
      const now = new Date().toISOString();
      // Made from the record as given, as Mastra's SQL adapters make it.
      const next = this.#reflection(input.currentRecord, unreflected ? `${buffered}\n\n${unreflected}` : buffered, input.tokenCount, now);
      await this.#add(tx, next, 'swapBufferedReflectionToActive');
      const patch = { bufferedReflection: null, bufferedReflectionTokens: null, bufferedReflectionInputTokens: null, reflectedObservationLineCount: null, updatedAt: now };
      await this.#write(tx, { ...r, ...patch }, found.fields.n, found.fields.version + 1, 'swapBufferedReflectionToActive', patch, found.row);
      return recordOut(next);
    });
  }

  /** Sets one flag of a record (and, for observation buffering, the tokens it began at). */
  async setFlag(id: string, flag: 'isReflecting' | 'isObserving' | 'isBufferingObservation' | 'isBufferingReflection', value: boolean, lastBufferedAtTokens?: number): Promise<void> {
    await this.#update(id, `set ${flag}`, () => ({ set: { [flag]: value, ...(lastBufferedAtTokens === undefined ? {} : { lastBufferedAtTokens }), updatedAt: new Date().toISOString() }, result: undefined }));
  }

  /** Sets the pending message tokens of a record. */
  async setPendingMessageTokens(id: string, tokenCount: number): Promise<void> {
    await this.#update(id, 'setPendingMessageTokens', () => ({ set: { pendingMessageTokens: tokenCount, updatedAt: new Date().toISOString() }, result: undefined }));
  }

  /** Deep-merges `input.config` into a record's config. */
  async updateConfig(input: UpdateObservationalMemoryConfigInput): Promise<void> {
    await this.#update(input.id, 'updateObservationalMemoryConfig', (r) => ({ set: { config: this.mergeConfig(r.config ?? {}, input.config), updatedAt: new Date().toISOString() }, result: undefined }));
  }

  /** Removes every record of a thread's or resource's OM, with their versions. */
  async clear(threadId: string | null, resourceId: string): Promise<void> {
    const lookupKey = omLookupKey(threadId, resourceId);
    await inTransaction(this.store, async (tx) => {
      const records = await rowsByPrefix(tx, this.namespace, recordPrefix(lookupKey));
      const ids = records.length === 0 ? [] : await tx.findBySourceRefs(this.namespace, records.map((r) => idRef((r.payload as unknown as RecordFields).recordId)));
      const changes = await rowsByPrefix(tx, this.namespace, changesPrefix(lookupKey));
      await deleteValueRows(tx, this.namespace, [...records, ...ids, ...changes]);
    });
  }
}

/**
 * A new record (a first generation, or a reflection's next one) with nothing observed, buffered or
 * flagged yet, as Mastra's SQL adapters start one; `generation` gives what differs between the two.
 */
function newRecord(
  owner: { threadId: string | null; resourceId: string; scope: ObservationalMemoryRecord['scope']; config: unknown; observedTimezone?: string | undefined },
  now: string,
  generation: Pick<StoredObservationalMemory, 'activeObservations' | 'originType' | 'generationCount' | 'lastObservedAt' | 'totalTokensObserved' | 'observationTokenCount' | 'metadata'>,
): StoredObservationalMemory {
  return jsonOf({
    id: randomUUID(),
    lookupKey: omLookupKey(owner.threadId, owner.resourceId),
    scope: owner.scope,
    resourceId: owner.resourceId ?? null,
    threadId: owner.threadId || null,
    activeObservations: generation.activeObservations,
    originType: generation.originType,
    config: owner.config,
    generationCount: generation.generationCount,
    lastObservedAt: generation.lastObservedAt,
    pendingMessageTokens: 0,
    totalTokensObserved: generation.totalTokensObserved,
    observationTokenCount: generation.observationTokenCount,
    observedMessageIds: null,
    bufferedObservationChunks: null,
    bufferedReflection: null,
    bufferedReflectionTokens: null,
    bufferedReflectionInputTokens: null,
    reflectedObservationLineCount: null,
    isObserving: false,
    isReflecting: false,
    isBufferingObservation: false,
    isBufferingReflection: false,
    lastBufferedAtTokens: 0,
    lastBufferedAtTime: null,
    observedTimezone: owner.observedTimezone || null,
    metadata: generation.metadata,
    createdAt: now,
    updatedAt: now,
  }, 'observational memory record') as StoredObservationalMemory;
}
