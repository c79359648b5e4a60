import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { loadAssets, type Asset } from './assets.js';
import { checkRequest, SECURITY_HEADERS, tokenCookie } from './guard.js';
import { answerApi } from './routes.js';
import type { InspectSource } from './source.js';

/** Options of {@link startInspectServer}. */
export interface InspectServerOptions {
  /** What the page shows. */
  source: InspectSource;
  /** TCP port on 127.0.0.1. Default is `0`: a random free port. */
  port?: number;
}

/** A running inspector. */
export interface InspectServer {
  /** The URL to open, token included: `http://127.0.0.1:PORT/?token=...`. */
  readonly url: string;
  readonly port: number;
  /** Stops accepting requests and ends open connections. */
  close(): Promise<void>;
}

function send(response: ServerResponse, status: number, type: string, body: string | Buffer, head: boolean, headers: Record<string, string> = {}): void {
  response.writeHead(status, { ...SECURITY_HEADERS, 'Content-Type': type, 'Content-Length': String(Buffer.byteLength(body)), ...headers });
  response.end(head ? undefined : body);
}

async function handle(request: IncomingMessage, response: ServerResponse, port: number, token: string, assets: Map<string, Asset>, source: InspectSource): Promise<void> {
  const verdict = checkRequest(request, { port, token });
  const head = request.method === 'HEAD';
  if (!verdict.ok) {
    send(response, verdict.status, 'text/plain; charset=utf-8', `${verdict.reason}\n`, head, verdict.status === 405 ? { Allow: 'GET, HEAD' } : {});
    return;
  }
  // Parsed as a path of this server only (the guard refused any other target): a request line like
  // `//evil.example/` stays a path here (a 404), never another host.
  const url = new URL(`http://127.0.0.1:${port}${request.url}`);
  const cookie: Record<string, string> = verdict.fromQuery ? { 'Set-Cookie': tokenCookie(port, token) } : {};
  if (verdict.fromQuery && url.pathname === '/') {
    // The token moves into the cookie and out of the address bar (and out of the history).
    url.searchParams.delete('token');
    response.writeHead(303, { ...SECURITY_HEADERS, ...cookie, Location: `/${url.search}`, 'Content-Length': '0' });
    response.end();
    return;
  }
  if (url.pathname.startsWith('/api/')) {
    const answer = await answerApi(url, source);
    send(response, answer.status, answer.type, answer.body, head, { ...answer.headers, ...cookie });
    return;
  }
  const asset = assets.get(url.pathname);
  if (asset === undefined) send(response, 404, 'text/plain; charset=utf-8', 'not found\n', head);
  else send(response, 200, asset.type, asset.body, head, cookie);
}

/**
 * Serves the inspector on 127.0.0.1 (never another interface) with a fresh random token. Every
 * request must carry the token (URL, then cookie) and a Host header naming this server
 * (guard.ts); only GET and HEAD exist.
 *
 * @example
 * ```ts
 * const server = await startInspectServer({ source });
 * console.log(server.url); // http://127.0.0.1:41234/?token=3f...
 * await server.close();
 * ```
 */
export async function startInspectServer(options: InspectServerOptions): Promise<InspectServer> {
  const assets = loadAssets();
  const token = randomBytes(24).toString('base64url');
  let port = 0;
  const server: Server = createServer((request, response) => {
    handle(request, response, port, token, assets, options.source).catch((error: unknown) => {
      if (!response.headersSent) send(response, 500, 'text/plain; charset=utf-8', `${error instanceof Error ? error.message : String(error)}\n`, false);
      else response.destroy();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen({ host: '127.0.0.1', port: options.port ?? 0 }, () => {
      server.off('error', reject);
      resolve();
    });
  });
  port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}/?token=${token}`,
    port,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
