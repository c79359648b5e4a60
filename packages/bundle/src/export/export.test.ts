import { execFileSync } from 'node:child_process';
import { existsSync, linkSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  CheckpointIntegrityError,
  CheckpointStore,
  CheckpointValidationError,
  MemoryAdapter,
} from '@session-checkpoint/core';
import { EXPORT_SCHEMA } from '../bundle-format.js';
import type { BundleProgress } from '../progress.js';
import { openTestStore, tempDir, type TestStore } from '../test-support/stores.js';
import { readCappedTextFile } from '../import/read-bundle-file.js';
import { writeFileAtomic } from './atomic-file.js';
import { exportBundle } from './export-bundle.js';
import { serializeBundle } from './serialize-bundle.js';
import { prepareExportTarget } from './store-path-guard.js';
import { writeBundleFile } from './write-bundle-file.js';

const NOW = () => new Date('2026-11-29T08:06:12.987Z');

async function seeded(count: number, payloadChars = 10): Promise<{ store: CheckpointStore; adapter: MemoryAdapter }> {
  const adapter = new MemoryAdapter();
  const store = new CheckpointStore(adapter);
  for (let i = 1; i <= count; i++) {
    await store.create({
      namespace: i % 3 === 0 ? 'ns-b' : 'ns-a',
      sessionId: `s-${i % 4}`,
      payloadJson: `{"i":${i},"f":1.0,"pad":"${'x'.repeat(payloadChars)}"}`,
      createdAt: `2026-08-08T07:00:${String(i % 60).padStart(2, '0')}Z`,
      ...(i % 2 ? { sourceRef: `ref:${i}` } : {}),
    });
  }
  return { store, adapter };
}

describe('exportBundle', () => {
  it('lists verified checkpoints by id in the as_dict layout, payload text exact', async () => {
    const { store } = await seeded(5);
    const events: BundleProgress[] = [];
    const bundle = await exportBundle(store, { now: NOW, onProgress: (e) => events.push(e) });
    expect(Object.keys(bundle)).toEqual(['schema', 'store_schema_version', 'exported_at', 'namespace', 'checkpoints']);
    expect(bundle.schema).toBe(EXPORT_SCHEMA);
    expect(bundle.exported_at).toBe('2026-11-29T08:06:12Z');
    expect(bundle.namespace).toBeNull();
    expect(bundle.checkpoints.map((c) => c.id)).toEqual([1, 2, 3, 4, 5]);
    const first = bundle.checkpoints[0];
    expect(Object.keys(first ?? {})).toEqual(['id', 'namespace', 'session_id', 'kind', 'name', 'payload', 'payload_sha256', 'created_at', 'source_ref']);
    expect(first?.payload.text).toBe(`{"f":1.0,"i":1,"pad":"xxxxxxxxxx"}`);
    expect(events.at(-1)).toEqual({ phase: 'export', done: 5, total: null });
    const b = await exportBundle(store, { namespace: 'ns-b', now: NOW });
    expect(b.namespace).toBe('ns-b');
    expect(b.checkpoints.map((c) => c.id)).toEqual([3]);
    expect(serializeBundle(b)).toContain('\n        "f": 1.0,\n');
  });

  it('refuses a malformed namespace and fails on any bad row, naming all of them', async () => {
    const { store, adapter } = await seeded(4);
    await expect(exportBundle(store, { namespace: 'bad ns' })).rejects.toThrow(CheckpointValidationError);
    await adapter.tamperForTesting(2, { payloadSha256: '0'.repeat(64) });
    await adapter.tamperForTesting(4, { payloadJson: '{"i": 4}' });
    const error = await exportBundle(store).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CheckpointIntegrityError);
    expect((error as CheckpointIntegrityError).ids).toEqual([2, 4]);
  });
});

