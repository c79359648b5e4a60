import { inspect } from 'node:util';
import { describe, expect, it } from 'vitest';
import { isCheckpointValidationError } from '../errors.js';
import { Keyring, secretsOf } from './keyring.js';

const secret = (byte: number) => new Uint8Array(32).fill(byte);
const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString('hex');

describe('Keyring', () => {
  it('holds keys under ids, the last one active unless another is named', () => {
    const keys = new Keyring([{ id: 'old', secret: secret(1) }, { id: 'new', secret: secret(2) }]);
    expect(keys.activeId).toBe('new');
    expect(keys.ids).toEqual(['old', 'new']);
    expect(new Keyring([{ id: 'old', secret: secret(1) }, { id: 'new', secret: secret(2) }], 'old').activeId).toBe('old');
    expect(keys.has('old')).toBe(true);
    expect(keys.has('other')).toBe(false);
  });

  it('generates random 256-bit keys with dated ids', () => {
    const a = Keyring.generate();
    const b = Keyring.generate();
    expect(a.activeId).toMatch(/^k-\d{8}-[0-9a-f]{6}$/);
    expect(hex(secretsOf(a).get(a.activeId) as Uint8Array)).not.toBe(hex(secretsOf(b).get(b.activeId) as Uint8Array));
    expect(Keyring.generate('mine').activeId).toBe('mine');
  });

  it('never shows a secret: JSON, inspect, structuredClone and spreading see ids only', () => {
    const keys = new Keyring([{ id: 'k1', secret: secret(0xab) }]);
    const shown = [JSON.stringify(keys), inspect(keys, { showHidden: true, depth: 10 }), JSON.stringify(structuredClone(keys)), JSON.stringify({ ...keys }), String(keys)];
    for (const text of shown) {
      expect(text).not.toContain('abab');
      expect(text).not.toContain(Buffer.from(secret(0xab)).toString('base64'));
    }
    expect(JSON.parse(JSON.stringify(keys))).toEqual({ activeId: 'k1', ids: ['k1'] });
  });

  it('refuses bad ids, short secrets, repeated ids and an active id that is not in the ring', () => {
    const bad: [() => unknown, RegExp][] = [
      [() => new Keyring([]), /at least one key/],
      [() => new Keyring([{ id: '-x', secret: secret(1) }]), /key id must be/],
      [() => new Keyring([{ id: 'a'.repeat(65), secret: secret(1) }]), /key id must be/],
      [() => new Keyring([{ id: 'k', secret: new Uint8Array(16) }]), /key 'k' must have a 32-byte secret/],
      [() => new Keyring([{ id: 'k', secret: secret(1) }, { id: 'k', secret: secret(2) }]), /appears twice/],
      [() => new Keyring([{ id: 'k', secret: secret(1) }], 'j'), /active key 'j' is not in the keyring/],
    ];
    for (const [make, message] of bad) {
      let error: unknown;
      try {
        make();
      } catch (e) {
        error = e;
      }
      expect(isCheckpointValidationError(error), String(error)).toBe(true);
      expect(String(error)).toMatch(message);
    }
  });

  it('with(): the union, the other ring active; one id naming two secrets is refused', () => {
    const old = new Keyring([{ id: 'old', secret: secret(1) }]);
    const next = new Keyring([{ id: 'new', secret: secret(2) }]);
    const both = old.with(next);
    expect(both.ids).toEqual(['old', 'new']);
    expect(both.activeId).toBe('new');
    expect(old.with(old).ids).toEqual(['old']);
    expect(() => old.with(new Keyring([{ id: 'old', secret: secret(3) }]))).toThrow(/key id 'old' names two different secrets/);
  });
});
