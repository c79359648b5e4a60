import { CheckpointIntegrityError, CheckpointNotFoundError, StoreNotFoundError } from '@session-checkpoint/core';
import { describe, expect, it } from 'vitest';
import { toErrorOutput } from './to-error-json.js';
import { UsageError } from './usage-error.js';

const sys = (code: string, fields: Record<string, unknown>): Error => Object.assign(new Error(`${code}: boom`), { code, ...fields });

describe('toErrorOutput', () => {
  it('maps core errors to their class name, exit 1', () => {
    expect(toErrorOutput(new CheckpointNotFoundError("Checkpoint 9 not found in namespace 'a'"))).toEqual({
      json: { ok: false, error: "Checkpoint 9 not found in namespace 'a'", type: 'CheckpointNotFoundError' },
      exitCode: 1,
    });
    expect(toErrorOutput(new StoreNotFoundError('gone')).json?.type).toBe('StoreNotFoundError');
    expect(toErrorOutput(new CheckpointIntegrityError('bad')).json?.type).toBe('CheckpointIntegrityError');
  });

  it('maps usage errors and oclif parse errors to UsageError, exit 2, without decoration', () => {
    expect(toErrorOutput(new UsageError('no store'))).toEqual({ json: { ok: false, error: 'no store', type: 'UsageError' }, exitCode: 2 });
    const parse = Object.assign(new Error('Nonexistent flag: --bogus\nSee more help with --help'), { oclif: { exit: 2 } });
    expect(toErrorOutput(parse)).toEqual({ json: { ok: false, error: 'Nonexistent flag: --bogus', type: 'UsageError' }, exitCode: 2 });
    const missing = Object.assign(new Error('The following error occurred:\n  \u001b[2mMissing required flag id\u001b[22m\nSee more help with --help'), { oclif: { exit: 2 } });
    expect(toErrorOutput(missing).json?.error).toBe('Missing required flag id');
  });

  it('turns multi-line oclif errors into one readable line, never an object dump', () => {
    const args = Object.assign(new Error('Missing 1 required arg:\nplugin  Plugin to install.\nSee more help with --help'), { oclif: { exit: 2 } });
    expect(toErrorOutput(args).json?.error).toBe('Missing 1 required arg: plugin (Plugin to install.)');
    const two = Object.assign(new Error('Missing 2 required args:\na  First.\nb  Second.\nSee more help with --help'), { oclif: { exit: 2 } });
    expect(toErrorOutput(two).json?.error).toBe('Missing 2 required args: a (First.), b (Second.)');
    const flags = Object.assign(new Error('The following errors occurred:\n  Missing required flag a\n  Missing required flag b\nSee more help with --help'), { oclif: { exit: 2 } });
    expect(toErrorOutput(flags).json?.error).toBe('Missing required flag a; Missing required flag b');
    const dump = Object.assign(new Error("could not find package.json with {\n  isRoot: true,\n  pjson: undefined,\n  root: '/src/nothing'\n}"), { oclif: { exit: 2 } });
    expect(toErrorOutput(dump)).toEqual({ json: { ok: false, error: "no package.json in '/src/nothing'", type: 'UsageError' }, exitCode: 2 });
  });

  it('exits quietly for an oclif exit request', () => {
    expect(toErrorOutput(Object.assign(new Error('EEXIT: 3'), { code: 'EEXIT', oclif: { exit: 3 } }))).toEqual({ json: null, exitCode: 3 });
  });

  it('formats system errors like Python OSError', () => {
    expect(toErrorOutput(sys('ENOENT', { syscall: 'open', path: 'missing.json' })).json).toEqual({
      ok: false,
      error: "[Errno 2] No such file or directory: 'missing.json'",
      type: 'OSError',
    });
    expect(toErrorOutput(sys('EISDIR', { syscall: 'rename', path: 'a.tmp', dest: 'out' })).json?.error).toBe("[Errno 21] Is a directory: 'a.tmp' -> 'out'");
    expect(toErrorOutput(sys('ENXIO', { syscall: 'open', path: 'sock' })).json?.error).toBe("[Errno 6] No such device or address: 'sock'");
    expect(toErrorOutput(sys('ECONNREFUSED', { syscall: 'connect', address: '127.0.0.1', port: 1 })).json?.error).toBe('[Errno 111] Connection refused (127.0.0.1:1)');
    expect(toErrorOutput(new AggregateError([sys('ECONNREFUSED', { syscall: 'connect', address: '::1', port: 5 })])).json?.type).toBe('OSError');
  });

  it('maps driver errors to DatabaseError and anything else to InternalError, never with a stack', () => {
    expect(toErrorOutput(Object.assign(new Error('database is locked'), { code: 'SQLITE_BUSY' })).json?.type).toBe('DatabaseError');
    const internal = toErrorOutput(new RangeError('Maximum call stack size exceeded'));
    expect(internal).toEqual({ json: { ok: false, error: 'RangeError: Maximum call stack size exceeded', type: 'InternalError' }, exitCode: 1 });
    expect(toErrorOutput('a string').json?.error).toBe('a string');
    expect(JSON.stringify(toErrorOutput(new Error('x')))).not.toContain(' at ');
  });
});
