import type { CheckpointStore } from '@session-checkpoint/core';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { backends, RUNTIME_OK } from './test-support/backends.js';

/*
 * The differential test of the run memo (`Remembered` in remembered.ts): a persist of a run the domain object
 * remembers is one conditional insert that trusts nothing it remembers (the store checks the run
 * record's SHA-256 and the newest snapshot in the statement). Random sequences of persists (status,
 * owner, createdAt from small sets, so a run deleted and persisted again can come back with the
 * very record it had), step results, state updates, deletes, clears and loads, by two domain
 * objects on one store (two processes: each remembers what it wrote, and the other moves the runs
 * on behind its back), against the same calls by one object without a memo on a store of its own.
 * After every call the answers and every row (refs, kinds, payloads) must be the same.
 */

const RUNS = ['r1', 'r2'];
const STATUSES = ['running', 'suspended', 'success'];
const CREATED = [new Date(Date.UTC(2026, 0, 1)), new Date(Date.UTC(2026, 0, 2))];
const UPDATED = new Date(Date.UTC(2026, 5, 1));

type Op =
  | { op: 'persist'; by: number; run: string; status: string; owner: string | undefined; created: number; step: number }
  | { op: 'results'; by: number; run: string; output: number }
  | { op: 'state'; by: number; run: string; status: string }
  | { op: 'delete'; by: number; run: string }
  | { op: 'clear'; by: number }
  | { op: 'load'; by: number; run: string };

const by = fc.integer({ min: 0, max: 1 });
const run = fc.constantFrom(...RUNS);
// Mostly the same status and no new owner: a run's record then stays, which is when the memo is tried.
const status = fc.oneof({ weight: 4, arbitrary: fc.constant('running') }, { weight: 1, arbitrary: fc.constantFrom(...STATUSES) });
const owner = fc.oneof({ weight: 4, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary: fc.constantFrom('u1', 'u2') });
const opArb: fc.Arbitrary<Op> = fc.oneof(
  { weight: 6, arbitrary: fc.record({ op: fc.constant('persist' as const), by, run, status, owner, created: fc.oneof({ weight: 4, arbitrary: fc.constant(0) }, { weight: 1, arbitrary: fc.constant(1) }), step: fc.integer({ min: 0, max: 3 }) }) },
  { weight: 1, arbitrary: fc.record({ op: fc.constant('results' as const), by, run, output: fc.integer({ min: 0, max: 9 }) }) },
  { weight: 1, arbitrary: fc.record({ op: fc.constant('state' as const), by, run, status: fc.constantFrom(...STATUSES) }) },
  { weight: 2, arbitrary: fc.record({ op: fc.constant('delete' as const), by, run }) },
  { weight: 1, arbitrary: fc.record({ op: fc.constant('clear' as const), by }) },
  { weight: 1, arbitrary: fc.record({ op: fc.constant('load' as const), by, run }) },
);

const persist = (writer: number): Op => ({ op: 'persist', by: writer, run: 'r1', status: 'running', owner: undefined, created: 0, step: 0 });

type Workflows = import('./workflows-storage.js').CheckpointWorkflowsStorage;

async function apply(w: Workflows, op: Op): Promise<unknown> {
  switch (op.op) {
    case 'persist':
      return w.persistWorkflowSnapshot({
        workflowName: 'wf',
        runId: op.run,
        ...(op.owner ? { resourceId: op.owner } : {}),
        createdAt: CREATED[op.created] as Date,
        updatedAt: UPDATED,
        snapshot: { runId: op.run, status: op.status, value: {}, context: { step: op.step }, activePaths: [], serializedStepGraph: [], suspendedPaths: {}, waitingPaths: {}, resumeLabels: {}, timestamp: 1 } as never,
      });
    case 'results':
      return w.updateWorkflowResults({ workflowName: 'wf', runId: op.run, stepId: 's', result: { status: 'success', output: { n: op.output } } as never, requestContext: {} });
    case 'state':
      return w.updateWorkflowState({ workflowName: 'wf', runId: op.run, opts: { status: op.status } as never });
    case 'delete':
      return w.deleteWorkflowRunById({ workflowName: 'wf', runId: op.run });
    case 'clear':
      return w.dangerouslyClearAll();
    case 'load':
      return w.loadWorkflowSnapshot({ workflowName: 'wf', runId: op.run });
  }
}

