import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The real binary: every CLI test spawns it, so what is tested is what users run. */
export const CLI_BIN = fileURLToPath(new URL('../../bin/run.cjs', import.meta.url));

/** Outcome of one CLI call. */
export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
  /** Wall time in milliseconds. */
  ms: number;
}

/** Options of {@link runCli}. */
export interface RunCliOptions {
  cwd: string;
  /** Extra environment; `undefined` values remove a variable. */
  env?: Record<string, string | undefined>;
  /** Bytes for standard input. Default is an empty, closed stdin. */
  input?: string | Buffer;
  /** Kill the process after this long (a hang must end, but a slow machine must not fail). Default is 10 minutes. */
  timeoutMs?: number;
}

/** A private XDG home so user-installed plugins or caches never leak into tests. */
const XDG_HOME = mkdtempSync(join(tmpdir(), 'sc-cli-xdg-'));

/**
 * The environment of a spawned CLI: no store variables, production mode (as users run it), and
 * private XDG directories.
 */
export function cliEnv(extra: Record<string, string | undefined> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const key of ['SESSION_CHECKPOINT_STORE', 'SESSION_CHECKPOINT_DATABASE_URL', 'NODE_ENV', 'DEBUG', 'NODE_OPTIONS', 'VITEST', 'VITEST_POOL_ID', 'VITEST_WORKER_ID']) delete env[key];
  env.XDG_DATA_HOME = join(XDG_HOME, 'data');
  env.XDG_CONFIG_HOME = join(XDG_HOME, 'config');
  env.XDG_CACHE_HOME = join(XDG_HOME, 'cache');
  env.LC_ALL = 'C.UTF-8';
  for (const [key, value] of Object.entries(extra)) {
    if (value === undefined) delete env[key];
    else env[key] = value;
  }
  return env;
}

/**
 * Spawns `node bin/run.cjs ...args` and collects its output.
 *
 * @example
 * ```ts
 * const r = await runCli(['list', '--store', 's.sqlite'], { cwd });
 * ```
 */
export async function runCli(args: readonly string[], options: RunCliOptions): Promise<CliResult> {
  const started = performance.now();
  const result = await runNode([CLI_BIN, ...args], { cwd: options.cwd, env: cliEnv(options.env), input: options.input ?? '', timeoutMs: options.timeoutMs ?? 600_000 });
  return { ...result, ms: performance.now() - started };
}

/**
 * Runs a Node script as a child process with `input` on its standard input, and collects both
 * output streams. A child still running after `timeoutMs` is killed (a hang must end, but no
 * verdict depends on speed: the limits are minutes).
 */
function runNode(
  argv: readonly string[],
  options: { cwd?: string; env: NodeJS.ProcessEnv; input: string | Buffer; timeoutMs: number },
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, argv, { cwd: options.cwd, env: options.env, stdio: ['pipe', 'pipe', 'pipe'] });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (chunk: Buffer) => out.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => err.push(chunk));
    const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout: Buffer.concat(out).toString('utf8'), stderr: Buffer.concat(err).toString('utf8') });
    });
    child.stdin.on('error', () => undefined);
    child.stdin.end(options.input);
  });
}

/** One call of {@link runCliBatch}. */
export interface BatchCall {
  args: readonly string[];
  cwd: string;
  /** Extra environment for this call; `undefined` removes a variable. */
  env?: Record<string, string | undefined>;
}

const BATCH_RUNNER = fileURLToPath(new URL('./batch-runner.mjs', import.meta.url));

/**
 * Runs several CLI calls one after another in a single Node process, through the entry point
 * that bin/run.cjs uses (the stderr guard, then `main`). For corpora of many short calls: one
 * start-up instead of one per call. Calls that need standard input go through {@link runCli}.
 * Each result's `stderr` is the whole batch's stderr (so a leak fails every call of the batch).
 *
 * @example
 * ```ts
 * const [a, b] = await runCliBatch([{ args: ['list', '--store', 's.sqlite'], cwd }, { args: ['verify', '--store', 's.sqlite'], cwd }]);
 * ```
 */
export async function runCliBatch(calls: readonly BatchCall[], options: { timeoutMs?: number } = {}): Promise<CliResult[]> {
  const started = performance.now();
  const payload = calls.map((c) => ({ args: c.args, cwd: c.cwd, env: Object.fromEntries(Object.entries(c.env ?? {}).map(([k, v]) => [k, v ?? null])) }));
  const { code, stdout, stderr } = await runNode([BATCH_RUNNER], { env: cliEnv(), input: JSON.stringify(payload), timeoutMs: options.timeoutMs ?? 1_200_000 });
  let results: { code: number; stdout: string }[];
  try {
    results = JSON.parse(stdout) as { code: number; stdout: string }[];
  } catch {
    throw new Error(`batch runner exited ${String(code)} without results: ${stdout.slice(0, 500)} ${stderr.slice(0, 500)}`);
  }
  const ms = (performance.now() - started) / Math.max(calls.length, 1);
  return results.map((r) => ({ code: r.code, stdout: r.stdout, stderr, ms }));
}

