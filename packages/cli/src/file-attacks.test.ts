/**
 * Attacks on the CLI's file handling, tried as a hostile user would, through the real binary.
 * Every case must be refused with one JSON error (expected type, a message that names the
 * problem), nothing on stderr, and leave everything it touched exactly as it was: the store and
 * its companion files, the target (bytes, mode, kind, device number, symlink text) and the whole
 * case directory (no temporary file, no new directory, no new store).
 */
import { createHash } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, linkSync, lstatSync, mkdirSync, readdirSync, readFileSync, readlinkSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inBatches, removeTempDirs, runCli, tempDir, type CliResult } from './test-support/run-cli.js';

/** One attack. Relative paths are inside the case's own directory, which holds `s.sqlite`. */
interface Attack {
  name: string;
  args: string[];
  /** Builds the trap in the case directory (may be async, e.g. a listening socket). */
  setup?: (dir: string) => void | Promise<void>;
  stdin?: string | Buffer;
  type: string;
  /** Expected message (exact or pattern); every refusal must say what was wrong. */
  error: string | RegExp;
  /** Paths (relative or absolute) whose state must not change, besides the store and the case directory. */
  watch?: string[];
}

const OUT = (output: string, ...extra: string[]): string[] => ['export', '--store', 's.sqlite', '--output', output, ...extra];
const IMPORT = (input: string): string[] => ['import', '--store', 'n/new.sqlite', '--input', input, '--apply'];
const CREATE = (file: string): string[] => ['create', '--store', 's.sqlite', '--session-id', 's', '--payload-file', file];

const STORE = 'Export output must not overwrite the checkpoint store';
const COMPANION = (suffix: string): string => `Export output must not overwrite the checkpoint store's ${suffix} file`;
const SYMLINK = /^Export output '.*' is a symbolic link; refusing to write through it/u;
const NOT_REGULAR = (kind: string): RegExp => new RegExp(`^Export output '.*' is a ${kind}, not a regular file; refusing to replace it$`, 'u');
const INPUT_NOT_REGULAR = (label: string, kind: string): RegExp =>
  new RegExp(`^${label} '.*' is a ${kind}, not a regular file; only regular files \\(or - for standard input\\) are read$`, 'u');

const servers: Server[] = [];
function listenSocket(path: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    servers.push(server);
    server.once('error', reject);
    server.listen(path, () => resolve());
  });
}
const fifo = (path: string): void => {
  execFileSync('mkfifo', [path]);
};
/**
 * A device to aim at. As root, a private node with the numbers of /dev/null or /dev/zero in the
 * case directory: a regression then clobbers that copy, never the machine's /dev (the old export
 * did replace /dev/null with a regular file). Other users cannot replace /dev entries at all, so
 * the real ones are safe targets for them.
 */
const ROOT = process.getuid?.() === 0;
const DEVICES = { null: [1, 3], zero: [1, 5] } as const;
function device(dir: string, name: keyof typeof DEVICES): string {
  if (!ROOT) return `/dev/${name}`;
  const path = join(dir, `dev-${name}`);
  const [major, minor] = DEVICES[name];
  execFileSync('mknod', ['-m', '666', path, 'c', String(major), String(minor)]);
  return path;
}
/** Marks an argument to be replaced by the case's own device path (see {@link device}). */
const DEV_NULL = '<dev-null>';
const DEV_ZERO = '<dev-zero>';

/** A companion file with content, as a crashed writer would leave it. */
const companion = (dir: string, suffix: string): void => writeFileSync(join(dir, `s.sqlite${suffix}`), `not really ${suffix}\n`, { mode: 0o644 });

