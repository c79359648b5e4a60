import { MemoryAdapter, type CheckpointRow, type ListRowsQuery } from '@session-checkpoint/core';
import { describe, expect, it } from 'vitest';
import { runConformanceSuite } from './index.js';
import type { ConformanceTestApi } from './types.js';

/*
 * The suite is only worth something if it fails adapters that break the contract. These tests run
 * it against deliberately broken adapters through a collecting test API and check that the cases
 * guarding the broken rule fail, and that the correct adapter passes every case.
 */

interface Outcome {
  name: string;
  error?: unknown;
}

async function runSuite(makeAdapter: () => MemoryAdapter): Promise<Outcome[]> {
  const registered: { name: string; fn: () => Promise<void> }[] = [];
  const path: string[] = [];
  const api: ConformanceTestApi = {
    describe(name, fn) {
      path.push(name);
      fn();
      path.pop();
    },
    it(name, fn) {
      registered.push({ name: [...path, name].join(' > '), fn });
    },
  };
  runConformanceSuite(api, async () => {
    const adapter = makeAdapter();
    return { adapter, tamper: (id, patch) => adapter.tamperForTesting(id, patch), destroy: () => adapter.close() };
  });
  const outcomes: Outcome[] = [];
  for (const test of registered) {
    try {
      await test.fn();
      outcomes.push({ name: test.name });
    } catch (error) {
      outcomes.push({ name: test.name, error });
    }
  }
  return outcomes;
}

const failed = (outcomes: Outcome[]) => outcomes.filter((o) => o.error !== undefined).map((o) => o.name);

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

/** Hands back a payload other than the stored one (e.g. a driver that re-serialises JSON). */
class ReformattingAdapter extends MemoryAdapter {
  override async getRow(id: number, namespace: string): Promise<CheckpointRow | undefined> {
    const row = await super.getRow(id, namespace);
    return row && { ...row, payloadJson: JSON.stringify(JSON.parse(row.payloadJson), null, 1) };
  }
}

describe('the conformance suite', () => {
  it('passes the correct reference adapter on every case', async () => {
    const outcomes = await runSuite(() => new MemoryAdapter());
    expect(outcomes.length).toBeGreaterThan(20);
    expect(failed(outcomes)).toEqual([]);
  });

  it('fails an adapter that leaks ids across namespaces', async () => {
    const names = failed(await runSuite(() => new LeakyNamespaceAdapter()));
    expect(names).toContain('session-checkpoint adapter conformance > namespaces > an id of another namespace is not found for get and delete');
  });

  it('fails an adapter that orders pages oldest first', async () => {
    const names = failed(await runSuite(() => new OldestFirstAdapter()));
    expect(names).toContain('session-checkpoint adapter conformance > ordering > list orders by created_at desc, then id desc, and pages with limit/offset');
  });

  it('fails an adapter that does not return the stored payload text untouched', async () => {
    const outcomes = await runSuite(() => new ReformattingAdapter());
    const crud = outcomes.find((o) => o.name.endsWith('create then get returns the same fields and exact payload text'));
    expect(crud?.error).toBeDefined();
    expect(String(crud?.error)).toMatch(/integrity verification/);
  });
});