describe('writeBundleFile', () => {
  const cleanups: TestStore[] = [];
  afterEach(async () => {
    for (const s of cleanups.splice(0)) await s.cleanup();
  });

  it.each([0, 1, 7, 150])('streams the same bytes as serializeBundle (%i checkpoints)', async (count) => {
    // 150 x ~10 KiB crosses the 1 MiB write buffer several times.
    const { store } = await seeded(count, 10_000);
    const dir = tempDir();
    const result = await writeBundleFile(store, join(dir, 'nested', 'deeper', 'out.json'), { now: NOW });
    expect(result).toEqual({ schema: EXPORT_SCHEMA, output: join(dir, 'nested', 'deeper', 'out.json'), checkpoints: count });
    expect(readFileSync(result.output, 'utf8')).toBe(serializeBundle(await exportBundle(store, { now: NOW })));
    expect(readdirSync(join(dir, 'nested', 'deeper'))).toEqual(['out.json']);
  });

  it('writes owner-only files whatever the umask and replaces existing files', async () => {
    const { store } = await seeded(2);
    const dir = tempDir();
    const output = join(dir, 'out.json');
    writeFileSync(output, 'old', { mode: 0o644 });
    const previous = process.umask(0);
    try {
      await writeBundleFile(store, output, { namespace: 'ns-a' });
    } finally {
      process.umask(previous);
    }
    expect(statSync(output).mode & 0o777).toBe(0o600);
    expect(JSON.parse(readFileSync(output, 'utf8'))).toMatchObject({ namespace: 'ns-a' });
  });

  it('refuses to overwrite the store or its companions: same path, relative, symlink, hard link', async () => {
    const s = await openTestStore('sqlite');
    cleanups.push(s);
    await s.store.create({ sessionId: 's', payload: { a: 1 } });
    const storePath = s.path as string;
    const before = readFileSync(storePath);
    const dir = tempDir();
    const link = join(dir, 'link.sqlite');
    symlinkSync(storePath, link);
    const hard = join(dir, 'hard.sqlite');
    linkSync(storePath, hard);
    const relative = join(storePath, '..', '.', 'store.sqlite');
    // A symlink as the last component is refused before the store comparison.
    await expect(writeBundleFile(s.store, link, { storePath })).rejects.toThrow('is a symbolic link; refusing to write through it');
    for (const output of [storePath, relative, hard, `${storePath}-wal`, `${storePath}-journal`]) {
      await expect(writeBundleFile(s.store, output, { storePath })).rejects.toThrow(CheckpointValidationError);
      await expect(writeBundleFile(s.store, output, { storePath })).rejects.toThrow(/^Export output must not overwrite the checkpoint store/u);
    }
    // The store path given through a symlink is resolved too.
    await expect(writeBundleFile(s.store, storePath, { storePath: link })).rejects.toThrow('Export output must not overwrite the checkpoint store');
    expect(readFileSync(storePath).equals(before)).toBe(true);
    const ok = await writeBundleFile(s.store, join(dir, 'fine.json'), { storePath });
    expect(ok.checkpoints).toBe(1);
  });

  it('leaves the previous file and no temporary file behind when a row fails verification', async () => {
    const { store, adapter } = await seeded(3);
    const dir = tempDir();
    const output = join(dir, 'out.json');
    writeFileSync(output, 'previous');
    await adapter.tamperForTesting(3, { payloadSha256: 'f'.repeat(64) });
    await expect(writeBundleFile(store, output)).rejects.toThrow(CheckpointIntegrityError);
    expect(readFileSync(output, 'utf8')).toBe('previous');
    expect(readdirSync(dir)).toEqual(['out.json']);
    await expect(writeBundleFile(store, join(dir, 'new.json'))).rejects.toThrow(CheckpointIntegrityError);
    expect(existsSync(join(dir, 'new.json'))).toBe(false);
    expect(readdirSync(dir)).toEqual(['out.json']);
  });
});

