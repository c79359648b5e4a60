import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fixturePath } from '@session-checkpoint/fixtures';

/** A fresh temporary directory; `remove()` deletes it. */
export function tempDir(prefix = 'sc-store-'): { path: string; file(name: string): string; remove(): void } {
  const path = mkdtempSync(join(tmpdir(), prefix));
  return { path, file: (name) => join(path, name), remove: () => rmSync(path, { recursive: true, force: true }) };
}

/** Copies a fixture into `dir` and returns the copy's path (fixtures are read-only: tests open copies). */
export function copyFixture(name: string, dir: string): string {
  const target = join(dir, name);
  cpSync(fixturePath(name), target);
  return target;
}
