import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pluginRecordPath } from '../plugin-host.js';

/*
 * What the `plugins` commands print about a plugin. @oclif/plugin-plugins keeps its record in the
 * data directory's package.json (`oclif.plugins`: name, type, and root, tag or url); the JSON
 * output is read from there and from each plugin's own package.json, so it says what is on disk
 * after the command, whatever the command printed as text.
 */

/** One plugin as printed by the `plugins` commands. */
export interface PluginJson {
  name: string;
  /** From the plugin's package.json; `null` when it cannot be read (a broken install or link). */
  version: string | null;
  /** `user` (installed), `link` (linked) or `core` (shipped with the CLI, `plugins --core`). */
  type: string;
  /** The folder the plugin is loaded from. */
  root: string;
}

/** An entry of the record, as @oclif/plugin-plugins writes it. */
export interface RecordEntry {
  name: string;
  type: string;
  root?: string;
  tag?: string;
  url?: string;
}

/**
 * The entries of the plugin record in `dataDir` (`[]` when there is none or it cannot be parsed;
 * `userPluginRoots` has already refused a record that is not a regular file).
 *
 * @example
 * ```ts
 * readRecord(dataDir()); // [{ name: 'session-checkpoint-plugin-hello', type: 'link', root: '/src/hello' }]
 * ```
 */
export function readRecord(dataDir: string): RecordEntry[] {
  try {
    const plugins = (JSON.parse(readFileSync(pluginRecordPath(dataDir), 'utf8')) as { oclif?: { plugins?: unknown[] } }).oclif?.plugins ?? [];
    return plugins
      .map((entry) => (typeof entry === 'string' ? { name: entry, type: 'user' } : (entry as RecordEntry)))
      .filter((entry) => typeof entry?.name === 'string' && typeof entry.type === 'string');
  } catch {
    return [];
  }
}

function versionAt(root: string): string | null {
  try {
    const { version } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version?: unknown };
    return typeof version === 'string' ? version : null;
  } catch {
    return null;
  }
}

/**
 * A record entry as printed: installed plugins live in the data directory's `node_modules`,
 * linked ones in their own folder.
 *
 * @example
 * ```ts
 * describeEntry('/data', { name: 'p', type: 'user' }); // { name: 'p', version: '0.1.0', type: 'user', root: '/data/node_modules/p' }
 * ```
 */
export function describeEntry(dataDir: string, entry: RecordEntry): PluginJson {
  const root = entry.type === 'link' && typeof entry.root === 'string' ? entry.root : join(dataDir, 'node_modules', entry.name);
  return { name: entry.name, version: versionAt(root), type: entry.type, root };
}

/** A plugin oclif has loaded (its Config#getPluginsList entries), as printed. */
export function describeLoaded(plugin: { name: string; version?: string; type: string; root: string }): PluginJson {
  return { name: plugin.name, version: plugin.version ?? null, type: plugin.type, root: plugin.root };
}
