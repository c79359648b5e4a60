/**
 * The built-in parser against the outcomes the CLI gave before it parsed with `util.parseArgs`
 * (each case was run through the previous binary and gave this message, exit 2).
 */
import { describe, expect, it } from 'vitest';
import { flag, GLOBAL_FLAGS } from './flags.js';
import { parseArgv } from './parse-argv.js';

const GET = { ...GLOBAL_FLAGS, id: flag.integer({ description: 'id', required: true }), namespace: flag.string({ description: 'ns', default: 'default' }) };
const CREATE = { ...GLOBAL_FLAGS, 'dry-run': flag.boolean({ description: 'd' }), 'payload-file': flag.string({ description: 'p', required: true }), 'session-id': flag.string({ description: 's', required: true }) };
const LIST = { ...GLOBAL_FLAGS, limit: flag.integer({ description: 'l', default: 20 }), offset: flag.integer({ description: 'o', default: 0 }) };

describe('parseArgv', () => {
  it('reads flags, inline values, Python integers and defaults', () => {
    expect(parseArgv(['--store', 's.sqlite', '--id=0_7', '--verbose'], GET)).toEqual({ store: 's.sqlite', id: 7, namespace: 'default', verbose: true });
    expect(parseArgv(['--id', '-1', '--namespace=a=b', '--store='], GET)).toEqual({ id: -1, namespace: 'a=b', store: '', verbose: false });
    expect(parseArgv(['--session-id', '-b', '--payload-file', '-', '--dry-run', '--dry-run'], CREATE)).toEqual({ 'session-id': '-b', 'payload-file': '-', 'dry-run': true, verbose: false });
    expect(parseArgv(['--id', '1', '--'], GET)).toMatchObject({ id: 1 });
  });

  it.each([
    [['--id', '1', '--valueOf'], 'Nonexistent flag: --valueOf'],
    [['--id', '1', '--toString=1'], 'Nonexistent flag: --toString'],
    [['--id', '1', '--no-valueOf'], 'Nonexistent flag: --no-valueOf'],
    [['--id', '1', '--bogus=3'], 'Nonexistent flag: --bogus=3'],
    [['--id', '1', '-x', '--bogus', 'e1', 'e2'], 'Nonexistent flags: -x, --bogus'],
    [['--id', '1', '-xyz'], 'Nonexistent flag: -xyz'],
    [['--id', '1', '--version'], 'Nonexistent flag: --version'],
    [['--id'], 'Flag --id expects a value'],
    [['--bogus', '--id'], 'Flag --id expects a value'],
    [['--id', '--namespace'], 'Flag --id expects a value'],
    [['--id', '--valueOf'], 'Flag --id expects a value'],
    [['--id=--namespace'], 'Flag --id expects a value'],
    [['--id', '1', '--id', 'x'], 'Flag --id can only be specified once'],
    [['--id', 'x', 'extra', '--bogus'], "argument --id: invalid int value: 'x'"],
    [['--id', '--'], "argument --id: invalid int value: '--'"],
    [['--id', ''], "argument --id: invalid int value: ''"],
    [['--id', '1', 'extra'], 'Unexpected argument: extra'],
    [['--id', '1', 'a', 'b'], 'Unexpected arguments: a, b'],
    [['--id', '1', '-5'], 'Unexpected argument: -5'],
    [['--id', '1', '-'], 'Unexpected argument: -'],
    [['--id', '1', '--verbose=true'], 'Unexpected argument: true'],
    [['--', '--id', '1'], 'Unexpected arguments: --id, 1'],
    [['--store', 's.sqlite'], 'Missing required flag id'],
  ])('%j: %s', (args, message) => {
    expect(() => parseArgv(args, GET)).toThrow(expect.objectContaining({ name: 'UsageError', message }));
  });

  it('checks values in declaration order, then unknown flags, words and required flags', () => {
    expect(() => parseArgv(['--offset', 'y', '--limit', 'x'], LIST)).toThrow("argument --limit: invalid int value: 'x'");
    expect(() => parseArgv(['--session-id', 'x', 'extra', '--bogus'], CREATE)).toThrow('Nonexistent flag: --bogus');
    expect(() => parseArgv(['extra'], CREATE)).toThrow('Unexpected argument: extra');
    expect(() => parseArgv([], CREATE)).toThrow('Missing required flag payload-file; Missing required flag session-id');
  });
});
