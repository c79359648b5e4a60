import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, extname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/*
 * The page's files: built from src/inspect/browser/ by scripts/bundle.mjs into dist/inspect-ui/
 * (preact, htm and uPlot bundled in), shipped in the tarball, read once when the server starts.
 * Nothing is loaded from a CDN.
 */

/** The folder scripts/bundle.mjs writes the page into, under dist/. */
export const ASSETS_FOLDER = 'inspect-ui';

/** One file of the page. */
export interface Asset {
  readonly type: string;
  readonly body: Buffer;
}

const TYPES: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
};

/**
 * dist/inspect-ui, found from this module's file: it runs from dist/inspect/ (tsc output) or from
 * a chunk of dist/bundle/ or dist/fast/, all below dist/.
 */
function assetsDir(): string {
  const here = dirname(fileURLToPath(import.meta.url));
  for (let dir = here, depth = 0; depth < 5; dir = dirname(dir), depth++) {
    for (const candidate of [join(dir, ASSETS_FOLDER), join(dir, 'dist', ASSETS_FOLDER)]) {
      if (existsSync(join(candidate, 'index.html'))) return candidate;
    }
  }
  throw new Error(`the inspector's page is missing (${ASSETS_FOLDER}/index.html next to the CLI's dist): rebuild the package (npm run bundle)`);
}

/**
 * Every file of the page by its URL path (`/`, `/assets/app.js`, ...).
 *
 * @example
 * ```ts
 * const assets = loadAssets(); assets.get('/')!.type; // 'text/html; charset=utf-8'
 * ```
 */
export function loadAssets(): Map<string, Asset> {
  const dir = assetsDir();
  const assets = new Map<string, Asset>();
  for (const name of readdirSync(dir)) {
    const type = TYPES[extname(name)];
    if (type === undefined) continue;
    const asset = { type, body: readFileSync(join(dir, name)) };
    assets.set(name === 'index.html' ? '/' : `/assets/${name}`, asset);
  }
  return assets;
}