/** A long-lived CLI process that runs calls one at a time (see {@link startCliSession}). */
export interface CliSession {
  /** Runs one call; its `stderr` is everything the session has written to stderr so far. */
  call(args: readonly string[], options: { cwd: string; env?: Record<string, string | undefined> }): Promise<CliResult>;
  /** Ends the process. */
  close(): Promise<void>;
}

/**
 * Starts one Node process that runs CLI calls through bin/run.cjs's entry point, one per
 * {@link CliSession.call}, so a test can prepare files between calls without a Node start-up per
 * call. Calls that need standard input go through {@link runCli}.
 *
 * @param env Extra environment for every call (e.g. `XDG_DATA_HOME` with a linked plugin).
 * @example
 * ```ts
 * const session = startCliSession();
 * const r = await session.call(['list', '--store', 's.sqlite'], { cwd });
 * await session.close();
 * ```
 */
export function startCliSession(env: Record<string, string | undefined> = {}): CliSession {
  const child = spawn(process.execPath, [BATCH_RUNNER, '--lines'], { env: cliEnv(env), stdio: ['pipe', 'pipe', 'pipe'] });
  let stderr = '';
  let buffered = '';
  const waiting: Array<(line: string) => void> = [];
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  child.stdout.on('data', (chunk: Buffer) => {
    buffered += chunk.toString('utf8');
    for (let end = buffered.indexOf('\n'); end !== -1; end = buffered.indexOf('\n')) {
      const line = buffered.slice(0, end);
      buffered = buffered.slice(end + 1);
      waiting.shift()?.(line);
    }
  });
  const exited = new Promise<void>((resolve) => child.on('close', () => resolve()));
  let queue = Promise.resolve();
  return {
    call(args, options) {
      const run = queue.then(
        () =>
          new Promise<CliResult>((resolve, reject) => {
            const started = performance.now();
            exited.then(() => reject(new Error(`CLI session ended: ${stderr.slice(0, 500)}`)));
            waiting.push((line) => {
              const result = JSON.parse(line) as { code: number; stdout: string };
              resolve({ code: result.code, stdout: result.stdout, stderr, ms: performance.now() - started });
            });
            const callEnv = Object.fromEntries(Object.entries(options.env ?? {}).map(([k, v]) => [k, v ?? null]));
            child.stdin.write(`${jsonLine({ args, cwd: options.cwd, env: { ...Object.fromEntries(Object.entries(env).map(([k, v]) => [k, v ?? null])), ...callEnv } })}\n`);
          }),
      );
      queue = run.then(
        () => undefined,
        () => undefined,
      );
      return run;
    },
    async close() {
      child.stdin.end();
      await exited;
    },
  };
}

/**
 * One JSON document on one line. U+2028 and U+2029 are escaped too: JSON.stringify leaves them raw,
 * and Node 24's readline (the batch runner reads its stdin with it) ends a line at each of them.
 */
function jsonLine(value: unknown): string {
  return JSON.stringify(value).replace(/[\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16)}`);
}

const created: string[] = [XDG_HOME];

/** A fresh temporary directory, with symlinks resolved (paths in output are resolved too). */
export function tempDir(prefix: string): string {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), prefix)));
  created.push(dir);
  return dir;
}

/**
 * Removes the directories made by {@link tempDir} (the corpus writes files of tens of MiB).
 * Set `SC_KEEP_TMP=1` to keep them for debugging.
 */
export function removeTempDirs(): void {
  if (process.env.SC_KEEP_TMP) return;
  for (const dir of created.splice(0)) rmSync(dir, { recursive: true, force: true });
}

/** SHA-256 of a file's bytes, or `null` when it does not exist. */
export function fileHash(path: string): string | null {
  try {
    return createHash('sha256').update(readFileSync(path)).digest('hex');
  } catch {
    return null;
  }
}

/** Runs `fn` over items with at most `width` in flight. */
export async function inBatches<T, R>(items: readonly T[], width: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  const workers = Array.from({ length: Math.min(width, items.length) }, async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await fn(items[index] as T);
    }
  });
  await Promise.all(workers);
  return results;
}
