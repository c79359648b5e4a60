import { AIMessage, HumanMessage, ToolMessage, type BaseMessage } from '@langchain/core/messages';
import type { RunnableConfig } from '@langchain/core/runnables';
import {
  ERROR,
  INTERRUPT,
  MemorySaver,
  RESUME,
  maxChannelVersion,
  type ChannelVersions,
  type Checkpoint,
  type CheckpointListOptions,
  type CheckpointMetadata,
  type CheckpointTuple,
  type PendingWrite,
} from '@langchain/langgraph-checkpoint';
import { CheckpointStore, Keyring, MemoryAdapter } from '@session-checkpoint/core';
import { openPostgresStore, openSqliteStore } from '@session-checkpoint/store-kysely';
import fc from 'fast-check';
import { join } from 'node:path';
import { SessionCheckpointSaver } from '../index.js';
import { dropSchema, PG_URL, tempDir, uniqueSchema } from './backends.js';

/*
 * A differential oracle: random operation sequences run against SessionCheckpointSaver and
 * LangGraph's MemorySaver side by side, and every getTuple and list answer of ours must equal
 * MemorySaver's (see `normalTuple` for what is normalised and why). The operations are plain JSON
 * descriptors interpreted by `runOracle`, so fast-check shrinks them and a counterexample can be
 * pasted into a fixed regression test as it is printed.
 */

/**
 * Known-bug switches of the generators. Each is `true` when the operations it gates are generated.
 * The property tests pass on a saver without the bug with every switch on; a switch turned off
 * means the saver still has that bug (its regression test is an `it.fails`).
 */
export const ORACLE_FLAGS = {
  /**
   * In-place mutations: an item of a list (a message or a JSON object) changed in place, an item
   * pushed onto the same array, a profile object changed in place, then put again with the
   * channel's version bumped. Was off on main 4db3f23, where the saver kept the JSON it stored for
   * the same object (issue 28, defect 1); on since puts check content.
   */
  INPLACE_MUTATIONS: true,
  /**
   * A task writing again to a checkpoint it wrote to, with a value over the row limit (so the
   * merged row splits). Off on main 4db3f23: putWrites' first `fitRow` moves the value into parts
   * it never inserts (the merge reuses the changed writes), so the next read fails closed with
   * "part ... is missing". On since the first attempt fits a copy of the writes.
   */
  MERGED_SPLIT_WRITES: true,
  /**
   * A put repeated with the same arguments (a retry after a lost answer) by a new saver (after a
   * restart: a retry from another process) or after retention pruned its parent. Off on main
   * 4db3f23: the row the retry builds depends on what the saver knows (the parent's list state in
   * its cache, the parent row still there), so it lays the same checkpoint out otherwise (a list
   * in full instead of the appended items, a carried value in full instead of a link) and refuses
   * it with CheckpointConflictError "already exists with other content". With the switch off,
   * only repeats by the same saver without retention are generated. On since a repeated put
   * compares what the stored row rebuilds to, not its bytes (write/rows.ts, checkRepeat).
   */
  REPEATED_PUTS: true,
};

/** The row limit of the oracle's stores: small, so values of a few dozen KB go to part rows. */
export const ORACLE_MAX_PAYLOAD_BYTES = 16_384;

/** A (thread, checkpoint_ns) the operations work on; thread t0 has a subgraph namespace too. */
export const LANES = [
  { thread: 't0', ns: '' },
  { thread: 't0', ns: 'sub' },
  { thread: 't1', ns: '' },
] as const;
const THREADS = ['t0', 't1'] as const;

/** The list channels an edit works on. */
export type ListChannel = 'messages' | 'items';

/** One change to the values of the parent, making the values of the new checkpoint. */
export type Edit =
  /** Appends `n` messages (human, AI with a tool call, tool), each of `size` extra characters. */
  | { e: 'appendMessages'; n: number; size: number }
  /** Appends `n` JSON items of `size` extra characters. */
  | { e: 'appendItems'; n: number; size: number }
  /** Changes the text of item `at` in place (the same object; the list is a new array). */
  | { e: 'mutate'; ch: ListChannel; at: number; text: string }
  /** Pushes a new JSON item onto the same array object (the list is changed in place). */
  | { e: 'pushInPlace'; text: string }
  /** Replaces item `at` by a new object with the same id and other text (same length). */
  | { e: 'replace'; ch: ListChannel; at: number; text: string }
  /** Removes item `at`. */
  | { e: 'remove'; ch: ListChannel; at: number }
  /** Reverses, swaps the first and last, or rotates the list by one. */
  | { e: 'reorder'; ch: ListChannel; how: 'reverse' | 'swap' | 'rotate' }
  /** Sets a profile field: on the same object (`inPlace`) or on a copy. */
  | { e: 'profile'; key: 'name' | 'counter' | 'note'; value: string | number; inPlace: boolean }
  /** Removes the channel from the values (its version is bumped, as for an emptied channel). */
  | { e: 'clear'; ch: ListChannel | 'profile' | 'blob' }
  /** Sets the `blob` channel to a string of `size` characters (over the row limit when large). */
  | { e: 'blob'; size: number; text: string }
  /** Sets the `misc` channel to values JsonPlusSerializer revives: Date, Set, Map, bytes, undefined. */
  | { e: 'misc'; text: string; n: number };

