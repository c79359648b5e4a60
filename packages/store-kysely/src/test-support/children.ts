import { spawn, type ChildProcess } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const HERE = dirname(fileURLToPath(import.meta.url));

/** Output and exit status of a finished child. */
export interface ChildResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/** A running child script of this folder, with its output so far. */
export interface RunningChild {
  process: ChildProcess;
  stdout(): string;
  /** Resolves when stdout has a line equal to `line`. */
  waitForLine(line: string): Promise<void>;
  done: Promise<ChildResult>;
}

/** Starts `node <script> ...args` (a `.mjs` child of test-support). */
export function startChild(script: string, args: readonly string[], env: NodeJS.ProcessEnv = process.env): RunningChild {
  const child = spawn(process.execPath, [join(HERE, script), ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  const waiters: { line: string; resolve: () => void }[] = [];
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    stdout += chunk;
    for (const w of [...waiters]) {
      if (stdout.split('\n').includes(w.line)) {
        waiters.splice(waiters.indexOf(w), 1);
        w.resolve();
      }
    }
  });
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const done = new Promise<ChildResult>((resolve) => {
    child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr }));
  });
  return {
    process: child,
    stdout: () => stdout,
    waitForLine: (line) =>
      stdout.split('\n').includes(line) ? Promise.resolve() : new Promise((resolve) => waiters.push({ line, resolve })),
    done,
  };
}

/** Runs children to completion in parallel; throws with their stderr when one fails. */
export async function runChildren(script: string, argSets: readonly (readonly string[])[]): Promise<ChildResult[]> {
  const results = await Promise.all(argSets.map((args) => startChild(script, args).done));
  const failed = results.filter((r) => r.code !== 0);
  if (failed.length > 0) throw new Error(`${failed.length} child(ren) failed:\n${failed.map((r) => r.stderr).join('\n')}`);
  return results;
}
