/**
 * Sealed stores through the real binary (issue 36, the CLI): `keys new`, `--key-file` and
 * `SESSION_CHECKPOINT_KEY_FILE`, the seal status of printed rows and of the inspector's
 * timeline, sealed and plaintext bundles, imports across keys, and a whole CLI session scanned for
 * the key bytes (hex, base64, base64url): no secret in any output, error, bundle or debug bundle.
 */
import { execFileSync } from 'node:child_process';
import { chmodSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadKeyFile } from '@session-checkpoint/core';
import { openSqliteStore } from '@session-checkpoint/store-kysely';
import { writeInspectFixture } from './test-support/inspect-fixture.js';
import { rawRequest, startInspect } from './test-support/inspect-server.js';
import { CLI_BIN, cliEnv, fileHash, removeTempDirs, runCli, tempDir, type CliResult } from './test-support/run-cli.js';

/** Every output of the session, for the key scan at the end. */
const seen: { what: string; text: string }[] = [];

async function cli(args: readonly string[], options: { env?: Record<string, string | undefined>; input?: string } = {}): Promise<CliResult> {
  const result = await runCli(args, { cwd: dir, ...options });
  seen.push({ what: args.join(' '), text: result.stdout + result.stderr });
  return result;
}

function ok(result: CliResult): any {
  const out = JSON.parse(result.stdout) as { ok: boolean; result?: unknown };
  expect(out.ok, result.stdout).toBe(true);
  return out.result;
}

function refused(result: CliResult, type: string, message?: RegExp): string {
  const out = JSON.parse(result.stdout) as { ok: boolean; error: string; type: string };
  expect(out.ok, result.stdout).toBe(false);
  expect(out.type, result.stdout).toBe(type);
  if (message) expect(out.error).toMatch(message);
  return out.error;
}

let dir: string;
let store: string;
let keys: string;

beforeAll(async () => {
  dir = tempDir('sc-cli-sealed-');
  store = join(dir, 'app.sqlite');
  keys = join(dir, 'app.keys');
  writeFileSync(join(dir, 'p.json'), JSON.stringify({ messages: ['the customer said: account 4711'], step: 1 }));
});
afterAll(removeTempDirs);

describe('keys new', () => {
  it('writes an owner-only key file whatever the umask, prints key ids only, and never overwrites', async () => {
    const out = execFileSync('sh', ['-c', `umask 000 && exec "${process.execPath}" "${CLI_BIN}" keys new --output app.keys --id app-1`], { cwd: dir, env: cliEnv(), encoding: 'utf8' });
    seen.push({ what: 'keys new (umask 000)', text: out });
    expect(JSON.parse(out)).toEqual({ ok: true, result: { output: keys, active: 'app-1', keys: ['app-1'] } });
    expect(statSync(keys).mode & 0o777).toBe(0o600);
    const file = JSON.parse(readFileSync(keys, 'utf8')) as { format: string; active: string; keys: { id: string; secret: string }[] };
    expect(file.format).toBe('session-checkpoint.keys.v1');
    expect(Buffer.from(file.keys[0]!.secret, 'base64')).toHaveLength(32);
    const before = fileHash(keys);
    refused(await cli(['keys', 'new', '--output', 'app.keys']), 'OSError', /File exists: '.*app\.keys'/u);
    expect(fileHash(keys)).toBe(before);
    refused(await cli(['keys', 'new', '--output', 'x.keys', '--id', 'not valid']), 'CheckpointValidationError', /key id must be/u);
    refused(await cli(['keys', 'new', '--output', 'x.keys', '--key-file', 'app.keys']), 'UsageError', /--from/u);
    // The topic alone, or with a command it does not have: one JSON usage error (exit 2), not help text.
    for (const args of [['keys'], ['keys', 'old']]) {
      const result = await cli(args);
      expect(result.code).toBe(2);
      refused(result, 'UsageError', /^argument keys: .*\(choose from 'new'\)$/u);
    }
  });

  it('--from keeps the keys of an existing file for reading, the new key active', async () => {
    const out = ok(await cli(['keys', 'new', '--output', 'rotated.keys', '--from', 'app.keys', '--id', 'app-2']));
    expect(out).toEqual({ output: join(dir, 'rotated.keys'), active: 'app-2', keys: ['app-1', 'app-2'] });
    expect(statSync(join(dir, 'rotated.keys')).mode & 0o777).toBe(0o600);
  });
});