/** Where the values the edits start from come from. */
export type Source =
  /** The very objects of the lane's last put (a running graph's state); else as `memory`. */
  | 'live'
  /** MemorySaver's getTuple of the parent (fresh objects, as after a restart). */
  | 'memory'
  /** Our saver's getTuple of the parent (the objects it hands out, compared with MemorySaver's). */
  | 'ours';

/** A value of a pending write. */
export type WriteValue = 'json' | 'message' | 'big' | 'interrupt';

/** One operation of a sequence. `at`-like numbers pick modulo the candidates. */
export type Op =
  /** A new checkpoint on `lane` whose parent is the `parent`-th newest alive one (a fork when > 0). */
  | { op: 'put'; lane: number; parent: number; source: Source; root: boolean; edits: Edit[]; md: 'loop' | 'input' | 'update' }
  /** Pending writes of `task` on a checkpoint put on `lane` (alive or deleted). */
  | { op: 'writes'; lane: number; at: number; task: string; writes: [string, WriteValue][] }
  | { op: 'delete'; thread: number }
  /** The lane's last put again, with the same arguments (a retry after a lost answer), by our saver or a new one (another process). */
  | { op: 'repeat'; lane: number; fresh?: boolean }
  /**
   * getTuple of the latest (`at` null), of a checkpoint put on `lane`, or of an id never put (`at`
   * -1); with `scribble`, the caller then changes the values it got in place (as a graph does with
   * the state it loads), which must change nothing stored.
   */
  | { op: 'get'; lane: number; at: number | null; fresh: boolean; scribble: boolean }
  /** list of one lane (with limit/before/filter), of a whole thread, or of everything. */
  | { op: 'list'; scope: 'lane' | 'thread' | 'all'; lane: number; limit: number | null; before: number | null; filter: 'source' | 'step' | null; fresh: boolean }
  /** Our saver is replaced by a new one over the same store (its caches are gone). */
  | { op: 'restart' };

/** How our saver is made: options passed to every SessionCheckpointSaver of a run. */
export interface OracleOptions {
  /** Retention of our saver; then answers must be a subset of MemorySaver's, never a wrong one. */
  maxCheckpointsPerThread?: number;
  /** The snapshot rule (0: every list in full; small: snapshots often; default 4). */
  snapshotRatio?: number;
  /** Unchanged values repeated in a row up to this size (0: always linked). */
  inlineCarriedBytes?: number;
}

/** Saver layouts: lists in full, snapshots often or rarely; carried values linked or repeated. */
export const layoutArb: fc.Arbitrary<Pick<OracleOptions, 'snapshotRatio' | 'inlineCarriedBytes'>> = fc.record({
  snapshotRatio: fc.constantFrom(0, 0.05, 4),
  inlineCarriedBytes: fc.constantFrom(0, 4096),
});

/**
 * The task path of each task id. In LangGraph a task's id is derived from its path, so one task
 * always writes with the same path; ours keeps one path per (checkpoint, task) row, MemorySaver one
 * per write, and a task id reused with another path (which LangGraph never does) orders the
 * writes differently. So the path is a function of the task here.
 */
const TASK_PATHS: Record<string, string> = { 'task-a': '', 'task-b': '~__pregel_pull, agent', 'task-c': '~__pregel_push, 0' };

// ---------------------------------------------------------------- generators

const text = fc.string({ unit: 'grapheme', maxLength: 8 });
/** Mostly small, sometimes over the row limit (ORACLE_MAX_PAYLOAD_BYTES). */
const size = fc.oneof({ weight: 12, arbitrary: fc.integer({ min: 0, max: 200 }) }, { weight: 1, arbitrary: fc.integer({ min: 17_000, max: 40_000 }) });
const listChannel = fc.constantFrom<ListChannel>('messages', 'items');

function editArb(flags: typeof ORACLE_FLAGS): fc.Arbitrary<Edit> {
  const safe: fc.Arbitrary<Edit>[] = [
    fc.record({ e: fc.constant('appendMessages' as const), n: fc.integer({ min: 1, max: 3 }), size }),
    fc.record({ e: fc.constant('appendItems' as const), n: fc.integer({ min: 1, max: 3 }), size }),
    fc.record({ e: fc.constant('replace' as const), ch: listChannel, at: fc.nat(20), text }),
    fc.record({ e: fc.constant('remove' as const), ch: listChannel, at: fc.nat(20) }),
    fc.record({ e: fc.constant('reorder' as const), ch: listChannel, how: fc.constantFrom('reverse' as const, 'swap' as const, 'rotate' as const) }),
    fc.record({ e: fc.constant('profile' as const), key: fc.constantFrom('name' as const, 'counter' as const, 'note' as const), value: fc.oneof(text, fc.integer()), inPlace: fc.constant(false) }),
    fc.record({ e: fc.constant('clear' as const), ch: fc.constantFrom('messages' as const, 'items' as const, 'profile' as const, 'blob' as const) }),
    fc.record({ e: fc.constant('blob' as const), size, text }),
    fc.record({ e: fc.constant('misc' as const), text, n: fc.integer() }),
  ];
  const inPlace: fc.Arbitrary<Edit>[] = [
    fc.record({ e: fc.constant('mutate' as const), ch: listChannel, at: fc.nat(20), text }),
    fc.record({ e: fc.constant('pushInPlace' as const), text }),
    fc.record({ e: fc.constant('profile' as const), key: fc.constantFrom('name' as const, 'counter' as const, 'note' as const), value: fc.oneof(text, fc.integer()), inPlace: fc.constant(true) }),
  ];
  // In-place edits weigh as much as the rest together: they are the point of the oracle.
  return flags.INPLACE_MUTATIONS ? fc.oneof(fc.oneof(...safe), fc.oneof(...inPlace)) : fc.oneof(...safe);
}