const ATTACKS: Attack[] = [
  // Export over things that are not regular files.
  { name: 'export to /dev/null', args: OUT(DEV_NULL), type: 'CheckpointValidationError', error: NOT_REGULAR('character device'), watch: [DEV_NULL] },
  { name: 'export to /dev/zero', args: OUT(DEV_ZERO), type: 'CheckpointValidationError', error: NOT_REGULAR('character device'), watch: [DEV_ZERO] },
  { name: 'export to a FIFO', args: OUT('ff'), setup: (d) => fifo(join(d, 'ff')), type: 'CheckpointValidationError', error: NOT_REGULAR('FIFO'), watch: ['ff'] },
  { name: 'export to a unix socket', args: OUT('sock'), setup: (d) => listenSocket(join(d, 'sock')), type: 'CheckpointValidationError', error: NOT_REGULAR('socket'), watch: ['sock'] },
  { name: 'export to a directory', args: OUT('d'), setup: (d) => mkdirSync(join(d, 'd')), type: 'CheckpointValidationError', error: NOT_REGULAR('directory'), watch: ['d'] },
  { name: 'export to a directory with a trailing slash', args: OUT('d/'), setup: (d) => mkdirSync(join(d, 'd')), type: 'CheckpointValidationError', error: "Export output 'd/' must name a file, not a directory" },
  { name: 'export to a missing path with a trailing slash', args: OUT('new/'), type: 'CheckpointValidationError', error: "Export output 'new/' must name a file, not a directory" },
  { name: 'export to .', args: OUT('.'), type: 'CheckpointValidationError', error: "Export output '.' must name a file, not a directory" },
  { name: 'export to ..', args: OUT('..'), type: 'CheckpointValidationError', error: "Export output '..' must name a file, not a directory" },
  { name: 'export to the root directory', args: OUT('/'), type: 'CheckpointValidationError', error: "Export output '/' must name a file, not a directory" },
  // Symlinks as the last component: refused whatever they point at.
  {
    name: 'export through a symlink to a regular file',
    args: OUT('link.json'),
    setup: (d) => {
      writeFileSync(join(d, 'victim.json'), 'precious\n', { mode: 0o640 });
      symlinkSync('victim.json', join(d, 'link.json'));
    },
    type: 'CheckpointValidationError',
    error: SYMLINK,
    watch: ['victim.json', 'link.json'],
  },
  { name: 'export through a dangling symlink', args: OUT('dangling'), setup: (d) => symlinkSync('planted.json', join(d, 'dangling')), type: 'CheckpointValidationError', error: SYMLINK, watch: ['dangling', 'planted.json'] },
  { name: 'export through a symlink to the store', args: OUT('store-link'), setup: (d) => symlinkSync('s.sqlite', join(d, 'store-link')), type: 'CheckpointValidationError', error: SYMLINK, watch: ['store-link'] },
  { name: 'export through a symlink to a directory', args: OUT('dir-link'), setup: (d) => { mkdirSync(join(d, 'd')); symlinkSync('d', join(d, 'dir-link')); }, type: 'CheckpointValidationError', error: SYMLINK, watch: ['dir-link', 'd'] },
  { name: 'export through a symlink to /dev/null', args: OUT('null-link'), setup: (d) => symlinkSync(device(d, 'null'), join(d, 'null-link')), type: 'CheckpointValidationError', error: SYMLINK, watch: ['null-link', DEV_NULL] },
  { name: 'export through a symlink to a FIFO', args: OUT('fifo-link'), setup: (d) => { fifo(join(d, 'ff')); symlinkSync('ff', join(d, 'fifo-link')); }, type: 'CheckpointValidationError', error: SYMLINK, watch: ['fifo-link', 'ff'] },
  { name: 'export through a symlink loop', args: OUT('loop'), setup: (d) => symlinkSync('loop', join(d, 'loop')), type: 'CheckpointValidationError', error: SYMLINK, watch: ['loop'] },
  {
    name: 'export through a symlink reached via a symlinked directory',
    args: OUT('up/link.json'),
    setup: (d) => {
      symlinkSync('.', join(d, 'up'));
      writeFileSync(join(d, 'victim.json'), 'precious\n');
      symlinkSync('victim.json', join(d, 'link.json'));
    },
    type: 'CheckpointValidationError',
    error: SYMLINK,
    watch: ['victim.json', 'link.json'],
  },
  // The store itself, however it is spelled.
  { name: 'export onto the store', args: OUT('s.sqlite'), type: 'CheckpointValidationError', error: STORE },
  { name: 'export onto ./store', args: OUT('./s.sqlite'), type: 'CheckpointValidationError', error: STORE },
  { name: 'export onto dir/../store', args: OUT('d/../s.sqlite'), setup: (d) => mkdirSync(join(d, 'd')), type: 'CheckpointValidationError', error: STORE },
  { name: 'export onto the store through a symlinked directory', args: OUT('up/s.sqlite'), setup: (d) => symlinkSync('.', join(d, 'up')), type: 'CheckpointValidationError', error: STORE },
  { name: 'export onto the store through symlink/.. ', args: OUT('d/up/s.sqlite'), setup: (d) => { mkdirSync(join(d, 'd')); symlinkSync('..', join(d, 'd', 'up')); }, type: 'CheckpointValidationError', error: STORE },
  { name: 'export onto the store by absolute path', args: [], type: 'CheckpointValidationError', error: STORE },
  { name: 'export onto a hard link to the store', args: OUT('hard.sqlite'), setup: (d) => linkSync(join(d, 's.sqlite'), join(d, 'hard.sqlite')), type: 'CheckpointValidationError', error: STORE, watch: ['hard.sqlite'] },
  { name: 'export onto the store in other case', args: OUT('S.SQLITE'), type: 'CheckpointValidationError', error: STORE },
  { name: 'export onto the store given through a symlink', args: ['export', '--store', 'store-link', '--output', 's.sqlite'], setup: (d) => symlinkSync('s.sqlite', join(d, 'store-link')), type: 'CheckpointValidationError', error: STORE },
  // Its companion files, present or not.
  { name: 'export onto a missing -wal', args: OUT('s.sqlite-wal'), type: 'CheckpointValidationError', error: COMPANION('-wal') },
  { name: 'export onto an existing -wal', args: OUT('s.sqlite-wal'), setup: (d) => companion(d, '-wal'), type: 'CheckpointValidationError', error: COMPANION('-wal'), watch: ['s.sqlite-wal'] },
  { name: 'export onto an existing -shm', args: OUT('s.sqlite-shm'), setup: (d) => companion(d, '-shm'), type: 'CheckpointValidationError', error: COMPANION('-shm'), watch: ['s.sqlite-shm'] },
  { name: 'export onto an existing -journal', args: OUT('s.sqlite-journal'), setup: (d) => companion(d, '-journal'), type: 'CheckpointValidationError', error: COMPANION('-journal'), watch: ['s.sqlite-journal'] },
  { name: 'export onto -journal via dir/..', args: OUT('d/../s.sqlite-journal'), setup: (d) => mkdirSync(join(d, 'd')), type: 'CheckpointValidationError', error: COMPANION('-journal') },
  { name: 'export onto -wal through a symlinked directory', args: OUT('up/s.sqlite-wal'), setup: (d) => { symlinkSync('.', join(d, 'up')); companion(d, '-wal'); }, type: 'CheckpointValidationError', error: COMPANION('-wal'), watch: ['s.sqlite-wal'] },
  { name: 'export onto -wal in other case', args: OUT('S.sqlite-WAL'), type: 'CheckpointValidationError', error: COMPANION('-wal') },
  { name: 'export onto a hard link to the -wal', args: OUT('wal-copy'), setup: (d) => { companion(d, '-wal'); linkSync(join(d, 's.sqlite-wal'), join(d, 'wal-copy')); }, type: 'CheckpointValidationError', error: COMPANION('-wal'), watch: ['s.sqlite-wal', 'wal-copy'] },
  { name: 'export onto -shm of a store given as dir/..', args: ['export', '--store', 'd/../s.sqlite', '--output', 's.sqlite-shm'], setup: (d) => mkdirSync(join(d, 'd')), type: 'CheckpointValidationError', error: COMPANION('-shm') },
  { name: 'export onto -wal of a store given through a symlink', args: ['export', '--store', 'store-link', '--output', 's.sqlite-wal'], setup: (d) => symlinkSync('s.sqlite', join(d, 'store-link')), type: 'CheckpointValidationError', error: COMPANION('-wal') },
  // Destinations that cannot be written: a clear error naming the path, nothing left behind.
  { name: 'export below a regular file', args: OUT('p.json/out.json'), type: 'OSError', error: "[Errno 20] Not a directory: 'p.json/out.json'", watch: ['p.json'] },
  { name: 'export into /proc (no new entries)', args: OUT('/proc/sc-attack/out.json'), type: 'OSError', error: "[Errno 2] No such file or directory: '/proc/sc-attack/out.json'" },
  { name: 'export into sysfs (unwritable even for root)', args: OUT('/sys/sc-attack.json'), type: 'OSError', error: /^\[Errno (13|30)\] (Permission denied|Read-only file system): '\/sys\/sc-attack\.json'$/u },
  { name: 'export from a missing store into new directories', args: ['export', '--store', 'missing.sqlite', '--output', 'new/deeper/out.json'], type: 'StoreNotFoundError', error: /^Checkpoint store not found: /u },
  { name: 'export with a bad namespace into new directories', args: OUT('new/deeper/out.json', '--namespace', 'bad ns'), type: 'CheckpointValidationError', error: /^namespace must match/u },
  // Import input that is not a regular file: refused at once, and no store is created.
  { name: 'import from a FIFO (would block forever)', args: IMPORT('ff'), setup: (d) => fifo(join(d, 'ff')), type: 'CheckpointValidationError', error: INPUT_NOT_REGULAR('input', 'FIFO'), watch: ['ff'] },
  { name: 'import from a symlink to a FIFO', args: IMPORT('fifo-link'), setup: (d) => { fifo(join(d, 'ff')); symlinkSync('ff', join(d, 'fifo-link')); }, type: 'CheckpointValidationError', error: INPUT_NOT_REGULAR('input', 'FIFO') },
  { name: 'import from /dev/zero (never ends)', args: IMPORT(DEV_ZERO), type: 'CheckpointValidationError', error: INPUT_NOT_REGULAR('input', 'character device') },
  { name: 'import from /dev/null', args: IMPORT(DEV_NULL), type: 'CheckpointValidationError', error: INPUT_NOT_REGULAR('input', 'character device') },
  { name: 'import from a unix socket', args: IMPORT('sock'), setup: (d) => listenSocket(join(d, 'sock')), type: 'CheckpointValidationError', error: INPUT_NOT_REGULAR('input', 'socket'), watch: ['sock'] },
  { name: 'import from a directory', args: IMPORT('d'), setup: (d) => mkdirSync(join(d, 'd')), type: 'OSError', error: "[Errno 21] Is a directory: 'd'" },
  { name: 'import from a missing file', args: IMPORT('missing.json'), type: 'OSError', error: "[Errno 2] No such file or directory: 'missing.json'" },
  { name: 'import of a bad bundle', args: IMPORT('p.json'), type: 'CheckpointValidationError', error: 'Unsupported checkpoint export schema' },
  { name: 'import of bad JSON from stdin', args: IMPORT('-'), stdin: '{"schema": ', type: 'CheckpointValidationError', error: /^Expecting value/u },
  { name: 'import of more than 32 MiB from stdin', args: IMPORT('-'), stdin: Buffer.alloc(32 * 1024 * 1024 + 1, 0x20), type: 'CheckpointValidationError', error: 'input exceeds the 33554432-byte input limit' },
  { name: 'import into the existing store from a FIFO', args: ['import', '--store', 's.sqlite', '--input', 'ff', '--apply'], setup: (d) => fifo(join(d, 'ff')), type: 'CheckpointValidationError', error: INPUT_NOT_REGULAR('input', 'FIFO') },
  // Payload files obey the same rule.
  { name: 'payload from a FIFO', args: CREATE('ff'), setup: (d) => fifo(join(d, 'ff')), type: 'CheckpointValidationError', error: INPUT_NOT_REGULAR('payload-file', 'FIFO'), watch: ['ff'] },
  { name: 'payload from /dev/zero', args: CREATE(DEV_ZERO), type: 'CheckpointValidationError', error: INPUT_NOT_REGULAR('payload-file', 'character device') },
  { name: 'payload from a unix socket', args: CREATE('sock'), setup: (d) => listenSocket(join(d, 'sock')), type: 'CheckpointValidationError', error: INPUT_NOT_REGULAR('payload-file', 'socket') },
  { name: 'payload from a symlink to /dev/zero', args: CREATE('zero-link'), setup: (d) => symlinkSync(device(d, 'zero'), join(d, 'zero-link')), type: 'CheckpointValidationError', error: INPUT_NOT_REGULAR('payload-file', 'character device') },
  { name: 'payload from a directory', args: CREATE('d'), setup: (d) => mkdirSync(join(d, 'd')), type: 'OSError', error: "[Errno 21] Is a directory: 'd'" },
];

