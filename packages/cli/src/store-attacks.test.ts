/**
 * Attacks on the store itself, through the real binary: schema objects planted in a SQLite file
 * or a PostgreSQL schema, refused creates that would consume an id, stores the user may only
 * read, unreachable or silent PostgreSQL servers, and the `--schema` selection. Every refusal is
 * one JSON error, nothing on stderr, and the store byte-identical (SQLite) or row-identical
 * (PostgreSQL) afterwards.
 */
import { spawn } from 'node:child_process';
import { chmodSync, chownSync, copyFileSync, existsSync, mkdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer, type Server, type Socket } from 'node:net';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { copyCliForOtherUsers, type OtherUserCopy } from './test-support/other-user-copy.js';
import { CLI_BIN, cliEnv, fileHash, inBatches, removeTempDirs, runCli, tempDir, type CliResult } from './test-support/run-cli.js';

const PG_URL = process.env.SC_PG_URL;
const OBJ = '{"step": 1}';

function json(result: CliResult): { ok: boolean; result?: any; error?: string; type?: string } {
  expect(result.stderr).toBe('');
  return JSON.parse(result.stdout) as { ok: boolean; result?: any; error?: string; type?: string };
}

function expectRefused(result: CliResult, type: string, message?: RegExp): void {
  const out = json(result);
  expect(out.ok, result.stdout).toBe(false);
  expect(out.type, result.stdout).toBe(type);
  if (message) expect(out.error).toMatch(message);
  expect(result.stdout).not.toMatch(/\n\s+at /u);
}

let root: string;
/** A closed, checkpointed store with rows 1 (source_ref r1) and 2, copied per case. */
let template: string;

beforeAll(async () => {
  root = tempDir('sc-attacks-');
  chmodSync(root, 0o755); // the unprivileged cases run as nobody inside it
  template = join(root, 'template.sqlite');
  for (const [session, ref] of [['s', 'r1'], ['s', undefined]] as const) {
    const args = ['create', '--store', template, '--session-id', session, '--payload-file', '-', ...(ref ? ['--source-ref', ref] : [])];
    expect(json(await runCli(args, { cwd: root, input: OBJ })).ok).toBe(true);
  }
}, 120_000);
afterAll(() => removeTempDirs());

let counter = 0;
/** A fresh copy of the template in its own directory, with `ddl` applied by a plain connection. */
function storeWith(...ddl: string[]): { dir: string; path: string } {
  const dir = join(root, `case-${++counter}`);
  mkdirSync(dir);
  const path = join(dir, 's.sqlite');
  copyFileSync(template, path);
  if (ddl.length > 0) {
    const db = new Database(path);
    for (const statement of ddl) db.exec(statement);
    db.close();
  }
  return { dir, path };
}

/** Every command, each as it would touch the store. */
const EVERY_COMMAND: readonly (readonly string[])[] = [
  ['init'],
  ['create', '--session-id', 's', '--payload-file', '-'],
  ['get', '--id', '1'],
  ['list'],
  ['history', '--session-id', 's'],
  ['sessions'],
  ['verify'],
  ['export', '--output', 'out.json'],
  ['import', '--input', 'in.json', '--apply'],
  ['delete', '--id', '1', '--apply'],
  ['prune', '--keep-latest', '1', '--apply'],
];

const BUNDLE = JSON.stringify({
  schema: 'ellmos.session-checkpoint-export.v1',
  store_schema_version: 1,
  exported_at: '2026-08-08T00:00:00Z',
  namespace: null,
  checkpoints: [],
});