/** Arbitrary operations; puts dominate so that threads grow, reads are frequent. */
export function opArb(flags: typeof ORACLE_FLAGS = ORACLE_FLAGS): fc.Arbitrary<Op> {
  const lane = fc.nat(LANES.length - 1);
  const put = fc.record({
    op: fc.constant('put' as const),
    lane,
    parent: fc.oneof({ weight: 4, arbitrary: fc.constant(0) }, { weight: 1, arbitrary: fc.nat(6) }),
    source: fc.constantFrom<Source>('live', 'live', 'memory', 'ours'),
    root: fc.oneof({ weight: 15, arbitrary: fc.constant(false) }, { weight: 1, arbitrary: fc.constant(true) }),
    edits: fc.array(editArb(flags), { minLength: 0, maxLength: 3 }),
    md: fc.constantFrom('loop' as const, 'input' as const, 'update' as const),
  });
  const writeValue = fc.constantFrom<WriteValue>('json', 'message', 'big', 'interrupt');
  const writes = fc.record({
    op: fc.constant('writes' as const),
    lane,
    at: fc.nat(8),
    task: fc.constantFrom(...Object.keys(TASK_PATHS)),
    writes: fc.array(fc.tuple(fc.constantFrom('messages', 'items', 'custom', ERROR, INTERRUPT, RESUME), writeValue), { minLength: 1, maxLength: 3 }),
  });
  const get = fc.record({ op: fc.constant('get' as const), lane, at: fc.oneof(fc.constant(null), fc.constant(-1), fc.nat(8)), fresh: fc.boolean(), scribble: fc.boolean() });
  const list = fc.record({
    op: fc.constant('list' as const),
    scope: fc.constantFrom('lane' as const, 'lane' as const, 'thread' as const, 'all' as const),
    lane,
    limit: fc.oneof(fc.constant(null), fc.integer({ min: 1, max: 4 })),
    before: fc.oneof(fc.constant(null), fc.nat(8)),
    filter: fc.constantFrom(null, null, 'source' as const, 'step' as const),
    fresh: fc.boolean(),
  });
  return fc.oneof(
    { weight: 10, arbitrary: put },
    { weight: 3, arbitrary: writes },
    { weight: 1, arbitrary: fc.record({ op: fc.constant('delete' as const), thread: fc.nat(THREADS.length - 1) }) },
    { weight: 3, arbitrary: get },
    { weight: 3, arbitrary: list },
    { weight: 1, arbitrary: fc.constant({ op: 'restart' as const }) },
    { weight: 2, arbitrary: fc.record({ op: fc.constant('repeat' as const), lane, fresh: fc.boolean() }) },
  );
}

// ---------------------------------------------------------------- normalisation

/** A config reduced to what identifies a checkpoint. */
function idOf(config: RunnableConfig | undefined): unknown {
  const c = config?.configurable;
  return c === undefined ? undefined : { thread_id: c.thread_id, checkpoint_ns: c.checkpoint_ns, checkpoint_id: c.checkpoint_id };
}

/**
 * A tuple as comparable data. Normalised, because it legitimately differs:
 * - `config` and `parentConfig` keep thread_id, checkpoint_ns and checkpoint_id: MemorySaver's
 *   getTuple with a checkpoint_id hands back the caller's config object itself (with whatever else
 *   it carried), ours builds a new one with exactly these fields.
 * - values go through JSON (messages through their `toJSON`, the `lc` constructor form), and
 *   objects are compared structurally, not by key order: ours returns keys in canonical (sorted)
 *   order, MemorySaver in insertion order. Class identity is checked apart (`kinds`), so that a
 *   message coming back as a plain object still fails.
 */
export function normalTuple(t: CheckpointTuple | undefined): unknown {
  if (t === undefined) return undefined;
  return {
    config: idOf(t.config),
    parentConfig: idOf(t.parentConfig),
    checkpoint: plain(t.checkpoint),
    metadata: plain(t.metadata),
    pendingWrites: plain(t.pendingWrites),
    kinds: kinds(t.checkpoint.channel_values),
  };
}

/**
 * JSON of a value, keeping apart what plain JSON would merge: Date, Set, Map, bytes and undefined
 * (inside objects and lists) are tagged, so that a Set coming back empty, or undefined coming back
 * as null, is a difference.
 */
function plain(x: unknown): unknown {
  if (x === undefined) return undefined;
  const text = JSON.stringify(x, function (this: Record<string, unknown>, key: string, value: unknown) {
    // `value` is already `toJSON`'s result (a Date's ISO text): look at the holder's own value.
    const raw = key === '' ? x : this[key];
    if (raw === undefined) return { '(undefined)': true };
    if (raw instanceof Date) return { '(date)': raw.toISOString() };
    if (raw instanceof Set) return { '(set)': [...(raw as Set<unknown>)] };
    if (raw instanceof Map) return { '(map)': [...(raw as Map<unknown, unknown>)] };
    if (raw instanceof Uint8Array) return { '(bytes)': [...raw] };
    return value;
  });
  return JSON.parse(text) as unknown;
}

/** The class name of every item of every list channel. */
function kinds(values: Record<string, unknown>): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const [k, v] of Object.entries(values)) if (Array.isArray(v)) out[k] = v.map((x: unknown) => (x !== null && typeof x === 'object' ? x.constructor.name : typeof x));
  return out;
}