/** Everything observable about one path, without following a final symlink. */
function describePath(path: string): string {
  let s;
  try {
    s = lstatSync(path);
  } catch {
    return 'absent';
  }
  const kind = s.isSymbolicLink() ? `symlink->${readlinkSync(path)}` : s.isFile() ? `file:${createHash('sha256').update(readFileSync(path)).digest('hex')}` : s.isDirectory() ? 'dir' : 'special';
  return `${kind} mode=${s.mode.toString(8)} rdev=${s.rdev} ino=${s.ino} nlink=${s.nlink}`;
}

/** The case directory, recursively, without entering symlinks: names and their states. */
function describeTree(dir: string, prefix = ''): string[] {
  const lines: string[] = [];
  for (const name of readdirSync(join(dir, prefix)).sort()) {
    const rel = join(prefix, name);
    const full = join(dir, rel);
    // The directory's own inode and mode are compared; its mtime (atime) may move.
    lines.push(`${rel}: ${describePath(full).replace(/ ino=\d+ nlink=\d+$/u, '')}`);
    if (lstatSync(full).isDirectory()) lines.push(...describeTree(dir, rel));
  }
  return lines;
}

interface Outcome {
  result: CliResult;
  before: string[];
  after: string[];
}

const outcomes = new Map<string, Outcome>();
let base: string;