/** The clock the domain stamps (updatedAt, createdAt of a run an update creates) replaced by a constant. */
function unclocked(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(unclocked);
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) {
      if (k === 'updatedAt' || k === 'timestamp') continue;
      out[k] = k === 'createdAt' && typeof v === 'string' && !CREATED.some((d) => d.toISOString() === v) ? 'now' : unclocked(v);
    }
    return out;
  }
  return value;
}

/**
 * Every row of the domain's namespace: ref, session, kind, name and payload (the clock left out),
 * in ref order. The session and the name too: the shortcut builds its row from the refs and
 * session id its memo keeps per run (decision record 0056), the transaction derives them anew.
 */
async function rows(store: CheckpointStore): Promise<unknown[]> {
  const all = await store.list({ namespace: 'mastra', limit: 1000 });
  return all.map((r) => ({ ref: r.sourceRef, sessionId: r.sessionId, kind: r.kind, name: r.name, payload: unclocked(r.payload) })).sort((a, b) => String(a.ref).localeCompare(String(b.ref)));
}

/** The store, counting the conditional inserts it took and refused. */
function counted(store: CheckpointStore, tally: { taken: number; refused: number }): CheckpointStore {
  return new Proxy(store, {
    get(target, key) {
      const value: unknown = Reflect.get(target, key, target);
      if (key === 'insertPreparedIfPresent') {
        return async (...args: Parameters<CheckpointStore['insertPreparedIfPresent']>) => {
          const row = await target.insertPreparedIfPresent(...args);
          if (row === undefined) tally.refused++;
          else tally.taken++;
          return row;
        };
      }
      return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
    },
  });
}

// The memo needs the store's conditional insert: SQLite and PostgreSQL (the memory adapter has none).
const list = backends().filter((b) => b.name !== 'memory');
afterAll(async () => {
  for (const b of list) await b.cleanup();
});

describe.skipIf(!RUNTIME_OK).each(list)('the run memo on $name', (backend) => {
  it.skipIf(!backend.available)('two writers with memos leave the rows and answers of one writer without', async () => {
    const { CheckpointWorkflowsStorage } = await import('./index.js');
    const tally = { taken: 0, refused: 0 };
    const runs = Number(process.env.SC_SOAK === '1' ? (process.env.SC_SOAK_RUNS ?? 300) : 40);
    await fc.assert(
      fc.asyncProperty(fc.array(opArb, { minLength: 1, maxLength: 30, size: 'max' }), async (ops) => {
        const shared = await backend.open(backend.target());
        const alone = await backend.open(backend.target());
        try {
          const writers = [new CheckpointWorkflowsStorage(counted(shared, tally)), new CheckpointWorkflowsStorage(counted(shared, tally))];
          const reference = new CheckpointWorkflowsStorage(alone, { rememberedRuns: 0 });
          for (const [i, op] of ops.entries()) {
            const where = `op ${i}: ${JSON.stringify(op)}`;
            const ours = unclocked(await apply(writers[op.by] as Workflows, op));
            const theirs = unclocked(await apply(reference, op));
            expect(ours, where).toEqual(theirs);
            expect(await rows(shared), where).toEqual(await rows(alone));
          }
        } finally {
          await shared.close();
          await alone.close();
        }
      }),
      {
        numRuns: runs,
        examples: [
          // The run deleted and persisted again by the other writer, to the record it had: the
          // remembered newest snapshot is gone, the numbers start again from 1.
          [[persist(0), persist(0), persist(0), { op: 'delete', by: 1, run: 'r1' }, persist(1), persist(0)]],
          // The record rewritten by the other writer (a run its step result created after a clear),
          // with as many snapshots as the memo counts.
          [[persist(1), { op: 'clear', by: 0 }, { op: 'results', by: 0, run: 'r1', output: 0 }, persist(1)]],
        ],
      },
    );
    // The property must have run the shortcut both ways, or it proved nothing about it.
    expect(tally.taken).toBeGreaterThan(0);
    expect(tally.refused).toBeGreaterThan(0);
  }, 600_000);
});
