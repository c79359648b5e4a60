import { spawn, type ChildProcess } from 'node:child_process';
import { request } from 'node:http';
import { connect } from 'node:net';
import { CLI_BIN, cliEnv } from './run-cli.js';

/** A running `session-checkpoint inspect` child process. */
export interface InspectChild {
  url: string;
  port: number;
  token: string;
  /** Sends the signal and resolves with the exit code and what was printed. */
  stop(signal?: NodeJS.Signals): Promise<{ code: number | null; stdout: string; stderr: string }>;
}

/**
 * Starts the real binary's `inspect` with `args` and waits for its one JSON document (the URL).
 *
 * @example
 * ```ts
 * const inspector = await startInspect(['--store', file, '--no-open'], dir);
 * const opened = await startInspect(['--store', file], dir, { PATH: `${fakeOpener}:${process.env.PATH}` });
 * ```
 */
export async function startInspect(args: readonly string[], cwd: string, env: Record<string, string | undefined> = {}): Promise<InspectChild> {
  const child: ChildProcess = spawn(process.execPath, [CLI_BIN, 'inspect', ...args], { cwd, env: cliEnv(env), stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const url = await new Promise<string>((resolve, reject) => {
    const look = () => {
      try {
        const document = JSON.parse(stdout) as { ok: boolean; result?: { url: string } };
        if (document.ok && document.result) return resolve(document.result.url);
        return reject(new Error(`inspect failed: ${stdout}`));
      } catch {
        // not a whole document yet
      }
    };
    child.stdout!.on('data', look);
    void exited.then((code) => reject(new Error(`inspect exited with ${code} before printing its URL: ${stdout} ${stderr}`)));
  });
  const parsed = new URL(url);
  return {
    url,
    port: Number(parsed.port),
    token: parsed.searchParams.get('token')!,
    stop: async (signal = 'SIGTERM') => {
      child.kill(signal);
      const code = await exited;
      return { code, stdout, stderr };
    },
  };
}

/** A raw GET (any Host header, any method), for the server's checks that a browser would not let a page break. */
export function rawRequest(port: number, path: string, headers: Record<string, string>, method = 'GET'): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, method, headers }, (response) => {
      let body = '';
      response.on('data', (chunk: Buffer) => (body += chunk.toString()));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

/**
 * Sends a request as raw text on a socket (request line and header lines, joined with CRLF), for
 * requests that Node's HTTP client would not send: an absolute-URL target, two Host headers.
 * Resolves with the response's status code and whole text.
 */
export function rawHttp(port: number, lines: readonly string[]): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host: '127.0.0.1', port }, () => socket.end(`${lines.join('\r\n')}\r\nConnection: close\r\n\r\n`));
    let text = '';
    socket.on('data', (chunk: Buffer) => (text += chunk.toString()));
    socket.on('error', reject);
    socket.on('close', () => resolve({ status: Number(/^HTTP\/1\.1 (\d{3})/.exec(text)?.[1] ?? 0), text }));
  });
}
