import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { isCheckpointValidationError, isStoreSecurityError } from '../errors.js';
import { KEY_FILE_FORMAT, generateKeyFile, loadKeyFile, writeKeyFile } from './key-file.js';
import { Keyring, secretsOf } from './keyring.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'sc-keys-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const posix = process.platform !== 'win32';
const secretText = (keys: Keyring) => Buffer.from(secretsOf(keys).get(keys.activeId) as Uint8Array).toString('base64');

async function failure(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected a failure');
}

describe('key files', () => {
  it('generateKeyFile writes a new key with mode 0600 whatever the umask, and loadKeyFile reads it back', async () => {
    const path = join(dir, 'a.keys');
    const previous = process.umask(0o000);
    let keys: Keyring;
    try {
      keys = await generateKeyFile(path, { id: 'k-test' });
    } finally {
      process.umask(previous);
    }
    if (posix) expect(statSync(path).mode & 0o777).toBe(0o600);
    const text = readFileSync(path, 'utf8');
    expect(JSON.parse(text)).toEqual({ format: KEY_FILE_FORMAT, active: 'k-test', keys: [{ id: 'k-test', secret: secretText(keys) }] });
    const loaded = await loadKeyFile(path);
    expect(loaded.ids).toEqual(['k-test']);
    expect(secretText(loaded)).toBe(secretText(keys));
  });

  it('never overwrites an existing file', async () => {
    const path = join(dir, 'taken.keys');
    writeFileSync(path, 'mine', { mode: 0o600 });
    expect(String(await failure(generateKeyFile(path)))).toMatch(/EEXIST/);
    expect(readFileSync(path, 'utf8')).toBe('mine');
  });

  it.skipIf(!posix)('refuses a key file that group or others may read or write, naming the path and mode, never the key', async () => {
    const keys = Keyring.generate();
    const path = join(dir, 'loose.keys');
    await writeKeyFile(path, keys);
    for (const mode of [0o640, 0o604, 0o620, 0o602, 0o660, 0o644, 0o601]) {
      chmodSync(path, mode);
      const error = await failure(loadKeyFile(path));
      expect(isStoreSecurityError(error), String(error)).toBe(true);
      const message = String((error as Error).message);
      expect(message).toContain(path);
      expect(message).toContain(mode.toString(8).padStart(4, '0'));
      expect(message).not.toContain(secretText(keys));
    }
    chmodSync(path, 0o400);
    expect((await loadKeyFile(path)).activeId).toBe(keys.activeId);
  });

  it('refuses files that are not key files, without quoting them', async () => {
    const secret = Buffer.alloc(32, 7).toString('base64');
    const cases: [string, RegExp][] = [
      [`{"format":"${KEY_FILE_FORMAT}","keys":[{"id":"k","secret":"${secret}"}]`, /is not valid JSON/],
      [`{"keys":[{"id":"k","secret":"${secret}"}]}`, /is not a session-checkpoint key file/],
      [`{"format":"${KEY_FILE_FORMAT}","keys":[]}`, /holds no keys/],
      [`{"format":"${KEY_FILE_FORMAT}","keys":[{"id":"k","secret":"${secret.slice(4)}"}]}`, /key 'k' must have a secret of 32 bytes/],
      [`{"format":"${KEY_FILE_FORMAT}","keys":[{"id":"k","secret":"${secret}"}],"active":"x"}`, /active key 'x' is not in the keyring/],
      [`{"format":"${KEY_FILE_FORMAT}","keys":[{"id":"bad id","secret":"${secret}"}]}`, /the id of key 1 must be/],
    ];
    for (const [text, message] of cases) {
      const path = join(dir, 'bad.keys');
      rmSync(path, { force: true });
      writeFileSync(path, text, { mode: 0o600 });
      const error = await failure(loadKeyFile(path));
      expect(isCheckpointValidationError(error), String(error)).toBe(true);
      expect(String(error)).toMatch(message);
      expect(String(error)).toContain(path);
      expect(String(error)).not.toContain(secret.slice(8, 30));
    }
    expect(existsSync(join(dir, 'missing.keys'))).toBe(false);
    expect(String(await failure(loadKeyFile(join(dir, 'missing.keys'))))).toMatch(/ENOENT/);
  });

  it('a rotated keyring round-trips with both keys and the new one active', async () => {
    const old = Keyring.generate('old');
    const next = Keyring.generate('new');
    const path = join(dir, 'rotated.keys');
    await writeKeyFile(path, old.with(next));
    const loaded = await loadKeyFile(path);
    expect(loaded.ids).toEqual(['old', 'new']);
    expect(loaded.activeId).toBe('new');
  });
});
