/**
 * `verify()` of a sealed store beside a writer, in one process: the in-memory adapter here writes
 * through a second store at the exact moments verify reads metadata (after its row scan, between
 * a session's head reads), the interleavings a writer process produces by chance
 * (store-kysely's sealed-verify-processes.test.ts runs those with real processes).
 */
import { describe, expect, it } from 'vitest';
import { MemoryAdapter } from '../memory/memory-adapter.js';
import type { CheckpointAdapter, MetaEntry } from '../port/adapter.js';
import { CheckpointStore } from '../store/checkpoint-store.js';
import { Keyring } from './keyring.js';

const keys = new Keyring([{ id: 'k1', secret: new Uint8Array(32).fill(7) }]);

/** A memory adapter that runs `onMeta` (once per call, never inside itself) before each metadata read. */
class Interleaved extends MemoryAdapter {
  onMeta: (() => Promise<void>) | undefined;
  refuseTransactions = false;
  #inside = false;

  async #hook(): Promise<void> {
    if (this.onMeta === undefined || this.#inside) return;
    this.#inside = true;
    try {
      await this.onMeta();
    } finally {
      this.#inside = false;
    }
  }

  override async readMeta(keys: readonly string[]): Promise<MetaEntry[]> {
    await this.#hook();
    return super.readMeta(keys);
  }

  override async listMeta(prefix: string): Promise<MetaEntry[]> {
    await this.#hook();
    return super.listMeta(prefix);
  }

  override async transaction<T>(fn: (tx: CheckpointAdapter) => Promise<T>): Promise<T> {
    // As a read-only file would: no transaction to be had (the writer's own go through `inside`).
    if (this.refuseTransactions && this.onMeta !== undefined && !this.#inside) throw new Error('attempt to write a readonly database');
    return super.transaction(fn);
  }
}

async function setup() {
  const adapter = new Interleaved();
  const store = new CheckpointStore(adapter, { keys });
  const writer = new CheckpointStore(adapter, { keys });
  const ids: number[] = [];
  for (let i = 0; i < 6; i++) ids.push((await store.create({ namespace: 'app', sessionId: i % 2 ? 'a' : 'b', payload: { i } })).id);
  let n = 0;
  const write = (sessionId: string) => async () => void (await writer.create({ namespace: 'app', sessionId, payload: { n: n++ } }));
  return { adapter, store, writer, ids, write };
}

describe('verify of a sealed store beside a writer', () => {
  it('a write landing between the row scan and the head reads is not reported, whole store or namespace', async () => {
    for (const options of [{}, { namespace: 'app' }]) {
      const { adapter, store, write } = await setup();
      let writes = 0;
      const once = write('a');
      adapter.onMeta = async () => {
        if (writes++ === 0) await once();
      };
      const report = await store.verify(options);
      expect(writes).toBeGreaterThan(0);
      expect(report.failures).toEqual([]);
      expect(report.seal?.problems).toEqual([]);
    }
  });

  it('a session written before every read settles in a read holding the store head, and is checked', async () => {
    const { adapter, store, write } = await setup();
    adapter.onMeta = write('a');
    const report = await store.verify();
    expect(report.seal?.problems).toEqual([]);
    adapter.onMeta = undefined;
    expect((await store.verify()).seal?.problems).toEqual([]);
  });

  it('when that read cannot be had (read-only), the session is reported busy, not as damage', async () => {
    const { adapter, store, write } = await setup();
    adapter.refuseTransactions = true;
    adapter.onMeta = write('a');
    const problems = (await store.verify({ namespace: 'app' })).seal?.problems ?? [];
    expect(problems.length).toBeGreaterThan(0);
    for (const p of problems) expect(p.reason).toMatch(/^busy, not damage/);
  });

  it('a row deleted is still reported while writes land between the reads, and only that session', async () => {
    const { adapter, store, ids, write } = await setup();
    await adapter.deleteRows([ids[2] as number], 'app');
    adapter.onMeta = write('a');
    const report = await store.verify();
    const problems = report.seal?.problems ?? [];
    expect(problems.length).toBeGreaterThan(0);
    for (const p of problems) expect(p).toMatchObject({ namespace: 'app', sessionId: 'b' });
    expect(problems.some((p) => p.reason.startsWith('busy'))).toBe(false);
  });
});
