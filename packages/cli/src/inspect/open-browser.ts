import { spawn } from 'node:child_process';

/**
 * Asks the system to open `url` in the default browser (`open` on macOS, `start` on Windows,
 * `xdg-open` elsewhere), detached and silent. Never throws and never waits: without a browser
 * (a server, a container) the printed URL is what the user opens.
 *
 * @example
 * ```ts
 * openBrowser('http://127.0.0.1:41234/?token=...');
 * ```
 */
export function openBrowser(url: string): void {
  const [command, args] =
    process.platform === 'darwin' ? ['open', [url]] : process.platform === 'win32' ? ['cmd', ['/c', 'start', '""', url.replace(/&/g, '^&')]] : ['xdg-open', [url]];
  try {
    const child = spawn(command, args as string[], { detached: true, stdio: 'ignore', windowsHide: true });
    child.on('error', () => undefined);
    child.unref();
  } catch {
    // No opener: the URL is printed anyway.
  }
}
