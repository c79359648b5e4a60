import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { MemoryAdapter, type AdapterCapabilities, type CheckpointRow, type InsertOptions, type InsertPrecondition, type InsertResult, type ListRowsQuery, type NewCheckpointRow, type SourceRefPositionQuery } from '@session-checkpoint/core';
import { describe, expect, it } from 'vitest';
import { ConformanceFailure, runConformanceGroup, runConformanceSuite, type ConformanceOptions } from './index.js';
import { JsonFileAdapter, jsonFileSubject, type FileState, type OpenFile } from './test-support/json-file-adapter.js';
import { snapshotFileSubject } from './test-support/snapshot-file-adapter.js';
import type { ConformanceFactory, ConformanceSubject, ConformanceTestApi } from './types.js';

/*
 * The suite is only worth something if it fails adapters that break the contract. These tests run
 * it against deliberately broken adapters through a collecting test API and check that the cases
 * guarding the broken rule fail (with the rule in words), that nothing else fails, and that the
 * correct adapter passes every case it can run and is told which ones it skipped.
 */

interface Outcome {
  name: string;
  skipped?: boolean;
  error?: unknown;
}

const PREFIX = 'session-checkpoint adapter conformance > ';

/** A subject over a fresh (possibly broken) in-memory adapter. */
const memorySubject = (makeAdapter: () => MemoryAdapter) => async (): Promise<ConformanceSubject> => {
  const adapter = makeAdapter();
  return { adapter, storesBytes: true, tamper: (id, patch) => adapter.tamperForTesting(id, patch), destroy: () => adapter.close() };
};

async function runSuite(factory: ConformanceFactory, options?: ConformanceOptions): Promise<Outcome[]> {
  const registered: { name: string; fn?: () => Promise<void> }[] = [];
  const path: string[] = [];
  const it = Object.assign((name: string, fn: () => Promise<void>) => void registered.push({ name: [...path, name].join(' > '), fn }), {
    skip: (name: string) => void registered.push({ name: [...path, name].join(' > ') }),
  });
  const api: ConformanceTestApi = {
    describe(name, fn) {
      path.push(name);
      fn();
      path.pop();
    },
    it,
  };
  await runConformanceSuite(api, factory, options);
  const outcomes: Outcome[] = [];
  for (const test of registered) {
    const name = test.name.slice(PREFIX.length);
    if (!test.fn) {
      outcomes.push({ name, skipped: true });
      continue;
    }
    try {
      await test.fn();
      outcomes.push({ name });
    } catch (error) {
      outcomes.push({ name, error });
    }
  }
  return outcomes;
}

const failed = (outcomes: Outcome[]) => outcomes.filter((o) => o.error !== undefined).map((o) => o.name);
const failure = (outcomes: Outcome[], name: string) => outcomes.find((o) => o.name === name)?.error;

/** Ignores the namespace on get: an id of one namespace becomes readable through another. */
class LeakyNamespaceAdapter extends MemoryAdapter {
  override async getRow(id: number): Promise<CheckpointRow | undefined> {
    return this.getRowAnyNamespace(id);
  }
}

/** Returns pages oldest first. */
class OldestFirstAdapter extends MemoryAdapter {
  override async listRows(query: ListRowsQuery): Promise<CheckpointRow[]> {
    const all = await super.listRows({ ...query, limit: 100_000, offset: 0 });
    return all.reverse().slice(query.offset, query.offset + query.limit);
  }
}

/** Counts a range's offset from 1 instead of 0 (the row after the asked one). */
class OffByOneAdapter extends MemoryAdapter {
  override async sourceRefAt(query: SourceRefPositionQuery): Promise<string | undefined> {
    return super.sourceRefAt({ ...query, offset: query.offset + 1 });
  }
}

/** Inserts a batch row by row and keeps the rows before the one refused (no all or nothing). */
class HalfBatchAdapter extends MemoryAdapter {
  override async insertMany(rows: readonly NewCheckpointRow[]): Promise<number[]> {
    const ids: number[] = [];
    for (const row of rows) ids.push((await this.insert(row)).id);
    return ids;
  }
}

/**
 * A conditional multi-row insert that checks the required rows by ref only, never by SHA-256
 * (the check a writer remembering a row's hash relies on).
 */