describe('file attacks through the binary', () => {
  beforeAll(async () => {
    expect(new Set(ATTACKS.map((c) => c.name)).size).toBe(ATTACKS.length);
    base = tempDir('sc-attack-base-');
    const made = await runCli(['create', '--store', 's.sqlite', '--namespace', 'app', '--session-id', 'a', '--payload-file', '-'], { cwd: base, input: '{"step": 1}' });
    expect(made.code, made.stdout).toBe(0);
    await inBatches(ATTACKS, 2, async (c) => {
      const dir = tempDir('sc-attack-');
      copyFileSync(join(base, 's.sqlite'), join(dir, 's.sqlite'));
      writeFileSync(join(dir, 'p.json'), '{"step": 2}\n');
      await c.setup?.(dir);
      const devices = new Map<string, string>();
      const local = (arg: string): string => {
        if (arg !== DEV_NULL && arg !== DEV_ZERO) return arg;
        const name = arg === DEV_NULL ? 'null' : 'zero';
        if (!devices.has(name)) devices.set(name, ROOT && existsSync(join(dir, `dev-${name}`)) ? join(dir, `dev-${name}`) : device(dir, name));
        return devices.get(name) as string;
      };
      const args = c.args.length > 0 ? c.args.map(local) : OUT(join(dir, 's.sqlite'));
      const watched = (c.watch ?? []).map(local).map((p) => (p.startsWith('/') ? p : join(dir, p)));
      const snapshot = (): string[] => [...describeTree(dir), ...watched.map((p) => `${p}: ${describePath(p)}`)];
      const before = snapshot();
      const result = await runCli(args, { cwd: dir, ...(c.stdin === undefined ? {} : { input: c.stdin }) });
      outcomes.set(c.name, { result, before, after: snapshot() });
    });
  });

  afterAll(async () => {
    for (const server of servers.splice(0)) await new Promise((resolve) => server.close(resolve));
    removeTempDirs();
  });

  it('has at least 50 attacks', () => {
    expect(ATTACKS.length).toBeGreaterThanOrEqual(50);
  });

  for (const c of ATTACKS) {
    it(c.name, () => {
      const outcome = outcomes.get(c.name);
      expect(outcome).toBeDefined();
      const { result, before, after } = outcome as Outcome;
      expect(result.stderr).toBe('');
      expect(result.code, result.stdout).toBe(1);
      const parsed = JSON.parse(result.stdout) as Record<string, unknown>;
      expect(Object.keys(parsed)).toEqual(['ok', 'error', 'type']);
      expect(parsed.type).toBe(c.type);
      if (typeof c.error === 'string') expect(parsed.error).toBe(c.error);
      else expect(parsed.error).toMatch(c.error);
      expect(after).toEqual(before);
    });
  }
});

