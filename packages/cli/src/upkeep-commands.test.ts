/**
 * The upkeep commands (issue 37 items 3-5) through the real binary: `stats`, `pin`/`unpin`,
 * `prune --idle-for` and `compact`, and their refusals, which leave the store byte-identical.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { removeTempDirs, runCli, tempDir } from './test-support/run-cli.js';

let dir: string;

async function ok(args: string[], input?: string): Promise<Record<string, unknown>> {
  const r = await runCli(args, { cwd: dir, ...(input === undefined ? {} : { input }) });
  expect(r.stderr).toBe('');
  expect(r.code, r.stdout).toBe(0);
  return (JSON.parse(r.stdout) as { result: Record<string, unknown> }).result;
}

async function create(store: string, ns: string, session: string, at: string | undefined, payload: unknown): Promise<void> {
  await ok(['create', '--store', store, '--namespace', ns, '--session-id', session, '--payload-file', '-', ...(at === undefined ? [] : ['--created-at', at])], JSON.stringify(payload));
}

describe('upkeep commands', () => {
  beforeAll(async () => {
    dir = tempDir('sc-upkeep-');
    await create('s.sqlite', 'app', 'old', '2026-01-01T00:00:00Z', { n: 1 });
    await create('s.sqlite', 'app', 'old', '2026-01-02T00:00:00Z', { n: 2 });
    await create('s.sqlite', 'app', 'kept', '2026-01-03T00:00:00Z', { n: 3 });
    await create('s.sqlite', 'app', 'fresh', undefined, { text: 'x'.repeat(500) });
    await create('s.sqlite', 'langgraph', 'thread-1', '2026-01-04T00:00:00Z', { text: 'y'.repeat(2000) });
  });
  afterAll(removeTempDirs);

  it('stats: per namespace and session, largest first, with the file size', async () => {
    const stats = await ok(['stats', '--store', 's.sqlite']);
    const namespaces = stats.namespaces as { namespace: string; session_count: number; rows: number; sessions: { session_id: string; rows: number; bytes: number; oldest: string; newest: string; pinned: boolean }[] }[];
    expect(namespaces.map((ns) => ns.namespace)).toEqual(['langgraph', 'app']);
    expect(namespaces[1]?.sessions.map((s) => s.session_id)).toEqual(['fresh', 'old', 'kept']);
    expect(namespaces[1]?.sessions[1]).toEqual({ session_id: 'old', rows: 2, bytes: 14, oldest: '2026-01-01T00:00:00Z', newest: '2026-01-02T00:00:00Z', pinned: false });
    expect(stats.totals).toEqual({ namespaces: 2, sessions: 4, rows: 5, bytes: namespaces.reduce((n, ns) => n + ns.sessions.reduce((m, s) => m + s.bytes, 0), 0) });
    expect(stats.storage).toMatchObject({ kind: 'sqlite', journal_mode: 'wal' });
    const one = await ok(['stats', '--store', 's.sqlite', '--namespace', 'app']);
    expect((one.namespaces as unknown[]).length).toBe(1);
  });

  it('pin, prune --idle-for (dry run, then --apply), unpin', async () => {
    expect(await ok(['pin', '--store', 's.sqlite', '--namespace', 'app', '--session-id', 'kept'])).toEqual({ namespace: 'app', session_id: 'kept', pinned: true, was_pinned: false });
    const stats = await ok(['stats', '--store', 's.sqlite', '--namespace', 'app']);
    expect((stats.pins as { session_id: string }[]).map((p) => p.session_id)).toEqual(['kept']);
    const dry = await ok(['prune', '--store', 's.sqlite', '--idle-for', '30d']);
    expect(dry).toMatchObject({ dry_run: true, idle_for: '30d', deleted_rows: 0, skipped: [] });
    expect((dry.expired as { namespace: string; session_id: string }[]).map((e) => `${e.namespace}/${e.session_id}`)).toEqual(['app/old', 'langgraph/thread-1']);
    expect(dry.pinned).toEqual([{ namespace: 'app', session_id: 'kept', newest: '2026-01-03T00:00:00Z' }]);
    const applied = await ok(['prune', '--store', 's.sqlite', '--namespace', 'app', '--idle-for', '30d', '--apply']);
    expect(applied.expired).toEqual([{ namespace: 'app', session_id: 'old', rows: 2, bytes: 14, newest: '2026-01-02T00:00:00Z', deleted: [1, 2] }]);
    expect(applied.deleted_rows).toBe(2);
    expect((await ok(['unpin', '--store', 's.sqlite', '--namespace', 'app', '--session-id', 'kept'])).was_pinned).toBe(true);
    const sessions = (await ok(['sessions', '--store', 's.sqlite', '--namespace', 'app'])) as unknown as { session_id: string }[];
    expect(sessions.map((s) => s.session_id).sort()).toEqual(['fresh', 'kept']);
  });

  it('refuses a bad duration or mixed criteria with a JSON error, leaving the store byte-identical', async () => {
    const before = readFileSync(join(dir, 's.sqlite'));
    for (const [args, message] of [
      [['--idle-for', '30 days'], /duration such as 30d/],
      [['--idle-for', '0d', '--apply'], /longer than zero/],
      [['--idle-for', '30d', '--keep-latest', '1', '--apply'], /takes no --session-id, --keep-latest or --older-than/],
    ] as const) {
      const r = await runCli(['prune', '--store', 's.sqlite', ...args], { cwd: dir });
      expect(r.code).toBe(1);
      const parsed = JSON.parse(r.stdout) as { ok: boolean; error: string; type: string };
      expect(parsed).toMatchObject({ ok: false, type: 'CheckpointValidationError' });
      expect(parsed.error).toMatch(message);
    }
    expect(readFileSync(join(dir, 's.sqlite')).equals(before)).toBe(true);
  });

  it('compact: a dry run reports the free pages; --apply gives them back', async () => {
    for (let i = 0; i < 12; i++) await create('c.sqlite', 'big', `s-${i % 3}`, undefined, { text: 'z'.repeat(60_000 + i) });
    await ok(['prune', '--store', 'c.sqlite', '--namespace', 'big', '--keep-latest', '1', '--apply']);
    const dry = await ok(['compact', '--store', 'c.sqlite']);
    expect(dry).toMatchObject({ dry_run: true, compacted: false, after: null, advice: null });
    expect(dry.reclaimable_bytes as number).toBeGreaterThan(400_000);
    const applied = await ok(['compact', '--store', 'c.sqlite', '--apply']);
    expect(applied).toMatchObject({ dry_run: false, compacted: true, after: { free_pages: 0, reclaimable_bytes: 0 } });
    expect((applied.after as { file_bytes: number }).file_bytes).toBeLessThan((applied.before as { file_bytes: number }).file_bytes - 400_000);
    expect(await ok(['verify', '--store', 'c.sqlite'])).toMatchObject({ failures: [] });
  });
});