class HashBlindBatchAdapter extends MemoryAdapter {
  async insertManyIfPresent(rows: readonly NewCheckpointRow[], precondition: InsertPrecondition): Promise<number[] | undefined> {
    const found = await this.findBySourceRefs((rows[0] as NewCheckpointRow).namespace, precondition.present.map((p) => p.sourceRef));
    if (found.length !== precondition.present.length) return undefined;
    try {
      return await this.insertMany(rows);
    } catch {
      return undefined;
    }
  }
}

/** Hands back a payload other than the stored one (e.g. a driver that re-serialises JSON). */
class ReformattingAdapter extends MemoryAdapter {
  override async getRow(id: number, namespace: string): Promise<CheckpointRow | undefined> {
    const row = await super.getRow(id, namespace);
    return row && { ...row, payloadJson: JSON.stringify(JSON.parse(row.payloadJson), null, 1) };
  }
}

/** Assigns the highest live id plus one, so deleting the highest id frees it for reuse. */
class ReusingIdsAdapter extends MemoryAdapter {
  override async insert(row: NewCheckpointRow, options?: InsertOptions): Promise<InsertResult> {
    if (row.id !== undefined) return super.insert(row, options);
    const rows = await this.scanRows({ afterId: 0, limit: Number.MAX_SAFE_INTEGER });
    return super.insert({ ...row, id: Math.max(0, ...rows.map((r) => r.id)) + 1 }, options);
  }
}

/** Decodes a payload stored as bytes into text, as a driver that reads BLOBs as strings would. */
class DecodingBytesAdapter extends MemoryAdapter {
  override async getRow(id: number, namespace: string): Promise<CheckpointRow | undefined> {
    const row = await super.getRow(id, namespace);
    const payload: unknown = row?.payloadJson;
    return row && payload instanceof Uint8Array ? { ...row, payloadJson: new TextDecoder().decode(payload) } : row;
  }
}

/**
 * Keeps its id sequence in memory only, starting from the highest id in the file when opened:
 * correct while it stays open, but after the highest row is deleted and the store is reopened,
 * that id is handed out a second time.
 */
class MemorySequenceFileAdapter extends JsonFileAdapter {
  protected override nextId(_state: FileState, rows: readonly CheckpointRow[]): number {
    const open = this.open as OpenFile & { sequence?: number };
    open.sequence ??= Math.max(0, ...rows.map((r) => r.id));
    return open.sequence + 1;
  }

  protected override idUsed(_state: FileState, id: number): void {
    const open = this.open as OpenFile & { sequence?: number };
    open.sequence = Math.max(open.sequence ?? 0, id);
  }
}

/**
 * Declares `multiProcess`, but its one-call-at-a-time queue holds only the callers of its own
 * process: another process's read-modify-write of the file in between is overwritten.
 */
class MultiProcessFileAdapter extends JsonFileAdapter {
  override get capabilities(): AdapterCapabilities {
    return { ...super.capabilities, multiProcess: true };
  }
}

/**
 * The module the multi-process case's child processes open {@link MultiProcessFileAdapter} with:
 * json-file-adapter.ts transpiled to JavaScript (a child process runs plain Node) under this
 * package's out-tsc, so its imports resolve as the source's do.
 */
function multiProcessFileOpener(): string {
  const dir = fileURLToPath(new URL('../out-tsc/process-child/', import.meta.url));
  mkdirSync(dir, { recursive: true });
  const source = readFileSync(fileURLToPath(new URL('./test-support/json-file-adapter.ts', import.meta.url)), 'utf8');
  const { outputText } = ts.transpileModule(source, { compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 } });
  writeFileSync(join(dir, 'json-file-adapter.mjs'), outputText);
  writeFileSync(
    join(dir, 'open-multi-process-file.mjs'),
    `import { JsonFileAdapter } from './json-file-adapter.mjs';
class MultiProcessFileAdapter extends JsonFileAdapter {
  get capabilities() { return { ...super.capabilities, multiProcess: true }; }
}
export async function openAdapter(location) { return new MultiProcessFileAdapter(location); }
`,
  );
  return join(dir, 'open-multi-process-file.mjs');
}

/** Its `close()` does nothing: calls after close keep working. */
class IgnoredCloseFileAdapter extends JsonFileAdapter {
  override async close(): Promise<void> {}
}