describe('SQLite: objects beyond the v1 schema are refused by every command, the file left byte-identical', () => {
  /** Commands tried on the attacks after the first two, which try every command. */
  const SOME_COMMANDS = [EVERY_COMMAND[0]!, EVERY_COMMAND[1]!, EVERY_COMMAND[3]!, EVERY_COMMAND[6]!];
  const attacks: { name: string; ddl: string[]; message: RegExp }[] = [
    {
      name: 'a trigger deleting each new row',
      ddl: ['CREATE TRIGGER eat AFTER INSERT ON checkpoints BEGIN DELETE FROM checkpoints WHERE id = new.id; END'],
      message: /trigger 'eat'/u,
    },
    { name: 'a view', ddl: ['CREATE VIEW recent AS SELECT * FROM checkpoints'], message: /view 'recent'/u },
    {
      name: 'a trigger on checkpoint_meta',
      ddl: ["CREATE TRIGGER meta BEFORE UPDATE ON checkpoint_meta BEGIN SELECT RAISE(IGNORE); END"],
      message: /trigger 'meta'/u,
    },
    {
      name: 'a UNIQUE index refusing good rows',
      ddl: ['CREATE UNIQUE INDEX one_per_session ON checkpoints(session_id, id)'],
      message: /'one_per_session' is UNIQUE/u,
    },
    { name: 'a partial index', ddl: ["CREATE INDEX part ON checkpoints(kind) WHERE kind <> 'x'"], message: /'part' is partial/u },
    { name: 'an expression index', ddl: ['CREATE INDEX expr ON checkpoints(length(payload_json))'], message: /'expr' indexes an expression/u },
    {
      name: 'our session index redefined',
      ddl: ['DROP INDEX idx_checkpoints_session_created', 'CREATE INDEX idx_checkpoints_session_created ON checkpoints(kind)'],
      message: /index 'idx_checkpoints_session_created' differs from the v1 schema/u,
    },
    {
      name: 'checkpoints without UNIQUE(namespace, source_ref)',
      ddl: [
        'DROP TABLE checkpoints',
        `CREATE TABLE checkpoints (id INTEGER PRIMARY KEY AUTOINCREMENT, namespace TEXT NOT NULL, session_id TEXT NOT NULL, kind TEXT NOT NULL,
          name TEXT NOT NULL, payload_json TEXT NOT NULL, payload_sha256 TEXT NOT NULL, created_at TEXT NOT NULL, source_ref TEXT)`,
      ],
      message: /table 'checkpoints' differs from the v1 schema/u,
    },
  ];

  attacks.forEach((attack, index) => {
    const commands = index < 2 ? EVERY_COMMAND : SOME_COMMANDS;
    it(`${attack.name}: ${index < 2 ? 'every command' : 'init, create, list, verify'}`, async () => {
      const { dir, path } = storeWith(...attack.ddl);
      writeFileSync(join(dir, 'in.json'), BUNDLE);
      const before = fileHash(path);
      const results = await inBatches(commands, 3, (args) => runCli([...args, '--store', path], { cwd: dir, input: OBJ }));
      results.forEach((result) => expectRefused(result, 'StoreSchemaError', attack.message));
      expect(fileHash(path)).toBe(before);
      expect(existsSync(join(dir, 'out.json'))).toBe(false);
    }, 120_000);
  });

  it('plain extra indexes and ANALYZE statistics are accepted (the Python tool accepts them)', async () => {
    const { dir, path } = storeWith('CREATE INDEX by_kind ON checkpoints(kind, name COLLATE NOCASE)', 'ANALYZE');
    expect(json(await runCli(['create', '--store', path, '--session-id', 's', '--payload-file', '-'], { cwd: dir, input: OBJ })).result.id).toBe(3);
    expect(json(await runCli(['verify', '--store', path], { cwd: dir })).result.ok).toBe(3);
  }, 60_000);

  it('init on a non-store SQLite file is refused and leaves it byte-identical (a view only, user_version only, a foreign table)', async () => {
    const files: Record<string, string[]> = {
      'view.sqlite': ['CREATE VIEW v AS SELECT 1 AS one'],
      'version.sqlite': ['PRAGMA user_version = 7'],
      'table.sqlite': ['CREATE TABLE notes (x)'],
    };
    const dir = tempDir('sc-attacks-init-');
    for (const [name, ddl] of Object.entries(files)) {
      const db = new Database(join(dir, name));
      for (const statement of ddl) db.exec(statement);
      db.close();
    }
    for (const name of Object.keys(files)) {
      const path = join(dir, name);
      const before = fileHash(path);
      const mode = statSync(path).mode;
      for (const command of [['init'], ['create', '--session-id', 's', '--payload-file', '-'], ['list']]) {
        expectRefused(await runCli([...command, '--store', path], { cwd: dir, input: OBJ }), 'StoreSchemaError', /Refusing incompatible SQLite file/u);
      }
      expect(fileHash(path), name).toBe(before);
      expect(statSync(path).mode, name).toBe(mode);
    }
  }, 120_000);
});