describe('a sealed store through the CLI', () => {
  it('--key-file and SESSION_CHECKPOINT_KEY_FILE seal every row; printed rows say they are sealed, encrypted and verified', async () => {
    const created = ok(await cli(['create', '--store', store, '--key-file', keys, '--session-id', 't1', '--payload-file', 'p.json', '--created-at', '2026-01-01T00:00:01Z']));
    expect(created.seal).toEqual({ sealed: true, encrypted: true, verified: true });
    ok(await cli(['create', '--store', store, '--session-id', 't1', '--payload-file', '-', '--created-at', '2026-01-01T00:00:02Z'], { env: { SESSION_CHECKPOINT_KEY_FILE: keys }, input: '{"step": 2}' }));
    const seal = { sealed: true, encrypted: true, verified: true };
    const got = ok(await cli(['get', '--store', store, '--key-file', keys, '--id', '1']));
    expect(got).toMatchObject({ id: 1, payload: { messages: ['the customer said: account 4711'], step: 1 }, seal });
    expect(ok(await cli(['history', '--store', store, '--key-file', keys, '--session-id', 't1'])).map((r: { seal: unknown }) => r.seal)).toEqual([seal, seal]);
    expect(ok(await cli(['list', '--store', store, '--key-file', keys])).map((r: { seal: unknown }) => r.seal)).toEqual([seal, seal]);
    expect(ok(await cli(['state', '--store', store, '--key-file', keys, '--thread', 't1']))).toMatchObject({ payload: { step: 2 }, seal });
    expect(ok(await cli(['threads', '--store', store, '--key-file', keys]))).toHaveLength(1);
    // Without keys, the output is as it always was: the stored envelope, no seal field.
    const plain = ok(await cli(['get', '--store', store, '--id', '1']));
    expect(plain.seal).toBeUndefined();
    expect(plain.payload).toMatchObject({ key: 'app-1', sealed: 1 });
    expect(readFileSync(store).includes('account 4711')).toBe(false);
    // The flag beats the variable.
    refused(await cli(['get', '--store', store, '--key-file', 'missing.keys', '--id', '1'], { env: { SESSION_CHECKPOINT_KEY_FILE: keys } }), 'OSError', /No such file or directory: '.*missing\.keys'/u);
    refused(await cli(['get', '--store', store, '--key-file', '', '--id', '1']), 'UsageError', /--key-file must not be empty/u);
  });

  it('verify prints the head; --expect-head passes at that head and fails once the store moved on', async () => {
    const report = ok(await cli(['verify', '--store', store, '--key-file', keys]));
    expect(report).toEqual({ namespace: null, checked: 2, ok: 2, failures: [], sealed: 2, sessions: 1, head: expect.stringMatching(/^sc-head-v1:2:[0-9a-f]{32}$/u) });
    ok(await cli(['verify', '--store', store, '--key-file', keys, '--expect-head', report.head]));
    refused(await cli(['verify', '--store', store, '--expect-head', report.head]), 'CheckpointValidationError', /--expect-head needs the store's keys/u);
    refused(await cli(['verify', '--store', store, '--key-file', keys, '--expect-head', `sc-head-v1:1:${'0'.repeat(32)}`]), 'CheckpointIntegrityError', /store changed since that digest/u);
    refused(await cli(['verify', '--store', store, '--key-file', keys, '--expect-head', 'sc-head-v1:1:00']), 'CheckpointValidationError', /must be a digest/u);
  });

  it('export keeps the envelopes (a sealed bundle); --plaintext only when asked', async () => {
    const sealed = ok(await cli(['export', '--store', store, '--key-file', keys, '--output', 'sealed.json']));
    expect(sealed.checkpoints).toBe(2);
    const bundle = JSON.parse(readFileSync(join(dir, 'sealed.json'), 'utf8')) as { checkpoints: { payload: Record<string, unknown> }[]; session_checkpoint_seal?: { heads: unknown[] } };
    for (const item of bundle.checkpoints) expect(item.payload).toMatchObject({ sealed: 1, key: 'app-1' });
    expect(bundle.session_checkpoint_seal?.heads).toHaveLength(1);
    expect(readFileSync(join(dir, 'sealed.json'), 'utf8')).not.toContain('account 4711');
    ok(await cli(['export', '--store', store, '--key-file', keys, '--output', 'plain.json', '--plaintext']));
    const plain = JSON.parse(readFileSync(join(dir, 'plain.json'), 'utf8')) as { checkpoints: { payload: unknown }[]; session_checkpoint_seal?: unknown };
    expect(plain.checkpoints[0]!.payload).toEqual({ messages: ['the customer said: account 4711'], step: 1 });
    expect(plain.session_checkpoint_seal).toBeUndefined();
    refused(await cli(['export', '--store', store, '--output', 'x.json', '--plaintext']), 'UsageError', /--plaintext needs the store's keys/u);
  });

  it('import into a store with other keys re-seals only when the bundle keys are given too; --require-sealed refuses a plain bundle', async () => {
    const other = join(dir, 'other.sqlite');
    ok(await cli(['keys', 'new', '--output', 'other.keys', '--id', 'other-1']));
    ok(await cli(['init', '--store', other, '--key-file', 'other.keys']));
    const before = fileHash(other);
    refused(await cli(['import', '--store', other, '--key-file', 'other.keys', '--input', 'sealed.json', '--apply']), 'CheckpointValidationError', /app-1/u);
    expect(fileHash(other)).toBe(before);
    refused(await cli(['import', '--store', other, '--key-file', 'other.keys', '--input', 'plain.json', '--apply', '--require-sealed']), 'CheckpointValidationError', /not sealed/u);
    expect(fileHash(other)).toBe(before);
    refused(await cli(['import', '--store', other, '--input', 'sealed.json', '--apply']), 'CheckpointValidationError', /store opened with keys/u);
    expect(fileHash(other)).toBe(before);
    expect(ok(await cli(['import', '--store', other, '--key-file', 'other.keys', '--source-key-file', 'app.keys', '--input', 'sealed.json', '--apply']))).toEqual({ dry_run: false, inserted: [1, 2], unchanged: [] });
    expect(ok(await cli(['get', '--store', other, '--key-file', 'other.keys', '--id', '1'])).payload).toEqual({ messages: ['the customer said: account 4711'], step: 1 });
    const stored = ok(await cli(['get', '--store', other, '--id', '1'])).payload as { key: string };
    expect(stored.key).toBe('other-1');
    ok(await cli(['verify', '--store', other, '--key-file', 'other.keys']));
  });

  it('rekey moves every row to the new key; errors name paths and key ids', async () => {
    expect(ok(await cli(['rekey', '--store', store, '--key-file', keys, '--new-key-file', 'rotated.keys']))).toMatchObject({ dry_run: true, resealed: { 'app-1': 2 } });
    expect(ok(await cli(['rekey', '--store', store, '--key-file', keys, '--new-key-file', 'rotated.keys', '--apply']))).toMatchObject({ dry_run: false, active_key: 'app-2', head: expect.stringMatching(/^sc-head-v1:/u) });
    ok(await cli(['verify', '--store', store, '--key-file', 'rotated.keys']));
    refused(await cli(['rekey', '--store', store, '--new-key-file', 'rotated.keys']), 'UsageError', /needs the old keys/u);
    // Errors of key files: loose modes, the wrong key, a damaged file (never quoted).
    const loose = join(dir, 'loose.keys');
    writeFileSync(loose, readFileSync(keys));
    chmodSync(loose, 0o644);
    refused(await cli(['get', '--store', store, '--key-file', loose, '--id', '1', '--verbose']), 'StoreSecurityError', /mode 0644/u);
    refused(await cli(['get', '--store', store, '--key-file', keys, '--id', '1', '--verbose']), 'CheckpointIntegrityError', /'app-2', which the keyring does not hold/u);
    const damaged = join(dir, 'damaged.keys');
    const text = readFileSync(keys, 'utf8');
    writeFileSync(damaged, text.replace(/"secret": "([^"]{8})/u, '"secret": "$1$1'), { mode: 0o600 });
    refused(await cli(['get', '--store', store, '--key-file', damaged, '--id', '1']), 'CheckpointValidationError', /must have a secret of 32 bytes/u);
    writeFileSync(join(dir, 'broken.keys'), text.slice(0, -20), { mode: 0o600 });
    refused(await cli(['get', '--store', store, '--key-file', 'broken.keys', '--id', '1']), 'CheckpointValidationError', /is not valid JSON/u);
  });

  it('rekey --allow-plaintext seals a plain store; afterwards plaintext is refused again', async () => {
    const plainStore = join(dir, 'plain.sqlite');
    for (const step of [1, 2]) ok(await cli(['create', '--store', plainStore, '--session-id', 'p', '--payload-file', '-', '--created-at', `2026-01-01T00:00:0${step}Z`], { input: `{"step": ${step}}` }));
    const before = fileHash(plainStore);
    refused(await cli(['get', '--store', plainStore, '--key-file', 'rotated.keys', '--id', '1']), 'CheckpointIntegrityError', /not sealed/u);
    expect(ok(await cli(['rekey', '--store', plainStore, '--new-key-file', 'rotated.keys', '--allow-plaintext']))).toMatchObject({ dry_run: true, sealed_plaintext: 2 });
    expect(fileHash(plainStore)).toBe(before);
    expect(ok(await cli(['rekey', '--store', plainStore, '--new-key-file', 'rotated.keys', '--allow-plaintext', '--apply']))).toMatchObject({ dry_run: false, sealed_plaintext: 2 });
    expect(ok(await cli(['verify', '--store', plainStore, '--key-file', 'rotated.keys']))).toMatchObject({ checked: 2, sealed: 2, sessions: 1 });
    expect(ok(await cli(['state', '--store', plainStore, '--key-file', 'rotated.keys', '--thread', 'p']))).toMatchObject({ payload: { step: 2 }, seal: { sealed: true } });
    // Now sealed: a write without keys is refused.
    refused(await cli(['create', '--store', plainStore, '--session-id', 'p', '--payload-file', 'p.json']), 'StoreSecurityError');
  });

  it("the inspector checks seals, shows a row's seal status, and its debug bundle holds no key", async () => {
    const inspector = await startInspect(['--store', store, '--key-file', 'rotated.keys', '--no-open'], dir);
    try {
      const headers = { Host: `127.0.0.1:${inspector.port}`, 'X-Session-Checkpoint-Token': inspector.token };
      const ref = 'family=checkpoints&namespace=default&thread=t1';
      for (const path of ['/api/threads', `/api/timeline?${ref}`, `/api/state?${ref}`, `/api/bundle?${ref}`]) {
        const response = await rawRequest(inspector.port, path, headers);
        expect(response.status, response.body).toBe(200);
        seen.push({ what: `inspect ${path}`, text: response.body });
      }
      const timeline = JSON.parse((await rawRequest(inspector.port, `/api/timeline?${ref}`, headers)).body) as { entries: { status: string; seal: unknown }[] };
      expect(timeline.entries.map((e) => [e.status, e.seal])).toEqual([
        ['verified', { sealed: true, encrypted: true, verified: true }],
        ['verified', { sealed: true, encrypted: true, verified: true }],
      ]);
    } finally {
      const end = await inspector.stop();
      seen.push({ what: 'inspect process', text: end.stdout + end.stderr });
    }
  });

  it('LangGraph threads and Agents sessions in a sealed store: state and every verified step carry their seal status', async () => {
    const framework = join(dir, 'frameworks.sqlite');
    const store = await openSqliteStore(framework, { keys: await loadKeyFile(join(dir, 'rotated.keys')), create: true });
    let fixture;
    try {
      fixture = await writeInspectFixture(store);
    } finally {
      await store.close();
    }
    const seal = { sealed: true, encrypted: true, verified: true };
    const args = ['--store', framework, '--key-file', 'rotated.keys'];
    expect(ok(await cli(['state', ...args, '--thread', fixture.thread])).seal).toEqual(seal);
    expect(ok(await cli(['state', ...args, '--thread', fixture.agentSession])).seal).toEqual(seal);
    expect(ok(await cli(['state', ...args, '--thread', fixture.plainSession])).seal).toEqual(seal);
    const inspector = await startInspect([...args, '--no-open'], dir);
    try {
      const headers = { Host: `127.0.0.1:${inspector.port}`, 'X-Session-Checkpoint-Token': inspector.token };
      for (const [family, namespace, thread] of [['langgraph', 'langgraph', fixture.thread], ['openai-agents', 'openai-agents', fixture.agentSession]] as const) {
        const response = await rawRequest(inspector.port, `/api/timeline?family=${family}&namespace=${namespace}&thread=${encodeURIComponent(thread)}`, headers);
        seen.push({ what: `inspect timeline ${family}`, text: response.body });
        const entries = (JSON.parse(response.body) as { entries: { status: string; seal?: unknown }[] }).entries;
        expect(entries.length).toBeGreaterThan(0);
        for (const entry of entries) expect([entry.status, entry.seal]).toEqual(['verified', seal]);
      }
    } finally {
      await inspector.stop();
    }
    // Without keys, the framework rows are envelopes: no state is rebuilt from them as if they were plain.
    expect(JSON.parse((await cli(['state', '--store', framework, '--thread', fixture.thread])).stdout).ok).toBe(false);
  });

  it('no secret of any key file appears in any output, error, bundle or debug bundle of the session', () => {
    const forms: { form: string; file: string }[] = [];
    for (const file of ['app.keys', 'rotated.keys', 'other.keys']) {
      const text = readFileSync(join(dir, file), 'utf8');
      for (const { secret } of (JSON.parse(text) as { keys: { secret: string }[] }).keys) {
        const bytes = Buffer.from(secret, 'base64');
        for (const form of [bytes.toString('hex'), bytes.toString('base64'), bytes.toString('base64url'), bytes.toString('base64').replace(/=+$/u, '')]) {
          // The scan finds a key where one is: in the key file itself.
          if (form === secret) expect(text).toContain(form);
          forms.push({ form, file });
        }
      }
    }
    const files = ['sealed.json', 'plain.json'].map((name) => ({ what: name, text: readFileSync(join(dir, name), 'utf8') }));
    const everything = [...seen, ...files];
    expect(everything.length).toBeGreaterThan(30);
    for (const { what, text } of everything) {
      for (const { form, file } of forms) {
        expect(text.toLowerCase().includes(form.toLowerCase()), `a secret of ${file} in ${what}`).toBe(false);
      }
    }
  });
});
