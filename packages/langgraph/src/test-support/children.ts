import { spawn, type ChildProcess } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const CHILD = join(dirname(fileURLToPath(import.meta.url)), 'saver-child.mjs');

/** A running saver-child.mjs: how many puts it has reported, and its exit. */
export interface SaverChild {
  process: ChildProcess;
  /** Puts the child has reported as done. */
  puts(): number;
  /** Resolves once the child has reported `n` puts. */
  waitForPuts(n: number): Promise<void>;
  /** Exit code, signal and stderr. */
  done: Promise<{ code: number | null; signal: NodeJS.Signals | null; stderr: string }>;
}

/** Starts `node saver-child.mjs <target> <thread> <count|forever>`. */
export function startSaverChild(target: string, thread: string, count: number | 'forever' | 'delete', env: Record<string, string> = {}): SaverChild {
  const child = spawn(process.execPath, [CHILD, target, thread, String(count)], { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...env } });
  let puts = 0;
  let stderr = '';
  const waiters: { n: number; resolve: () => void }[] = [];
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    puts += chunk.split('\n').filter((line) => line.startsWith('put ')).length;
    for (const w of waiters.filter((x) => puts >= x.n)) {
      waiters.splice(waiters.indexOf(w), 1);
      w.resolve();
    }
  });
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const done = new Promise<{ code: number | null; signal: NodeJS.Signals | null; stderr: string }>((resolve) =>
    child.on('close', (code, signal) => resolve({ code, signal, stderr })),
  );
  return {
    process: child,
    puts: () => puts,
    waitForPuts: (n) => (puts >= n ? Promise.resolve() : new Promise((resolve) => waiters.push({ n, resolve }))),
    done,
  };
}
