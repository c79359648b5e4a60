import { spawn, type ChildProcess } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const CHILD = join(dirname(fileURLToPath(import.meta.url)), 'session-child.mjs');

/** A running session-child.mjs: its stdout lines so far, and its exit. */
export interface SessionChild {
  process: ChildProcess;
  /** Resolves once the child has printed `n` lines. */
  waitForLines(n: number): Promise<void>;
  /** Exit code, signal, stdout lines and stderr. */
  done: Promise<{ code: number | null; signal: NodeJS.Signals | null; lines: string[]; stderr: string }>;
}

/** Starts `node session-child.mjs <args...>`. */
export function startSessionChild(...args: string[]): SessionChild {
  const child = spawn(process.execPath, [CHILD, ...args], { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, OPENAI_AGENTS_DISABLE_TRACING: '1' } });
  const lines: string[] = [];
  let partial = '';
  let stderr = '';
  const waiters: { n: number; resolve: () => void }[] = [];
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    const parts = (partial + chunk).split('\n');
    partial = parts.pop() ?? '';
    lines.push(...parts);
    for (const w of waiters.filter((x) => lines.length >= x.n)) {
      waiters.splice(waiters.indexOf(w), 1);
      w.resolve();
    }
  });
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const done = new Promise<{ code: number | null; signal: NodeJS.Signals | null; lines: string[]; stderr: string }>((resolve) =>
    child.on('close', (code, signal) => resolve({ code, signal, lines, stderr })),
  );
  return {
    process: child,
    waitForLines: (n) => (lines.length >= n ? Promise.resolve() : new Promise((resolve) => waiters.push({ n, resolve }))),
    done,
  };
}

/** Runs a child to its end and fails with its stderr unless it exits 0. */
export async function runSessionChild(...args: string[]): Promise<string[]> {
  const result = await startSessionChild(...args).done;
  if (result.code !== 0) throw new Error(`session-child ${args.join(' ')} exited ${String(result.code ?? result.signal)}: ${result.stderr}`);
  return result.lines;
}
