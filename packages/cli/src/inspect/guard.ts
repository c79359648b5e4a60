import { timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

/*
 * Who may talk to the inspector: the browser of the person who ran the command, and nobody else on
 * the machine or on the web. Every request must first be well formed (400 otherwise): exactly one
 * Host header (RFC 9112, section 3.2: a server must refuse a request with two) and a target that is a
 * path, not an absolute URL such as `http://evil.example/` (which a proxy-style client sends with a
 * Host header of ours, so the Host check alone would pass it). Then three checks:
 * - the Host header names this server (127.0.0.1:PORT or localhost:PORT): a DNS-rebinding page,
 *   whose requests carry its own host name, gets 403;
 * - the request carries the run's random token: in the URL's `token` query (first load), in the
 *   cookie set then (HttpOnly, SameSite=Strict, so another site's page cannot send it), or in the
 *   `X-Session-Checkpoint-Token` header (scripts);
 * - only GET (and HEAD) exist: nothing a form on another site could post.
 */

/** The header a script may send the token in. */
export const TOKEN_HEADER = 'x-session-checkpoint-token';

/** The cookie name: per port, so two inspectors on the same machine do not overwrite each other's. */
export function tokenCookieName(port: number): string {
  return `sc_inspect_${port}`;
}

/** The outcome of {@link checkRequest}. */
export type GuardVerdict =
  | { ok: true; /** The token came in the URL: set the cookie (and drop it from the URL). */ fromQuery: boolean }
  | { ok: false; status: 400 | 403 | 405; reason: string };

function sameToken(given: string, token: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(token);
  return a.length === b.length && timingSafeEqual(a, b);
}

function cookieValue(header: string | undefined, name: string): string | undefined {
  for (const part of (header ?? '').split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}

/**
 * Checks one request against the run's port and token.
 *
 * @example
 * ```ts
 * const verdict = checkRequest(request, { port: 41234, token });
 * if (!verdict.ok) { response.writeHead(verdict.status).end(verdict.reason); }
 * ```
 */
export function checkRequest(request: IncomingMessage, expected: { port: number; token: string }): GuardVerdict {
  // Node keeps only the first of repeated Host headers in `headers`; the raw list has them all.
  let hosts = 0;
  for (let i = 0; i < request.rawHeaders.length; i += 2) if (request.rawHeaders[i]!.toLowerCase() === 'host') hosts++;
  if (hosts !== 1) return { ok: false, status: 400, reason: 'bad request: a request needs exactly one Host header' };
  if (!(request.url ?? '').startsWith('/')) return { ok: false, status: 400, reason: 'bad request: the request target must be a path on this server, not an absolute URL' };
  const host = request.headers.host;
  if (host !== `127.0.0.1:${expected.port}` && host !== `localhost:${expected.port}`) {
    return { ok: false, status: 403, reason: 'forbidden: the Host header must be 127.0.0.1:PORT or localhost:PORT' };
  }
  if (request.method !== 'GET' && request.method !== 'HEAD') return { ok: false, status: 405, reason: 'only GET requests exist here' };
  const url = new URL(request.url ?? '/', `http://${host}`);
  const query = url.searchParams.get('token');
  if (query !== null && sameToken(query, expected.token)) return { ok: true, fromQuery: true };
  const header = request.headers[TOKEN_HEADER];
  if (typeof header === 'string' && sameToken(header, expected.token)) return { ok: true, fromQuery: false };
  const cookie = cookieValue(request.headers.cookie, tokenCookieName(expected.port));
  if (cookie !== undefined && sameToken(cookie, expected.token)) return { ok: true, fromQuery: false };
  return { ok: false, status: 403, reason: 'forbidden: open the URL that session-checkpoint inspect printed (it carries the token)' };
}

/** The Set-Cookie value that carries the token for the rest of the visit. */
export function tokenCookie(port: number, token: string): string {
  return `${tokenCookieName(port)}=${token}; Path=/; HttpOnly; SameSite=Strict`;
}

/**
 * Headers on every response: a Content-Security-Policy that lets the page load and fetch only from
 * this server (no network anywhere else, no inline script), no framing, no sniffing, no referrer,
 * no caching of state. No CORS header is ever sent, so other origins cannot read a response.
 */
export const SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'Content-Security-Policy':
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; font-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
  'X-Content-Type-Options': 'nosniff',
  'X-Frame-Options': 'DENY',
  'Referrer-Policy': 'no-referrer',
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Resource-Policy': 'same-origin',
  'Cache-Control': 'no-store',
};
