/** CommandBase's own members that oclif's Command also has: what a command sees of them. */
import type { Config } from '@oclif/core';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { CommandBase } from './command-base.js';

class Probe extends CommandBase {
  static override id = 'probe';
  async run() {
    return undefined;
  }
}

const probe = () => new Probe([], {} as Config);

describe('CommandBase', () => {
  afterEach(() => {
    vi.restoreAllMocks();
    vi.unstubAllEnvs();
  });

  it('debug() writes to stderr only when DEBUG names the CLI', () => {
    const write = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    for (const [value, shown] of [['', false], ['other:*', false], ['*', true], ['session-checkpoint*', true], ['x,session-checkpoint:probe', true]] as const) {
      write.mockClear();
      vi.stubEnv('DEBUG', value);
      probe().debug('n=%d', 3);
      expect(write.mock.calls.map((call) => call[0]), value).toEqual(shown ? ['session-checkpoint:probe n=3\n'] : []);
    }
  });

  it('error() and exit() throw what the error mapping reads, as oclif does', () => {
    expect(() => probe().error('bad')).toThrow(expect.objectContaining({ message: 'bad', oclif: { exit: 2 } }));
    expect(() => probe().error('bad', { exit: 3, code: 'X' })).toThrow(expect.objectContaining({ oclif: { exit: 3 }, code: 'X' }));
    const original = new TypeError('kept');
    expect(() => probe().error(original, { exit: 4 })).toThrow(original);
    expect((original as TypeError & { oclif?: unknown }).oclif).toEqual({ exit: 4 });
    expect(() => probe().exit(5)).toThrow(expect.objectContaining({ code: 'EEXIT', oclif: { exit: 5 } }));
    const write = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    expect(probe().error('only a warning', { exit: false })).toBeUndefined();
    expect(write).toHaveBeenCalledWith(' ›   Warning: only a warning\n');
  });
});