describe('SQLite: a refused create changes nothing', () => {
  it('a source_ref conflict leaves the file byte-identical and the next id is max + 1 (AUTOINCREMENT, as the Python tool)', async () => {
    const { dir, path } = storeWith();
    const before = fileHash(path);
    for (let i = 0; i < 3; i++) {
      const refused = await runCli(['create', '--store', path, '--session-id', 's', '--source-ref', 'r1', '--payload-file', '-'], { cwd: dir, input: `{"try": ${i}}` });
      expectRefused(refused, 'CheckpointConflictError');
      expect(fileHash(path)).toBe(before);
    }
    const db = new Database(path, { readonly: true });
    const { seq } = db.prepare("select seq from sqlite_sequence where name = 'checkpoints'").get() as { seq: number };
    db.close();
    const next = json(await runCli(['create', '--store', path, '--session-id', 's', '--payload-file', '-'], { cwd: dir, input: OBJ }));
    expect(next.result.id).toBe(seq + 1);
    expect(next.result.id).toBe(3);
  }, 60_000);
});

/** Read commands of the CLI (`latest` is `history --limit 1`). */
const READS: readonly (readonly string[])[] = [
  ['get', '--id', '1'],
  ['list'],
  ['history', '--session-id', 's', '--limit', '1'],
  ['sessions'],
  ['verify'],
  ['export', '--output', '-'],
];