describe('writeFileAtomic', () => {
  it('uses a hidden temporary file in the same directory and removes it on failure', async () => {
    const dir = tempDir();
    const target = join(dir, 'x.json');
    let seen: string[] = [];
    let mode = -1;
    await expect(
      writeFileAtomic(target, async (write) => {
        await write('partial');
        seen = readdirSync(dir);
        mode = statSync(join(dir, seen[0] as string)).mode & 0o777;
        throw new Error('boom');
      }),
    ).rejects.toThrow('boom');
    expect(seen).toHaveLength(1);
    expect(seen[0]).toMatch(/^\.x\.json\.[0-9a-f]{12}\.tmp$/);
    expect(mode).toBe(0o600);
    expect(readdirSync(dir)).toEqual([]);
  });

  it('fails cleanly when the target is a directory', async () => {
    const dir = tempDir();
    await expect(writeFileAtomic(dir, async (write) => write('x'))).rejects.toThrow('is a directory, not a regular file; refusing to replace it');
    expect(readdirSync(join(dir, '..')).filter((n) => n.startsWith('.' + dir.split('/').pop()))).toEqual([]);
  });

  it('never replaces a symlink, and refuses a file that appeared or changed while writing', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'victim'), 'keep');
    symlinkSync('victim', join(dir, 'link'));
    await expect(writeFileAtomic(join(dir, 'link'), async (write) => write('x'))).rejects.toThrow('is a symbolic link, not a regular file');
    // Expected absent, but planted during the write: link() refuses to replace it.
    const planted = join(dir, 'planted.json');
    await expect(
      writeFileAtomic(planted, async (write) => {
        await write('new');
        writeFileSync(planted, 'attacker');
      }, { expected: null }),
    ).rejects.toThrow('was created by someone else while it was being written');
    expect(readFileSync(planted, 'utf8')).toBe('attacker');
    // Expected to be a given file, but swapped for a symlink during the write.
    const swapped = join(dir, 'swapped.json');
    writeFileSync(swapped, 'mine');
    const { dev, ino } = statSync(swapped);
    await expect(
      writeFileAtomic(swapped, async (write) => {
        await write('new');
        rmSync(swapped);
        symlinkSync('victim', swapped);
      }, { expected: { dev, ino } }),
    ).rejects.toThrow('is a symbolic link, not a regular file');
    expect(readFileSync(join(dir, 'victim'), 'utf8')).toBe('keep');
    expect(readdirSync(dir).sort()).toEqual(['link', 'planted.json', 'swapped.json', 'victim']);
  });
});

describe('prepareExportTarget', () => {
  it('refuses non-regular targets and store companions, removing the directories it created', async () => {
    const s = await openTestStore('sqlite');
    try {
      const storePath = s.path as string;
      const dir = tempDir();
      await expect(prepareExportTarget('/dev/null')).rejects.toThrow("Export output '/dev/null' is a character device, not a regular file");
      await expect(prepareExportTarget(`${storePath}-WAL`, { storePath })).rejects.toThrow("the checkpoint store's -wal file");
      await expect(prepareExportTarget(join(dir, 'a', 'b', '..', 'b', 'c/'))).rejects.toThrow('must name a file, not a directory');
      // Created directories are removed again when the file itself is refused.
      symlinkSync('/dev/null', join(dir, 'null'));
      await expect(prepareExportTarget(join(dir, 'x', 'y', '..', '..', 'null'))).rejects.toThrow('is a symbolic link');
      expect(readdirSync(dir)).toEqual(['null']);
      const target = await prepareExportTarget(join(dir, 'new', 'deep', 'out.json'), { storePath });
      expect(target).toMatchObject({ path: join(dir, 'new', 'deep', 'out.json'), existing: null });
      await target.undo();
      expect(readdirSync(dir)).toEqual(['null']);
    } finally {
      await s.cleanup();
    }
  });
});

describe('readCappedTextFile', () => {
  it('reads only regular files, naming the path in every refusal', async () => {
    const dir = tempDir();
    execFileSync('mkfifo', [join(dir, 'fifo')]);
    const options = { maxBytes: 100, label: 'input' };
    await expect(readCappedTextFile(join(dir, 'fifo'), options)).rejects.toThrow(/^input '.*fifo' is a FIFO, not a regular file/u);
    await expect(readCappedTextFile('/dev/zero', options)).rejects.toThrow("input '/dev/zero' is a character device, not a regular file");
    await expect(readCappedTextFile(dir, options)).rejects.toMatchObject({ code: 'EISDIR', path: dir });
    await expect(readCappedTextFile(join(dir, 'none'), options)).rejects.toMatchObject({ code: 'ENOENT', path: join(dir, 'none') });
  });
});