describe('what file handling still allows', () => {
  let dir: string;
  const ok = async (args: string[], input?: string): Promise<Record<string, unknown>> => {
    const r = await runCli(args, { cwd: dir, ...(input === undefined ? {} : { input }) });
    expect(r.stderr).toBe('');
    expect(r.code, r.stdout).toBe(0);
    return (JSON.parse(r.stdout) as { result: Record<string, unknown> }).result;
  };

  beforeAll(async () => {
    dir = tempDir('sc-attack-ok-');
    await ok(['create', '--store', 's.sqlite', '--namespace', 'app', '--session-id', 'a', '--payload-file', '-'], '{"step": 1}');
  });
  afterAll(removeTempDirs);

  it('replaces an existing regular file, owner-only, and creates missing directories', async () => {
    writeFileSync(join(dir, 'old.json'), 'old', { mode: 0o644 });
    expect(await ok(OUT('old.json'))).toMatchObject({ output: join(dir, 'old.json'), checkpoints: 1 });
    expect(lstatSync(join(dir, 'old.json')).mode & 0o777).toBe(0o600);
    expect(await ok(OUT('new/deeper/out.json'))).toMatchObject({ output: join(dir, 'new', 'deeper', 'out.json') });
    expect(readdirSync(join(dir, 'new', 'deeper'))).toEqual(['out.json']);
  });

  it('writes through a symlinked directory (only the last component may not be a link)', async () => {
    mkdirSync(join(dir, 'real'));
    symlinkSync('real', join(dir, 'via'));
    expect(await ok(OUT('via/out.json'))).toMatchObject({ output: join(dir, 'real', 'out.json') });
    expect(lstatSync(join(dir, 'via')).isSymbolicLink()).toBe(true);
  });

  it('imports from standard input with --input -, and reads a symlinked input file', async () => {
    const bundle = readFileSync(join(dir, 'old.json'), 'utf8');
    expect(await ok(['import', '--store', 'copy.sqlite', '--input', '-', '--apply'], bundle)).toEqual({ dry_run: false, inserted: [1], unchanged: [] });
    symlinkSync('old.json', join(dir, 'bundle-link.json'));
    expect(await ok(['import', '--store', 'copy.sqlite', '--input', 'bundle-link.json'])).toEqual({ dry_run: true, inserted: [], unchanged: [1] });
  });
});