/** The first path where two JSON-like values differ (keys compared as sets), or undefined. */
export function firstDifference(ours: unknown, theirs: unknown, path = '$'): string | undefined {
  if (Object.is(ours, theirs)) return undefined;
  const show = (v: unknown) => {
    const s = JSON.stringify(v) ?? String(v);
    return s.length > 160 ? `${s.slice(0, 160)}... (${s.length} chars)` : s;
  };
  if (ours === null || theirs === null || typeof ours !== 'object' || typeof theirs !== 'object' || Array.isArray(ours) !== Array.isArray(theirs)) {
    return `${path}: ours ${show(ours)}, MemorySaver ${show(theirs)}`;
  }
  if (Array.isArray(ours) && Array.isArray(theirs)) {
    if (ours.length !== theirs.length) return `${path}: ours has ${ours.length} items, MemorySaver ${theirs.length}: ours ${show(ours)}, MemorySaver ${show(theirs)}`;
    for (let i = 0; i < ours.length; i++) {
      const d = firstDifference(ours[i], theirs[i], `${path}[${i}]`);
      if (d !== undefined) return d;
    }
    return undefined;
  }
  const a = ours as Record<string, unknown>;
  const b = theirs as Record<string, unknown>;
  for (const k of new Set([...Object.keys(a), ...Object.keys(b)])) {
    const d = firstDifference(a[k], b[k], `${path}.${k}`);
    if (d !== undefined) return d;
  }
  return undefined;
}

// ---------------------------------------------------------------- stores

/** A store factory per backend, with the oracle's small row limit. */
export interface OracleBackend {
  name: string;
  available: boolean;
  /** True for the sealed and encrypted variant (the store opened with `keys`). */
  keyed: boolean;
  /** A store (one per test file and backend: runs are kept apart by namespace). */
  open: () => Promise<CheckpointStore>;
  cleanup: () => Promise<void>;
}

/** The keyring of the keyed variants: a fixed test secret (docs/sealing.md). */
export const ORACLE_KEYS = new Keyring([{ id: 'oracle-key', secret: new Uint8Array(32).fill(28) }]);

/**
 * Memory, SQLite and PostgreSQL stores with `maxPayloadBytes` = ORACLE_MAX_PAYLOAD_BYTES, each
 * plain and sealed (opened with `keys`: every row sealed, chained and encrypted).
 */
export function oracleBackends(): OracleBackend[] {
  const tmp = tempDir();
  let files = 0;
  const schemas: string[] = [];
  const variants = (keyed: boolean): OracleBackend[] => {
    const options = keyed ? { limits: { maxPayloadBytes: ORACLE_MAX_PAYLOAD_BYTES }, keys: ORACLE_KEYS } : { limits: { maxPayloadBytes: ORACLE_MAX_PAYLOAD_BYTES } };
    const suffix = keyed ? ' (sealed)' : '';
    return [
      { name: `memory${suffix}`, keyed, available: true, open: async () => new CheckpointStore(new MemoryAdapter(), options), cleanup: async () => undefined },
      { name: `sqlite${suffix}`, keyed, available: true, open: () => openSqliteStore(join(tmp.dir, `oracle-${files++}.db`), options), cleanup: async () => tmp.remove() },
      {
        name: `postgres${suffix}`,
        keyed,
        available: PG_URL !== undefined,
        open: () => {
          const schema = uniqueSchema('sc_oracle');
          schemas.push(schema);
          return openPostgresStore(PG_URL ?? '', { schema, poolSize: 2, ...options });
        },
        cleanup: async () => {
          for (const schema of schemas.splice(0)) await dropSchema(schema);
        },
      },
    ];
  };
  return [...variants(false), ...variants(true)];
}

// ---------------------------------------------------------------- the interpreter

/** What the runs of this process did, so that a test can check the generators reach each case. */
export const oracleStats = { operations: 0, pruned: 0, puts: 0, forks: 0, overRowLimit: 0, inPlaceEdits: 0, writes: 0, deletes: 0, restarts: 0, comparisons: 0 };

/** Raised when ours and MemorySaver disagree: names the operation, the read and the first difference. */
export class OracleMismatch extends Error {}

let namespaces = 0;

/** The value a lane's put last handed to both savers: the objects a running graph would hold. */
interface Live {
  id: string;
  values: Record<string, unknown>;
}

/** The arguments of a put, kept to repeat it. */
type PutArgs = [RunnableConfig, Checkpoint, CheckpointMetadata, ChannelVersions, SessionCheckpointSaver];

interface LaneState {
  /** The lane's last put (undefined after a delete). */
  last?: PutArgs | undefined;
  /** Checkpoint ids put on the lane, oldest first (deleted ones included: reads of them must agree too). */
  ids: string[];
  /** Ids not deleted since, oldest first: the parents a put may pick. */
  alive: string[];
  live: Live | undefined;
}

/**
 * Runs `ops` against a SessionCheckpointSaver on `store` (in a namespace of its own) and a
 * MemorySaver, comparing every read. Throws OracleMismatch at the first disagreement.
 */
export async function runOracle(store: CheckpointStore, ops: readonly Op[], options: OracleOptions = {}, flags: typeof ORACLE_FLAGS = ORACLE_FLAGS): Promise<void> {
  const world = new OracleWorld(store, options, flags);
  try {
    for (const [i, op] of ops.entries()) await world.apply(op, i);
    await world.sweep();
  } catch (error) {
    // MemorySaver accepts every operation generated here: an error is ours failing where it
    // would have answered. Named with the operation it happened in.
    if (error instanceof OracleMismatch) throw error;
    throw new OracleMismatch(`${world.label}: threw ${error instanceof Error ? `${error.name}: ${error.message}` : String(error)}`, { cause: error });
  }
}