describe('SQLite: reads need no write access and never widen a mode', () => {
  it('as root, every read of a 0400 store works and the store stays 0400', async () => {
    const { dir, path } = storeWith();
    chmodSync(path, 0o400);
    for (const args of READS) expect(json(await runCli([...args, '--store', path], { cwd: dir })).ok).toBe(true);
    expect(statSync(path).mode & 0o777).toBe(0o400);
  }, 60_000);

  it('group and other bits are still cleared (0644 becomes 0600)', async () => {
    const { dir, path } = storeWith();
    chmodSync(path, 0o644);
    expect(json(await runCli(['list', '--store', path], { cwd: dir })).ok).toBe(true);
    expect(statSync(path).mode & 0o777).toBe(0o600);
  }, 60_000);

  // Root ignores file modes, so genuine read-only access is tested as an unprivileged user.
  const unprivileged = process.getuid?.() === 0 && existsSync('/usr/bin/setpriv');
  if (!unprivileged) console.warn('not root or no setpriv: the unprivileged read-only tests are SKIPPED');

  // nobody may not be able to reach the checkout (a clone in a 0700 directory): it runs a copy.
  let copy: OtherUserCopy | undefined;
  beforeAll(() => {
    if (!unprivileged) return;
    copy = copyCliForOtherUsers();
    if ('reason' in copy) console.warn(`the tests as nobody are SKIPPED: ${copy.reason}`);
  }, 600_000);
  afterAll(() => {
    if (copy && 'root' in copy) rmSync(copy.root, { recursive: true, force: true });
  });

  /** The copy of the binary nobody runs; skips the test (the reason was printed) when there is none. */
  function nobodyBin(skip: (note?: string) => never): string {
    if (!copy) return skip('nobody has no copy of the CLI');
    if ('reason' in copy) return skip(copy.reason);
    return copy.bin;
  }

  /** Runs the binary as `nobody`, with a home and XDG directories it may use. */
  function runAsNobody(bin: string, args: readonly string[], cwd: string, home: string): Promise<CliResult> {
    return new Promise((resolve, reject) => {
      const env = cliEnv({ HOME: home, XDG_DATA_HOME: join(home, 'data'), XDG_CONFIG_HOME: join(home, 'config'), XDG_CACHE_HOME: join(home, 'cache') });
      const child = spawn('/usr/bin/setpriv', ['--reuid=nobody', '--regid=nogroup', '--clear-groups', process.execPath, bin, ...args], { cwd, env });
      const out: Buffer[] = [];
      const err: Buffer[] = [];
      child.stdout.on('data', (chunk: Buffer) => out.push(chunk));
      child.stderr.on('data', (chunk: Buffer) => err.push(chunk));
      child.on('error', reject);
      child.on('close', (code) => resolve({ code, stdout: Buffer.concat(out).toString('utf8'), stderr: Buffer.concat(err).toString('utf8'), ms: 0 }));
      child.stdin.end();
    });
  }

  /** A directory owned by nobody (writable by it) holding a copy of the template, and a home for nobody. */
  function nobodyStore(): { dir: string; path: string; home: string } {
    const { dir, path } = storeWith();
    const home = join(dir, 'home');
    mkdirSync(home);
    for (const p of [dir, path, home]) chownSync(p, 65534, 65534);
    chmodSync(dir, 0o755);
    return { dir, path, home };
  }

  it.skipIf(!unprivileged)('as nobody, every read of its own 0400 store works; the store stays 0400 and unchanged; a write fails cleanly', async ({ skip }) => {
    const bin = nobodyBin(skip);
    const { dir, path, home } = nobodyStore();
    chmodSync(path, 0o400);
    const before = fileHash(path);
    for (const args of READS) {
      const out = json(await runAsNobody(bin, [...args, '--store', path], dir, home));
      expect(out.ok, `${args.join(' ')}: ${JSON.stringify(out)}`).toBe(true);
    }
    expect(statSync(path).mode & 0o777).toBe(0o400);
    expect(fileHash(path)).toBe(before);
    const write = await runAsNobody(bin, ['delete', '--id', '1', '--apply', '--store', path], dir, home);
    expectRefused(write, 'DatabaseError', /readonly database/u);
    expect(fileHash(path)).toBe(before);
  }, 120_000);

  it.skipIf(!unprivileged)('as nobody, a root-owned store in a read-only directory: a clear error naming the cause, nothing changed', async ({ skip }) => {
    const bin = nobodyBin(skip);
    const { dir, path } = storeWith();
    const home = tempDir('sc-nobody-home-');
    chownSync(home, 65534, 65534);
    chmodSync(path, 0o644);
    const before = fileHash(path);
    for (const args of [['list'], ['verify']]) {
      expectRefused(await runAsNobody(bin, [...args, '--store', path], dir, home), 'DatabaseError', /without write access.*WAL mode.*SQLITE_READONLY_DIRECTORY/u);
    }
    expect(fileHash(path)).toBe(before);
    expect(existsSync(`${path}-shm`)).toBe(false);
    expect(statSync(path).mode & 0o777).toBe(0o644);
  }, 60_000);
});