const ISOLATION = [
  "isolation > a create by another caller while a transaction is open survives that transaction's rollback",
  "isolation > a delete by another caller while a transaction is open is not undone by that transaction's rollback",
  'isolation > reads outside an open transaction never see its uncommitted rows',
  'isolation > reads outside a transaction that commits see all of its rows or none, and writes meanwhile survive the commit',
];

/** The sealed group's multi-process case, skipped where `multiProcess` is not declared. */
const SEALED_PROCESSES_SKIPPED = 'sealed > sealed writers in several OS processes at once leave every chain and head valid (skipped: the adapter does not declare the capability multiProcess)';

/** The transaction-lock cases, which need `transactionLocks`. */
const LOCK_CASES = [
  'transactions > a transaction lock is held until its holder commits, and the next holder sees what it committed',
  'transactions > a transaction lock ends with a rollback too',
  'transactions > a transaction lock is refused outside a transaction',
];

/** The conditional-insert cases, which need `conditionalInserts`. */
const CONDITIONAL_CASES = [
  'conditionalInsert > insertIfPresent inserts only when every required row exists, with the SHA-256 asked for',
  'conditionalInsert > insertIfPresent waits for a transaction holding its lock, and does not insert when that transaction deleted a required row',
];

/** The multi-range read case, which needs the adapter's `listBySourceRefRanges`. */
const RANGES_SKIPPED = 'sourceRef > listBySourceRefRanges reads several prefix ranges, each from an offset, one list per range (skipped: the adapter has no listBySourceRefRanges)';

/** The conditional multi-row insert case, which needs the adapter's `insertManyIfPresent`. */
const MANY_IF_PRESENT_SKIPPED = 'conditionalInsert > insertManyIfPresent inserts the whole batch only when every required row exists and no ref is taken (skipped: the adapter has no insertManyIfPresent)';

