import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/** The built entry of `@session-checkpoint/core/hash` (tests run after the build). */
const distUrl = new URL('../dist/', import.meta.url);
const hashUrl = new URL('hash.js', distUrl);

/**
 * Runs in a fresh Node process: a module hook (on the loader thread) reports every URL it loads
 * through a MessagePort; a final round trip on the same port guarantees all reports have arrived.
 */
const CHILD = `
import { register } from 'node:module';
import { MessageChannel } from 'node:worker_threads';
const hooks = \`
let port;
export async function initialize(data) {
  port = data.port;
  port.on('message', () => port.postMessage({ done: true }));
}
export async function load(url, context, nextLoad) {
  port.postMessage({ url });
  return nextLoad(url, context);
}\`;
const { port1, port2 } = new MessageChannel();
const urls = [];
const done = new Promise((resolve) => port1.on('message', (m) => (m.done ? resolve() : urls.push(m.url))));
register('data:text/javascript,' + encodeURIComponent(hooks), { data: { port: port2 }, transferList: [port2] });
const mod = await import(process.argv[1]);
const result = { sha: mod.sha256Hex('{}'), canonical: mod.canonicalize({ b: 1, a: 2 }) };
port1.postMessage('flush');
await done;
port1.close();
process.stdout.write(JSON.stringify({ urls, ...result }));
`;

describe('@session-checkpoint/core/hash subpath', () => {
  it('loads only the canonical, sha256, errors and limits modules (and the integer rule limits use)', () => {
    expect(existsSync(hashUrl), `build core first: ${fileURLToPath(hashUrl)} is missing`).toBe(true);
    const out = execFileSync(process.execPath, ['--input-type=module', '-e', CHILD, hashUrl.href], { encoding: 'utf8' });
    const { urls, sha, canonical } = JSON.parse(out) as { urls: string[]; sha: string; canonical: string };

    expect(sha).toBe('44136fa355b3678a1146ad16f7e8649e94fb4fc21fe77e8310c060f61caaff8a');
    expect(canonical).toBe('{"a":2,"b":1}');

    const files = urls.filter((url) => url.startsWith('file:'));
    expect(files).toContain(hashUrl.href);
    const relative = files.map((url) => {
      expect(url.startsWith(distUrl.href), url).toBe(true);
      return url.slice(distUrl.href.length);
    });
    const allowed = /^(canonical\/[\w-]+\.js|python\/float-repr\.js|sha256(-portable)?\.js|errors\.js|limits\.js|validation\/integers\.js|hash\.js)$/;
    for (const file of relative) expect(file, `unexpected module loaded by the hash subpath: ${file}`).toMatch(allowed);
    expect(relative.some((file) => /^(store|port|memory|thread)\/|index\.js$/.test(file))).toBe(false);
    // Only built-in modules besides our files.
    expect(urls.filter((url) => !url.startsWith('file:') && !url.startsWith('node:'))).toEqual([]);
  });
});