class OracleWorld {
  readonly memory = new MemorySaver();
  readonly namespace = `oracle-${process.pid}-${namespaces++}`;
  ours: SessionCheckpointSaver;
  readonly lanes: LaneState[] = LANES.map(() => ({ ids: [], alive: [], live: undefined }));
  /** Counters making ids, timestamps and item ids deterministic within a run. */
  #checkpoints = 0;
  #items = 0;
  /** The operation being run, for messages. */
  label = '';
  /** (thread, ns, checkpoint, task) that wrote: a later call of the same task merges into its row. */
  readonly #wrote = new Set<string>();

  constructor(
    readonly store: CheckpointStore,
    readonly options: OracleOptions,
    readonly flags: typeof ORACLE_FLAGS,
  ) {
    this.ours = this.#saver();
  }

  #saver(): SessionCheckpointSaver {
    const { maxCheckpointsPerThread, snapshotRatio, inlineCarriedBytes } = this.options;
    return new SessionCheckpointSaver(this.store, {
      namespace: this.namespace,
      ...(maxCheckpointsPerThread === undefined ? {} : { maxCheckpointsPerThread }),
      ...(snapshotRatio === undefined ? {} : { snapshotRatio }),
      ...(inlineCarriedBytes === undefined ? {} : { inlineCarriedBytes }),
    });
  }

  get #retention(): boolean {
    return this.options.maxCheckpointsPerThread !== undefined;
  }

  async apply(op: Op, i: number): Promise<void> {
    this.label = `op ${i} ${JSON.stringify(op)}`;
    oracleStats.operations++;
    switch (op.op) {
      case 'put':
        return this.#put(op);
      case 'writes':
        return this.#writes(op);
      case 'delete': {
        const thread = THREADS[op.thread % THREADS.length] ?? 't0';
        oracleStats.deletes++;
        await this.ours.deleteThread(thread);
        await this.memory.deleteThread(thread);
        LANES.forEach((l, k) => {
          const lane = this.lanes[k];
          if (l.thread === thread && lane) {
            lane.alive = [];
            lane.last = undefined;
            lane.live = undefined;
          }
        });
        return;
      }
      case 'get':
        return this.#get(op.lane, op.at, op.fresh, op.scribble);
      case 'list':
        return this.#list(op);
      case 'repeat': {
        const { lane } = this.#laneOf(op.lane);
        if (lane.last === undefined) return;
        const [config, checkpoint, metadata, newVersions, by] = lane.last;
        const saver = op.fresh === true ? this.#saver() : this.ours;
        if (!this.flags.REPEATED_PUTS && (saver !== by || this.#retention)) return;
        await saver.put(config, checkpoint, metadata, newVersions);
        await this.memory.put(config, checkpoint, metadata);
        return;
      }
      case 'restart':
        oracleStats.restarts++;
        this.ours = this.#saver();
        return;
    }
  }

  /** Every checkpoint ever put, read through a fresh saver: getTuple each, then each lane's list and the whole list. */
  async sweep(): Promise<void> {
    this.label = 'final sweep';
    for (const [k, lane] of this.lanes.entries()) {
      for (let at = 0; at < lane.ids.length; at++) await this.#get(k, at, true);
      await this.#get(k, null, true);
      await this.#list({ op: 'list', scope: 'lane', lane: k, limit: null, before: null, filter: null, fresh: true });
    }
    await this.#list({ op: 'list', scope: 'all', lane: 0, limit: null, before: null, filter: null, fresh: true });
  }

  #laneOf(n: number): { lane: LaneState; thread: string; ns: string } {
    const k = n % LANES.length;
    const l = LANES[k] ?? LANES[0];
    return { lane: this.lanes[k] ?? { ids: [], alive: [], live: undefined }, thread: l.thread, ns: l.ns };
  }

  #config(thread: string, ns: string, id?: string): RunnableConfig {
    return { configurable: { thread_id: thread, checkpoint_ns: ns, ...(id === undefined ? {} : { checkpoint_id: id }) } };
  }

  #fail(what: string, difference: string): never {
    throw new OracleMismatch(`${this.label}: ${what}: ${difference}`);
  }

  /** Compares one getTuple answer; under retention ours may have pruned it (undefined), never differ. */
  #compare(what: string, ours: CheckpointTuple | undefined, theirs: CheckpointTuple | undefined): void {
    oracleStats.comparisons++;
    if (this.#retention && ours === undefined) {
      if (theirs !== undefined) oracleStats.pruned++;
      return;
    }
    const d = firstDifference(normalTuple(ours), normalTuple(theirs));
    if (d !== undefined) this.#fail(what, d);
  }

  async #get(laneNo: number, at: number | null, fresh: boolean, scribble = false): Promise<void> {
    const { lane, thread, ns } = this.#laneOf(laneNo);
    const id = at === null ? undefined : at < 0 || lane.ids.length === 0 ? 'ffffffff-never-put' : lane.ids[at % lane.ids.length];
    const config = this.#config(thread, ns, id);
    const saver = fresh ? this.#saver() : this.ours;
    const ours = await saver.getTuple(config);
    const theirs = await this.memory.getTuple(config);
    // The newest checkpoint is never pruned: the latest must agree even under retention.
    if (this.#retention && id === undefined && (ours === undefined) !== (theirs === undefined)) this.#fail(`getTuple(${thread}/${ns} latest)`, `ours ${ours === undefined ? 'missing' : 'present'}`);
    this.#compare(`getTuple(${thread}/${ns}/${id ?? 'latest'})${fresh ? ' on a fresh saver' : ''}`, ours, theirs);
    if (scribble && ours !== undefined) scribbleOn(ours.checkpoint.channel_values);
  }

  async #list(op: Extract<Op, { op: 'list' }>): Promise<void> {
    const { lane, thread, ns } = this.#laneOf(op.lane);
    const options: CheckpointListOptions = {};
    let config: RunnableConfig;
    let ordered = true;
    if (op.scope === 'lane') {
      config = this.#config(thread, ns);
      if (op.limit !== null) options.limit = op.limit;
      if (op.before !== null && lane.ids.length > 0) options.before = this.#config(thread, ns, lane.ids[op.before % lane.ids.length]);
    } else {
      // Across namespaces or threads MemorySaver yields thread by thread and namespace by
      // namespace in insertion order, ours by checkpoint id over all of them: compared as sets,
      // and without `limit`, which would pick different subsets under the two orders.
      config = op.scope === 'thread' ? { configurable: { thread_id: thread } } : { configurable: {} };
      ordered = false;
    }
    if (op.filter === 'source') options.filter = { source: 'loop' };
    if (op.filter === 'step') options.filter = { step: 1 };
    const saver = op.fresh ? this.#saver() : this.ours;
    const ours: CheckpointTuple[] = [];
    for await (const t of saver.list(config, options)) ours.push(t);
    const theirs: CheckpointTuple[] = [];
    for await (const t of this.memory.list(config, options)) theirs.push(t);
    const what = `list(${JSON.stringify(config.configurable)}, ${JSON.stringify({ limit: options.limit, before: options.before?.configurable?.checkpoint_id, filter: options.filter })})${op.fresh ? ' on a fresh saver' : ''}`;
    const key = (t: CheckpointTuple) => JSON.stringify(idOf(t.config));
    if (!ordered) {
      ours.sort((a, b) => (key(a) < key(b) ? -1 : 1));
      theirs.sort((a, b) => (key(a) < key(b) ? -1 : 1));
    }
    if (this.#retention) {
      // A subset of MemorySaver's checkpoints, each equal to MemorySaver's, in ours's own order.
      const byKey = new Map(theirs.map((t) => [key(t), t]));
      if (op.limit === null && op.filter === null) {
        for (const t of ours) {
          const twin = byKey.get(key(t));
          if (twin === undefined) this.#fail(what, `ours yields ${key(t)}, which MemorySaver does not have (or not in this answer)`);
          this.#compare(`${what} item ${key(t)}`, t, twin);
        }
      } else {
        // With a limit or filter the subsets differ (pruned checkpoints leave room for older
        // ones): each item must still be one of MemorySaver's, read by id.
        for (const t of ours) this.#compare(`${what} item ${key(t)}`, t, await this.memory.getTuple(t.config));
      }
      return;
    }
    oracleStats.comparisons++;
    const d = firstDifference(ours.map(normalTuple), theirs.map(normalTuple));
    if (d !== undefined) this.#fail(what, d);
  }

  async #writes(op: Extract<Op, { op: 'writes' }>): Promise<void> {
    const { lane, thread, ns } = this.#laneOf(op.lane);
    if (lane.ids.length === 0) return;
    const id = lane.ids[op.at % lane.ids.length];
    const again = `${thread}\u0000${ns}\u0000${id ?? ''}\u0000${op.task}`;
    const merged = this.#wrote.has(again);
    this.#wrote.add(again);
    const writes: PendingWrite[] = op.writes.map(([channel, kind]) => [channel, this.#writeValue(kind === 'big' && merged && !this.flags.MERGED_SPLIT_WRITES ? 'json' : kind)]);
    const config = this.#config(thread, ns, id);
    const path = TASK_PATHS[op.task] ?? '';
    oracleStats.writes++;
    if (writes.some(([, v]) => typeof v === 'string' && v.length > ORACLE_MAX_PAYLOAD_BYTES)) oracleStats.overRowLimit++;
    await this.ours.putWrites(config, writes, op.task, path);
    await this.memory.putWrites(config, writes, op.task, path);
  }

  #writeValue(kind: WriteValue): unknown {
    const n = this.#items++;
    switch (kind) {
      case 'json':
        return { n, text: `w${n}`, list: [1, 'two', null] };
      case 'message':
        return new AIMessage({ content: `write ${n}`, id: `w${n}` });
      case 'big':
        return `big ${n} ${'b'.repeat(ORACLE_MAX_PAYLOAD_BYTES + 5000)}`;
      case 'interrupt':
        return [{ value: { question: `ok ${n}?` }, id: `i${n}` }];
    }
  }

  async #put(op: Extract<Op, { op: 'put' }>): Promise<void> {
    const { lane, thread, ns } = this.#laneOf(op.lane);
    let parentId: string | undefined;
    let values: Record<string, unknown>;
    let versions: ChannelVersions;
    let step: number;
    const parentPick = lane.alive.length === 0 || op.root ? undefined : lane.alive[lane.alive.length - 1 - (op.parent % lane.alive.length)];
    if (parentPick === undefined) {
      values = { messages: [new HumanMessage({ content: 'hello', id: `m${this.#items++}` })], items: [], profile: { name: 'ada', counter: 0 } };
      versions = {};
      step = -1;
    } else if (op.source === 'live' && lane.live !== undefined && lane.live.id === parentPick) {
      parentId = parentPick;
      values = { ...lane.live.values };
      const t = await this.memory.getTuple(this.#config(thread, ns, parentId));
      versions = { ...(t?.checkpoint.channel_versions ?? {}) };
      step = t?.metadata?.step ?? 0;
    } else {
      parentId = parentPick;
      const config = this.#config(thread, ns, parentId);
      const theirs = await this.memory.getTuple(config);
      let base = theirs;
      if (op.source === 'ours') {
        // The values ours hands out are what the next step is built from (as LangGraph does);
        // they must be MemorySaver's, or the read itself is the discrepancy.
        const ours = await this.ours.getTuple(config);
        this.#compare(`getTuple(${thread}/${ns}/${parentId}) as a put's parent`, ours, theirs);
        if (ours !== undefined) base = ours;
      }
      values = { ...(base?.checkpoint.channel_values ?? {}) };
      versions = { ...(base?.checkpoint.channel_versions ?? {}) };
      step = base?.metadata?.step ?? 0;
    }
    oracleStats.puts++;
    if (parentId !== undefined && parentId !== lane.alive[lane.alive.length - 1]) oracleStats.forks++;
    for (const edit of op.edits) {
      if (edit.e === 'mutate' || edit.e === 'pushInPlace' || (edit.e === 'profile' && edit.inPlace)) oracleStats.inPlaceEdits++;
      if ((edit.e === 'appendMessages' || edit.e === 'appendItems' || edit.e === 'blob') && edit.size > ORACLE_MAX_PAYLOAD_BYTES) oracleStats.overRowLimit++;
    }
    const changed = new Set<string>(parentId === undefined ? Object.keys(values) : []);
    for (const edit of op.edits) for (const ch of this.#edit(values, edit)) changed.add(ch);
    const next = this.ours.getNextVersion(Object.keys(versions).length === 0 ? undefined : (maxChannelVersion(...Object.values(versions)) as number));
    const newVersions: ChannelVersions = Object.fromEntries([...changed].map((ch) => [ch, next]));
    const channelVersions = { ...versions, ...newVersions };
    const n = this.#checkpoints++;
    const checkpoint: Checkpoint = {
      v: 4,
      // Ids and timestamps from a counter: runs replay exactly, and ids sort in put order.
      id: `${n.toString(16).padStart(8, '0')}-0000-6000-8000-000000000000`,
      ts: new Date(Date.UTC(2026, 0, 1) + n * 1000).toISOString(),
      channel_values: values,
      channel_versions: channelVersions,
      versions_seen: { agent: { ...newVersions } },
    };
    const metadata: CheckpointMetadata = { source: op.md, step: step + 1, parents: {} };
    const config = this.#config(thread, ns, parentId);
    await this.ours.put(config, checkpoint, metadata, newVersions);
    // MemorySaver stores the whole checkpoint whatever changed; ours needs newVersions.
    await this.memory.put(config, checkpoint, metadata);
    lane.ids.push(checkpoint.id);
    lane.alive.push(checkpoint.id);
    lane.live = { id: checkpoint.id, values };
    lane.last = [config, checkpoint, metadata, newVersions, this.ours];
  }

  /** Applies one edit to `values` (replacing changed lists by new arrays, except in-place edits); returns the channels changed. */
  #edit(values: Record<string, unknown>, edit: Edit): string[] {
    const list = (ch: ListChannel): unknown[] => {
      const v = values[ch];
      return Array.isArray(v) ? (v as unknown[]) : [];
    };
    const set = (ch: string, v: unknown) => {
      values[ch] = v;
      return [ch];
    };
    switch (edit.e) {
      case 'appendMessages':
        return set('messages', [...list('messages'), ...Array.from({ length: edit.n }, () => this.#message(edit.size))]);
      case 'appendItems':
        return set('items', [...list('items'), ...Array.from({ length: edit.n }, () => this.#item(edit.size))]);
      case 'mutate': {
        const items = list(edit.ch);
        if (items.length === 0) return [];
        const target = items[edit.at % items.length] as Record<string, unknown>;
        if (isMessage(target)) target.content = `${String(target.content)} ${edit.text} (edited)`;
        else target.text = `${String(target.text)} ${edit.text} (edited)`;
        // messagesStateReducer: a new array holding the same (now changed) object.
        return set(edit.ch, [...items]);
      }
      case 'pushInPlace': {
        const items = values.items;
        if (!Array.isArray(items)) return set('items', [this.#item(0)]);
        items.push({ ...this.#item(0), text: edit.text });
        return ['items'];
      }
      case 'replace': {
        const items = [...list(edit.ch)];
        if (items.length === 0) return [];
        const at = edit.at % items.length;
        const old = items[at] as Record<string, unknown>;
        items[at] = isMessage(old) ? remake(old, `${edit.text} (replaced)`) : { ...old, text: `${edit.text} (replaced)` };
        return set(edit.ch, items);
      }
      case 'remove': {
        const items = [...list(edit.ch)];
        if (items.length === 0) return [];
        items.splice(edit.at % items.length, 1);
        return set(edit.ch, items);
      }
      case 'reorder': {
        const items = [...list(edit.ch)];
        if (items.length < 2) return [];
        if (edit.how === 'reverse') items.reverse();
        else if (edit.how === 'swap') [items[0], items[items.length - 1]] = [items[items.length - 1], items[0]];
        else items.push(items.shift());
        return set(edit.ch, items);
      }
      case 'profile': {
        const old = values.profile;
        if (edit.inPlace && old !== null && typeof old === 'object') {
          (old as Record<string, unknown>)[edit.key] = edit.value;
          return ['profile'];
        }
        return set('profile', { ...(typeof old === 'object' && old !== null ? old : {}), [edit.key]: edit.value });
      }
      case 'clear':
        if (!Object.hasOwn(values, edit.ch)) return [];
        delete values[edit.ch];
        return [edit.ch];
      case 'blob':
        return set('blob', `${edit.text}${'z'.repeat(edit.size)}`);
      case 'misc':
        return set('misc', {
          when: new Date(Date.UTC(2026, 0, 1) + edit.n),
          tags: new Set([edit.text, 'fixed']),
          map: new Map<string, unknown>([[edit.text, { n: edit.n }]]),
          bytes: new Uint8Array([edit.n & 255, 0, 255]),
          list: [edit.n, undefined, edit.text],
          missing: undefined,
        });
    }
  }

  #message(size: number): BaseMessage {
    const n = this.#items++;
    const pad = 'p'.repeat(size);
    switch (n % 4) {
      case 3:
        // Content blocks, with an image as a data URL (the padding makes it large).
        return new HumanMessage({ content: [{ type: 'text', text: `look ${n}` }, { type: 'image_url', image_url: { url: `data:image/png;base64,${pad}` } }], id: `m${n}` });
      case 0:
        return new HumanMessage({ content: `question ${n} ${pad}`, id: `m${n}` });
      case 1:
        return new AIMessage({ content: `answer ${n} ${pad}`, id: `m${n}`, tool_calls: [{ id: `call-${n}`, name: 'lookup', args: { n } }] });
      default:
        return new ToolMessage({ content: `result ${n} ${pad}`, tool_call_id: `call-${n - 1}`, id: `m${n}` });
    }
  }

  #item(size: number): Record<string, unknown> {
    const n = this.#items++;
    return { id: `i${n}`, text: `item ${n} ${'q'.repeat(size)}`, n, tags: ['a', n % 2 === 0 ? 'even' : 'odd'], nested: { ok: true } };
  }
}

/** Changes handed-out values in place: every list item, the lists themselves and the profile. */
function scribbleOn(values: Record<string, unknown>): void {
  for (const v of Object.values(values)) {
    if (Array.isArray(v)) {
      for (const item of v as unknown[]) {
        if (isMessage(item)) item.content = `${String(item.content)} (scribbled)`;
        else if (item !== null && typeof item === 'object') (item as Record<string, unknown>).text = 'scribbled';
      }
      v.push('scribbled');
    } else if (v !== null && typeof v === 'object' && !(v instanceof Uint8Array)) (v as Record<string, unknown>).scribbled = true;
  }
}

function isMessage(x: unknown): x is BaseMessage {
  return x instanceof HumanMessage || x instanceof AIMessage || x instanceof ToolMessage;
}

/** A new message of the same class and id with other content (a same-length edit by replacement). */
function remake(m: Record<string, unknown>, content: string): BaseMessage {
  const id = typeof m.id === 'string' ? m.id : undefined;
  if (m instanceof AIMessage) return new AIMessage({ content, ...(id === undefined ? {} : { id }), tool_calls: m.tool_calls ?? [] });
  if (m instanceof ToolMessage) return new ToolMessage({ content, tool_call_id: m.tool_call_id, ...(id === undefined ? {} : { id }) });
  return new HumanMessage({ content, ...(id === undefined ? {} : { id }) });
}

// ---------------------------------------------------------------- run counts

/** True when `SC_SOAK=1`: the long soak instead of the bounded CI runs. */
export const SOAK = process.env.SC_SOAK === '1';

/** The seed of the CI runs: CI replays the same fixed set every time (the soak draws new seeds). */
export const CI_SEED = 28;

/**
 * fast-check parameters: `ciRuns` runs from CI_SEED in CI, or the soak (`SC_SOAK=1`, a new random
 * seed, runs from `SC_SOAK_RUNS`, default 170 runs of up to 60 operations, about 5,000 operations a
 * property: with its two properties, about 10,000 a backend). `SC_ORACLE_SEED` and
 * `SC_ORACLE_PATH` replay a reported failure (a soak's with SC_SOAK=1 too: lengths depend on it).
 */
export function oracleParameters<T extends unknown[]>(ciRuns: number): fc.Parameters<T> {
  const seed = process.env.SC_ORACLE_SEED ?? (SOAK ? undefined : String(CI_SEED));
  const path = process.env.SC_ORACLE_PATH;
  const runs = SOAK ? Number(process.env.SC_SOAK_RUNS ?? 170) : ciRuns;
  return {
    numRuns: runs,
    // Failures print the seed, the shrink path and the shrunk counterexample (as JSON ops).
    verbose: 0,
    ...(seed === undefined ? {} : { seed: Number(seed) }),
    ...(path === undefined ? {} : { path }),
  };
}

/** Sequences: up to 30 operations in CI, 60 in the soak. */
export function opsArb(flags: typeof ORACLE_FLAGS = ORACLE_FLAGS): fc.Arbitrary<Op[]> {
  // size 'max': lengths spread up to the maximum (fast-check's default size keeps arrays short).
  return fc.array(opArb(flags), { minLength: 1, maxLength: SOAK ? 60 : 30, size: 'max' });
}
