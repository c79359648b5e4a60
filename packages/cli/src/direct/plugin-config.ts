import { readFileSync } from 'node:fs';
import { homedir, tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import type { Config } from '@oclif/core';
import { dataDir } from '../plugin-host.js';

/*
 * `this.config` of a plugin command started by the plugin runner (run-plugin-direct.ts), which
 * does not load oclif. It has the members of oclif's `Config` that describe the CLI and where it
 * keeps its files, computed as oclif computes them; `runCommand` loads oclif's real `Config` when
 * called. Any other member throws an error that says how to get oclif's `Config` (docs/plugins.md),
 * rather than reading as `undefined`.
 */

/** The members the stand-in has; anything else throws. */
export const PLUGIN_CONFIG_MEMBERS = [
  'arch', 'bin', 'cacheDir', 'configDir', 'dataDir', 'debug', 'dirname', 'home', 'name', 'pjson', 'platform', 'root',
  'runCommand', 'runHook', 'scopedEnvVar', 'scopedEnvVarKey', 'scopedEnvVarKeys', 'scopedEnvVarTrue', 'shell',
  'topicSeparator', 'userAgent', 'valid', 'version', 'windows',
] as const;

type PackageJson = { name: string; version: string; oclif: { bin?: string; dirname?: string; topicSeparator?: ':' | ' ' } };

/** oclif's scoped environment variable names: `SESSION_CHECKPOINT_<KEY>`. */
const scopedKey = (bin: string, key: string) => [bin, key].map((part) => part.replaceAll('@', '').replaceAll(/[/-]/gu, '_')).join('_').toUpperCase();

/**
 * The stand-in for oclif's `Config` given to a plugin command that starts without oclif.
 *
 * @param root The CLI package's root folder (its package.json).
 * @example
 * ```ts
 * const config = pluginConfig(packageRoot(import.meta.url)!);
 * config.dataDir; // ~/.local/share/session-checkpoint
 * ```
 */
export function pluginConfig(root: string): Config {
  const pjson = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as PackageJson;
  const bin = pjson.oclif.bin ?? pjson.name;
  const dirname = pjson.oclif.dirname ?? pjson.name;
  const home = process.env.HOME || homedir() || tmpdir();
  const scopedEnvVar = (key: string): string | undefined => process.env[scopedKey(bin, key)] || undefined;
  const dir = (category: 'cache' | 'config') => join(process.env[`XDG_${category.toUpperCase()}_HOME`] || join(home, `.${category}`), dirname);
  const platform = process.platform;
  let full: Promise<Config> | undefined;
  const members: Record<(typeof PLUGIN_CONFIG_MEMBERS)[number], unknown> = {
    arch: process.arch,
    bin,
    cacheDir: scopedEnvVar('CACHE_DIR') || (platform === 'darwin' ? join(home, 'Library', 'Caches', dirname) : dir('cache')),
    configDir: scopedEnvVar('CONFIG_DIR') || dir('config'),
    dataDir: dataDir(),
    debug: 0,
    dirname,
    home,
    name: pjson.name,
    pjson,
    platform,
    root,
    // Another command: that needs oclif's command table, so load oclif's Config once.
    runCommand: async (id: string, argv: string[] = []) => {
      full ??= import('@oclif/core').then(({ Config: OclifConfig }) => OclifConfig.load(root));
      return (await full).runCommand(id, argv);
    },
    // The runner starts a command only when no plugin declares a hook, and the CLI's own hooks
    // (prerun: the command-class check) are met by every class it starts: nothing to run.
    runHook: async () => ({ successes: [], failures: [] }),
    scopedEnvVar,
    scopedEnvVarKey: (key: string) => scopedKey(bin, key),
    scopedEnvVarKeys: (key: string) => [scopedKey(bin, key)],
    scopedEnvVarTrue: (key: string) => ['1', 'true'].includes(scopedEnvVar(key) ?? ''),
    shell: (process.env.SHELL ?? safeShell())?.split('/').at(-1) || 'unknown',
    topicSeparator: pjson.oclif.topicSeparator ?? ':',
    userAgent: `${pjson.name}/${pjson.version} ${platform}-${process.arch} node-${process.version}`,
    valid: true,
    version: pjson.version,
    windows: platform === 'win32',
  };
  return new Proxy(members, {
    get(target, key) {
      if (typeof key === 'symbol' || Object.hasOwn(target, key)) return (target as Record<string | symbol, unknown>)[key];
      // `await config` and JSON.stringify look these up; they are not oclif members.
      if (key === 'then' || key === 'toJSON') return undefined;
      throw new Error(`this.config.${key} is not available to a plugin command started without oclif; it has ${PLUGIN_CONFIG_MEMBERS.join(', ')}. For oclif's whole Config, declare \`static fastStart = false\` on the command (docs/plugins.md)`);
    },
  }) as unknown as Config;
}

/** The login shell from the user database, or `undefined` where there is none. */
function safeShell(): string | undefined {
  try {
    return userInfo().shell ?? undefined;
  } catch {
    return undefined;
  }
}
