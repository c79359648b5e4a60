import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The Python reference's golden files (read-only: tests copy what they open). */
export const FIXTURES = resolve(dirname(fileURLToPath(import.meta.url)), '../../../../fixtures/python-v1');

/** A fresh temporary directory; `remove()` deletes it. */
export function tempDir(prefix = 'sc-store-'): { path: string; file(name: string): string; remove(): void } {
  const path = mkdtempSync(join(tmpdir(), prefix));
  return { path, file: (name) => join(path, name), remove: () => rmSync(path, { recursive: true, force: true }) };
}

/** Copies a fixture into `dir` and returns the copy's path. */
export function copyFixture(name: string, dir: string): string {
  const target = join(dir, name);
  cpSync(join(FIXTURES, name), target);
  return target;
}
