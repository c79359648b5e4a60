import { describe, expect, it } from 'vitest';
import { parseDirectArgv, type DirectFlags } from './parse-direct-argv.js';

const FLAGS: DirectFlags = {
  store: { type: 'string' },
  id: { type: 'integer', required: true },
  limit: { type: 'integer', default: 20 },
  namespace: { type: 'string', default: 'default' },
  'dry-run': { type: 'boolean', default: false },
  'payload-file': { type: 'string' },
};

describe('parseDirectArgv', () => {
  it('reads long flags with separate or attached values and applies defaults', () => {
    expect(parseDirectArgv(['--store', 'a.sqlite', '--id', '7'], FLAGS)).toEqual({ store: 'a.sqlite', id: 7, limit: 20, namespace: 'default', 'dry-run': false });
    expect(parseDirectArgv(['--id=0_1', '--store=a=b.sqlite', '--dry-run', '--limit', ' +5 '], FLAGS)).toEqual({
      store: 'a=b.sqlite',
      id: 1,
      limit: 5,
      namespace: 'default',
      'dry-run': true,
    });
  });

  it('takes a lone dash as a value (standard input)', () => {
    expect(parseDirectArgv(['--id', '1', '--payload-file', '-'], FLAGS)?.['payload-file']).toBe('-');
  });

  it.each([
    ['a positional word', ['extra', '--id', '1']],
    ['a short flag', ['-h', '--id', '1']],
    ['--help', ['--id', '1', '--help']],
    ['the -- terminator', ['--id', '1', '--']],
    ['an unknown flag', ['--id', '1', '--bogus']],
    ['a repeated flag', ['--id', '1', '--id', '2']],
    ['a missing value', ['--id']],
    ['an empty value', ['--id', '1', '--namespace=']],
    ['a dash-led value', ['--id', '-1']],
    ['a malformed integer', ['--id', '1e3']],
    ['a boolean with a value', ['--id', '1', '--dry-run=true']],
    ['a missing required flag', ['--store', 'a.sqlite']],
  ])('declines %s', (_what, args) => {
    expect(parseDirectArgv(args, FLAGS)).toBeUndefined();
  });
});