describe('the conformance suite', () => {
  it('passes the correct reference adapter on every case it can run, and reports the rest as skipped', async () => {
    const outcomes = await runSuite(memorySubject(() => new MemoryAdapter()));
    expect(outcomes.length).toBe(55);
    expect(failed(outcomes)).toEqual([]);
    expect(outcomes.filter((o) => o.skipped).map((o) => o.name)).toEqual([
      RANGES_SKIPPED,
      'transactions > a transaction lock is held until its holder commits, and the next holder sees what it committed (skipped: the adapter does not declare the capability transactionLocks)',
      'transactions > a transaction lock ends with a rollback too (skipped: the adapter does not declare the capability transactionLocks)',
      'transactions > a transaction lock is refused outside a transaction (skipped: the adapter does not declare the capability transactionLocks)',
      ...CONDITIONAL_CASES.map((name) => `${name} (skipped: the adapter does not declare the capability conditionalInserts)`),
      MANY_IF_PRESENT_SKIPPED,
      'concurrency > creates from several OS processes at once are all stored, with distinct ids (skipped: the adapter does not declare the capability multiProcess)',
      SEALED_PROCESSES_SKIPPED,
      'persistence > data survives a second adapter over the same store (skipped: the adapter does not declare the capability persistent)',
      'persistence > ids are never reused after deleting the highest row, closing and reopening (skipped: the adapter does not declare the capability persistent)',
    ]);
  });

  it('passes a correct persistent JSON-file adapter on every case, only the multi-process one skipped (it locks within its own process)', async () => {
    const outcomes = await runSuite(() => jsonFileSubject());
    expect(outcomes.length).toBe(55);
    expect(outcomes.filter((o) => o.skipped).map((o) => o.name)).toEqual([
      RANGES_SKIPPED,
      MANY_IF_PRESENT_SKIPPED,
      'concurrency > creates from several OS processes at once are all stored, with distinct ids (skipped: the adapter does not declare the capability multiProcess)',
      SEALED_PROCESSES_SKIPPED,
    ]);
    expect(failed(outcomes)).toEqual([]);
  });

  it('fails a JSON-file adapter that declares multiProcess but locks only within its own process, on the multi-process case only', async () => {
    const opener = multiProcessFileOpener();
    const outcomes = await runSuite(async () => {
      const subject = await jsonFileSubject(MultiProcessFileAdapter);
      return { ...subject, otherProcess: { module: opener, location: (subject.adapter as JsonFileAdapter).path } };
    });
    const name = 'concurrency > creates from several OS processes at once are all stored, with distinct ids';
    // The sealed writers lose rows (or break a chain) the same way.
    expect(failed(outcomes)).toEqual([name, 'sealed > sealed writers in several OS processes at once leave every chain and head valid']);
    // Rows lost to another process's write-back, or a process failing on the half-written file it read.
    expect(String(failure(outcomes, name))).toMatch(/^ConformanceFailure: (every create of every process must be stored: \d+ of 160 lost|every writer process must finish its creates: process \d exited 1: .+|creates from several processes must get distinct ids: .+)$/s);
  });

  it('fails a file adapter whose id sequence lives only in memory, on the reopening case only, naming the rule', async () => {
    const outcomes = await runSuite(() => jsonFileSubject(MemorySequenceFileAdapter));
    const name = 'persistence > ids are never reused after deleting the highest row, closing and reopening';
    expect(failed(outcomes)).toEqual([name]);
    const error = failure(outcomes, name);
    expect(error).toBeInstanceOf(ConformanceFailure);
    expect((error as ConformanceFailure).rule).toBe('ids must never be reused, not even after deleting the highest row, closing and reopening the store');
    expect((error as ConformanceFailure).message).toMatch(/: got 2 twice$/);
  });

  it('fails a file adapter whose close() does nothing, on the close case only, naming the rule', async () => {
    const outcomes = await runSuite(() => jsonFileSubject(IgnoredCloseFileAdapter));
    const name = 'close > calls after close() fail with the store-closed error';
    expect(failed(outcomes)).toEqual([name]);
    const error = failure(outcomes, name);
    expect(error).toBeInstanceOf(ConformanceFailure);
    expect((error as ConformanceFailure).rule).toBe('calls after close() must fail with the store-closed error');
    expect((error as ConformanceFailure).message).toBe('calls after close() must fail with the store-closed error: create succeeded');
  });

  it('runs one group on its own', async () => {
    const registered: string[] = [];
    const api: ConformanceTestApi = {
      describe: (name, fn) => {
        registered.push(name);
        fn();
      },
      it: Object.assign((name: string, _fn: () => Promise<void>, timeout?: number) => void registered.push(`${name} (${timeout})`), { skip: () => {} }),
    };
    await runConformanceGroup(api, 'close', memorySubject(() => new MemoryAdapter()));
    expect(registered).toEqual([
      'session-checkpoint adapter conformance',
      'close',
      'calls after close() fail with the store-closed error (60000)',
      'closing twice is harmless (60000)',
    ]);
  });

  it('fails a JSON-file adapter whose rollback writes back a snapshot of the file, on the isolation cases and the sealed concurrency case only', async () => {
    const outcomes = await runSuite(snapshotFileSubject);
    // It passes every other case (persistence, close and byte tampering included); it declares no
    // transaction lock, so those three cases are skipped.
    expect(outcomes.filter((o) => o.skipped).map((o) => o.name)).toEqual([
      RANGES_SKIPPED,
      ...LOCK_CASES.map((name) => `${name} (skipped: the adapter does not declare the capability transactionLocks)`),
      ...CONDITIONAL_CASES.map((name) => `${name} (skipped: the adapter does not declare the capability conditionalInserts)`),
      MANY_IF_PRESENT_SKIPPED,
      'concurrency > creates from several OS processes at once are all stored, with distinct ids (skipped: the adapter does not declare the capability multiProcess)',
      SEALED_PROCESSES_SKIPPED,
    ]);
    // Its rollback also writes back heads over those of concurrent sealed writes: chains break.
    expect(failed(outcomes).sort()).toEqual([...ISOLATION, 'sealed > concurrent sealed writes, and a transaction that fails, leave one consistent chain per session'].sort());
    expect(String(failure(outcomes, ISOLATION[0]!))).toMatch(
      /^ConformanceFailure: a rollback must undo the transaction's own create only, never a create another caller completed meanwhile: expected \[ 1, 3 \], got \[ 1 \]$/,
    );
    expect(String(failure(outcomes, ISOLATION[1]!))).toMatch(/a rollback must not bring back a row another caller deleted meanwhile/);
    expect(String(failure(outcomes, ISOLATION[2]!))).toMatch(/reads outside an open transaction must never see its uncommitted rows: list saw row 2/);
    expect(String(failure(outcomes, ISOLATION[3]!))).toMatch(/must see all of its rows or none of them: saw 1 of 2/);
  });

  it('states the broken rule in words, with a stack that starts in the case that checks it', async () => {
    const error = failure(await runSuite(memorySubject(() => new ReusingIdsAdapter()), { only: ['ids'] }), 'ids > ids ascend and are never reused after deleting the highest');
    expect(error).toBeInstanceOf(ConformanceFailure);
    expect((error as ConformanceFailure).message).toBe('ids must never be reused after delete: got 2 twice');
    expect((error as ConformanceFailure).rule).toBe('ids must never be reused after delete');
    const firstFrame = (error as Error).stack?.split('\n').find((line) => line.trimStart().startsWith('at '));
    expect(firstFrame).toMatch(/[/\\]groups[/\\]ids\.(ts|js)/);
  });

  it('fails an adapter that leaks ids across namespaces', async () => {
    const names = failed(await runSuite(memorySubject(() => new LeakyNamespaceAdapter())));
    expect(names).toContain('namespaces > an id of another namespace is not found for get and delete');
  });

  it('fails an adapter that orders pages oldest first', async () => {
    const names = failed(await runSuite(memorySubject(() => new OldestFirstAdapter()), { only: ['ordering'] }));
    expect(names).toContain('ordering > list orders by created_at desc, then id desc, and pages with limit/offset');
  });

  it('fails an adapter whose sourceRefAt passes over one row too many', async () => {
    const outcomes = await runSuite(memorySubject(() => new OffByOneAdapter()), { only: ['sourceRef'] });
    expect(failed(outcomes)).toEqual(['sourceRef > sourceRefAt gives the ref a given number of rows into a prefix range']);
    expect(String(failure(outcomes, 'sourceRef > sourceRefAt gives the ref a given number of rows into a prefix range'))).toMatch(/offset 0 must give the first ref of the range/);
  });

  it('fails an adapter whose insertMany keeps the rows before a refused one', async () => {
    const outcomes = await runSuite(memorySubject(() => new HalfBatchAdapter()), { only: ['crud'] });
    expect(failed(outcomes)).toEqual(['crud > insertMany inserts a batch in order, all or nothing']);
  });

  it('fails an adapter whose insertManyIfPresent does not compare the required rows\' SHA-256', async () => {
    const outcomes = await runSuite(memorySubject(() => new HashBlindBatchAdapter()), { only: ['conditionalInsert'] });
    expect(failed(outcomes)).toEqual(['conditionalInsert > insertManyIfPresent inserts the whole batch only when every required row exists and no ref is taken']);
    expect(String(failure(outcomes, 'conditionalInsert > insertManyIfPresent inserts the whole batch only when every required row exists and no ref is taken'))).toMatch(/another SHA-256/);
  });

  it('fails an adapter that does not return the stored payload text untouched', async () => {
    const outcomes = await runSuite(memorySubject(() => new ReformattingAdapter()), { only: ['crud'] });
    expect(String(failure(outcomes, 'crud > create then get returns the same fields and exact payload text'))).toMatch(/integrity verification/);
  });

  it('fails an adapter that hands back tampered bytes as text', async () => {
    const outcomes = await runSuite(memorySubject(() => new DecodingBytesAdapter()), { only: ['integrity'] });
    expect(failed(outcomes)).toEqual(['integrity > a payload tampered to bytes is stored as those bytes, and reads fail closed']);
    expect(String(outcomes.find((o) => o.error)?.error)).toMatch(/must be stored as those bytes and returned by the adapter as bytes, not decoded: stored bytes \[/);
  });

  it('reports a group left out by options as skipped, with the reason, and registers nothing for groups not listed', async () => {
    const outcomes = await runSuite(memorySubject(() => new MemoryAdapter()), { only: ['sourceRef', 'concurrency'], skip: { concurrency: 'not today' } });
    expect(outcomes).toEqual([
      { name: 'sourceRef > source_ref is unique per namespace; null never collides' },
      { name: 'sourceRef > listBySourceRefPrefix reads a prefix range of one namespace in code point order' },
      { name: 'sourceRef > sourceRefAt gives the ref a given number of rows into a prefix range' },
      { name: RANGES_SKIPPED, skipped: true },
      { name: 'sourceRef > findBySourceRefs finds the rows of several source refs of one namespace at once' },
      { name: 'concurrency > concurrent creates all succeed with distinct ids (skipped: not today)', skipped: true },
      { name: 'concurrency > creates from several OS processes at once are all stored, with distinct ids (skipped: not today)', skipped: true },
    ]);
  });
});