describe('PostgreSQL connection failures: OSError or DatabaseError naming host and port, bounded in time', () => {
  let silent: Server;
  const sockets: Socket[] = [];
  let silentPort = 0;
  let closedPort = 0;

  beforeAll(async () => {
    silent = createServer((socket) => {
      sockets.push(socket); // accept and never answer
    });
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    silentPort = (silent.address() as { port: number }).port;
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    closedPort = (closed.address() as { port: number }).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
  });
  afterAll(async () => {
    for (const socket of sockets) socket.destroy();
    await new Promise<void>((resolve) => silent.close(() => resolve()));
  });

  it('a closed port: OSError with 127.0.0.1:port', async () => {
    const result = await runCli(['list', '--database-url', `postgres://postgres@127.0.0.1:${closedPort}/test`], { cwd: root });
    expectRefused(result, 'OSError', new RegExp(`Connection refused \\(127\\.0\\.0\\.1:${closedPort}\\)`, 'u'));
  }, 60_000);

  it('a server that never answers: OSError (timed out) with host and port after --connect-timeout, or the environment variable', async () => {
    const url = `postgres://postgres@127.0.0.1:${silentPort}/test`;
    const expected = new RegExp(`Connection timed out \\(127\\.0\\.0\\.1:${silentPort}\\)`, 'u');
    expectRefused(await runCli(['list', '--database-url', url, '--connect-timeout', '0.5'], { cwd: root }), 'OSError', expected);
    expectRefused(await runCli(['init', '--database-url', url], { cwd: root, env: { SESSION_CHECKPOINT_CONNECT_TIMEOUT: '0.5' } }), 'OSError', expected);
  }, 60_000);

  it('bad --connect-timeout values and PostgreSQL-only flags with a SQLite store are usage errors', async () => {
    for (const value of ['0', '-1', 'soon', '1e3', '99999999']) {
      const result = await runCli(['list', '--database-url', 'postgres://u@127.0.0.1:1/x', '--connect-timeout', value], { cwd: root });
      expectRefused(result, 'UsageError', /--connect-timeout must be a positive number of seconds/u);
      expect(result.code).toBe(2);
    }
    expectRefused(await runCli(['list', '--store', template, '--schema', 'x'], { cwd: root }), 'UsageError', /--schema applies to PostgreSQL stores only/u);
    expectRefused(await runCli(['list', '--store', template, '--connect-timeout', '1'], { cwd: root }), 'UsageError', /PostgreSQL stores only/u);
  }, 60_000);

  it('a host name that does not resolve: DatabaseError naming host and port', async () => {
    const result = await runCli(['list', '--database-url', 'postgres://u@host.invalid:5433/x', '--connect-timeout', '5'], { cwd: root });
    expectRefused(result, 'DatabaseError', /^could not connect to PostgreSQL at host\.invalid:5433: getaddrinfo/u);
  }, 60_000);

  it.skipIf(!PG_URL)('the server refusing the connection (unknown role, unknown database): DatabaseError naming host and port', async () => {
    const url = new URL(PG_URL!);
    const where = `${url.hostname}:${url.port || 5432}`;
    const role = new URL(url);
    role.username = 'sc_no_such_role';
    expectRefused(await runCli(['list', '--database-url', role.toString()], { cwd: root }), 'DatabaseError', new RegExp(`^could not connect to PostgreSQL at ${where}: .*sc_no_such_role`, 'u'));
    const database = new URL(url);
    database.pathname = '/sc_no_such_db';
    expectRefused(await runCli(['list', '--database-url', database.toString()], { cwd: root }), 'DatabaseError', new RegExp(`^could not connect to PostgreSQL at ${where}: .*sc_no_such_db`, 'u'));
  }, 60_000);

  it.skipIf(!PG_URL)('sslmode=require against a server without TLS: DatabaseError with host and port, no SECURITY WARNING on stderr', async () => {
    const url = new URL(PG_URL!);
    url.searchParams.set('sslmode', 'require');
    const result = await runCli(['list', '--database-url', url.toString()], { cwd: root });
    expectRefused(result, 'DatabaseError', new RegExp(`could not connect to PostgreSQL at ${url.hostname}:${url.port || 5432}: .*SSL`, 'u'));
  }, 60_000);
});

describe.skipIf(!PG_URL)('PostgreSQL: --schema, schema objects and refused creates', () => {
  let pool: pg.Pool;
  const schemas: string[] = [];
  const ident = (name: string) => `"${name.replaceAll('"', '""')}"`;
  const fresh = (label: string) => {
    const schema = `sc_attack_${label}_${process.pid}_${schemas.length}`;
    schemas.push(schema);
    return schema;
  };
  const cli = (args: readonly string[], schema?: string, input?: string) =>
    runCli([...args, '--database-url', PG_URL!, ...(schema === undefined ? [] : ['--schema', schema])], { cwd: root, ...(input ? { input } : {}) });
  const count = async (schema: string) => Number((await pool.query(`select count(*) as n from ${ident(schema)}.checkpoints`)).rows[0].n);
  const schemaExists = async (schema: string) => (await pool.query('select 1 from pg_namespace where nspname = $1', [schema])).rowCount === 1;

  beforeAll(() => {
    pool = new pg.Pool({ connectionString: PG_URL, max: 2 });
  });
  afterAll(async () => {
    for (const schema of schemas) await pool.query(`drop schema if exists ${ident(schema)} cascade`);
    await pool.end();
  });

  it('a connection the server terminates while import --apply waits for a lock: one DatabaseError document, nothing imported', async () => {
    const schema = fresh('killed');
    expect(json(await cli(['init'], schema)).ok).toBe(true);
    const bundle = join(root, `killed-${process.pid}.json`);
    expect(json(await runCli(['export', '--store', template, '--output', bundle], { cwd: root })).ok).toBe(true);
    const holder = await pool.connect();
    try {
      await holder.query('begin');
      await holder.query(`lock table ${ident(schema)}.checkpoints in access exclusive mode`);
      const running = cli(['import', '--input', bundle, '--apply'], schema);
      // The CLI's backend is the one waiting for the table's lock.
      let pid: number | undefined;
      while (pid === undefined) {
        const { rows } = await pool.query('select pid from pg_locks where relation = $1::regclass and not granted', [`${ident(schema)}.checkpoints`]);
        pid = rows[0]?.pid as number | undefined;
        if (pid === undefined) await new Promise((resolve) => setTimeout(resolve, 20));
      }
      await pool.query('select pg_terminate_backend($1)', [pid]);
      await holder.query('rollback');
      const result = await running;
      // json() parses stdout as one document: a second error document would fail it.
      expectRefused(result, 'DatabaseError', /terminat/u);
      expect(result.code).toBe(1);
    } finally {
      holder.release();
    }
    expect(await count(schema)).toBe(0);
  }, 600_000);

  it('--schema selects the schema (quoted, case kept); reads of a missing schema do not create it; the variable works too', async () => {
    const mixed = fresh('Mixed"Case');
    expect(json(await cli(['init'], mixed)).ok).toBe(true);
    expect(await schemaExists(mixed)).toBe(true);
    expect(json(await cli(['create', '--session-id', 's', '--payload-file', '-'], mixed, OBJ)).result.id).toBe(1);
    const viaEnv = await runCli(['list', '--database-url', PG_URL!], { cwd: root, env: { SESSION_CHECKPOINT_SCHEMA: mixed } });
    expect(json(viaEnv).result).toHaveLength(1);

    const missing = fresh('missing');
    for (const args of READS) {
      expectRefused(await cli(args, missing), 'StoreNotFoundError', /does not exist/u);
    }
    expectRefused(await cli(['delete', '--id', '1', '--apply'], missing), 'StoreNotFoundError');
    expect(await schemaExists(missing)).toBe(false);

    for (const bad of ['pg_mine', 'information_schema', 'a'.repeat(64), 'tab\there']) {
      expectRefused(await cli(['init'], bad), 'CheckpointValidationError', /^schema must/u);
    }
    expectRefused(await cli(['init'], ''), 'UsageError', /--schema must not be empty/u);
  }, 120_000);

  it('a source_ref conflict consumes no id: the next id is max + 1', async () => {
    const schema = fresh('conflict');
    expect(json(await cli(['create', '--session-id', 's', '--source-ref', 'r', '--payload-file', '-'], schema, OBJ)).result.id).toBe(1);
    for (let i = 0; i < 3; i++) expectRefused(await cli(['create', '--session-id', 's', '--source-ref', 'r', '--payload-file', '-'], schema, OBJ), 'CheckpointConflictError');
    expect(await count(schema)).toBe(1);
    expect(json(await cli(['create', '--session-id', 's', '--payload-file', '-'], schema, OBJ)).result.id).toBe(2);
  }, 60_000);

  const attacks: { name: string; ddl: (t: string) => string[]; message: RegExp }[] = [
    {
      name: 'a trigger deleting each new row',
      ddl: (t) => [
        `create function ${t.replace('.checkpoints', '')}.eat() returns trigger language plpgsql as $$ begin delete from ${t} where id = new.id; return null; end $$`,
        `create trigger eat after insert on ${t} for each row execute function ${t.replace('.checkpoints', '')}.eat()`,
      ],
      message: /checkpoints has trigger 'eat'/u,
    },
    { name: 'a DO INSTEAD NOTHING rule', ddl: (t) => [`create rule swallow as on insert to ${t} do instead nothing`], message: /has rule 'swallow'/u },
    {
      name: 'row-level security with a policy',
      ddl: (t) => [`alter table ${t} enable row level security`, `create policy hide on ${t} using (false)`],
      message: /row-level security/u,
    },
    { name: 'a view reading the table', ddl: (t) => [`create view ${t.replace('.checkpoints', '.recent')} as select * from ${t}`], message: /is read by view 'recent'/u },
    { name: 'a UNIQUE index', ddl: (t) => [`create unique index one_per_session on ${t} (namespace, session_id, kind)`], message: /UNIQUE index 'one_per_session'/u },
    { name: 'a jsonb payload column', ddl: (t) => [`alter table ${t} alter column payload_json type jsonb using payload_json::jsonb`], message: /column payload_json has type jsonb/u },
    { name: 'an unlogged table', ddl: (t) => [`alter table ${t} set unlogged`], message: /not a permanent \(logged\) table/u },
    {
      name: 'another collation on namespace',
      ddl: (t) => [`alter table ${t} alter column namespace type text collate "POSIX"`],
      message: /column namespace has collation POSIX/u,
    },
    {
      name: 'a child table adding rows to every read',
      ddl: (t) => [`create table ${t.replace('.checkpoints', '.extra')} () inherits (${t})`],
      message: /inheritance tree with 'extra'/u,
    },
  ];

  for (const attack of attacks) {
    it(`${attack.name} is refused by reads and writes, no row added`, async () => {
      const schema = fresh('obj');
      expect(json(await cli(['create', '--session-id', 's', '--payload-file', '-'], schema, OBJ)).ok).toBe(true);
      for (const statement of attack.ddl(`${ident(schema)}.checkpoints`)) await pool.query(statement);
      for (const args of [['list'], ['verify'], ['create', '--session-id', 's', '--payload-file', '-'], ['init']]) {
        expectRefused(await cli(args, schema, OBJ), 'StoreSchemaError', attack.message);
      }
      await pool.query(`alter table ${ident(schema)}.checkpoints disable row level security`);
      expect(await count(schema)).toBe(1);
    }, 120_000);
  }

  it('a plain extra index is accepted', async () => {
    const schema = fresh('plain');
    expect(json(await cli(['init'], schema)).ok).toBe(true);
    await pool.query(`create index by_kind on ${ident(schema)}.checkpoints (kind)`);
    expect(json(await cli(['create', '--session-id', 's', '--payload-file', '-'], schema, OBJ)).result.id).toBe(1);
  }, 60_000);
});
