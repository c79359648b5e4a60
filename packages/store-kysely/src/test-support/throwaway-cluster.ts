import { execFileSync } from 'node:child_process';
import { chmodSync, chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';

/*
 * A PostgreSQL cluster of a test's own, for what must not be done to the shared server: restart
 * it. Made with the server's own initdb and pg_ctl in a temporary folder, on a free port of
 * 127.0.0.1 (trust authentication, no fsync: it holds nothing worth keeping), removed by `remove`.
 * initdb refuses to run as root: as root, the commands run as the `postgres` user (runuser),
 * which owns the folder.
 */

/** A running throwaway cluster. */
export interface ThrowawayCluster {
  /** Connection string of its `postgres` database. */
  url: string;
  /** Restarts the server (fast shutdown: sessions are terminated) and waits until it accepts connections. */
  restart(): void;
  /** Stops the server and removes its folder. */
  remove(): void;
}

/** The folder of the newest PostgreSQL server binaries installed, or undefined. */
function serverBin(): string | undefined {
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return undefined;
  const versions = readdirSync(root)
    .filter((v) => existsSync(join(root, v, 'bin', 'initdb')) && existsSync(join(root, v, 'bin', 'pg_ctl')))
    .sort((a, b) => Number(b) - Number(a));
  return versions.length > 0 ? join(root, versions[0]!, 'bin') : undefined;
}

/** Why no throwaway cluster can be made here, or undefined when one can. */
export function throwawayClusterUnavailable(): string | undefined {
  const bin = serverBin();
  if (bin === undefined) return 'no PostgreSQL server binaries (initdb, pg_ctl) under /usr/lib/postgresql';
  if (userInfo().uid !== 0) return undefined;
  try {
    execFileSync('runuser', ['-u', 'postgres', '--', 'true'], { stdio: 'ignore' });
    return undefined;
  } catch {
    return 'running as root, and no way to run initdb as the postgres user (runuser -u postgres failed)';
  }
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** Makes and starts a cluster; throws when {@link throwawayClusterUnavailable} names a reason. */
export async function startThrowawayCluster(): Promise<ThrowawayCluster> {
  const reason = throwawayClusterUnavailable();
  if (reason !== undefined) throw new Error(reason);
  const bin = serverBin()!;
  const dir = mkdtempSync(join(tmpdir(), 'sc-pg-cluster-'));
  const data = join(dir, 'data');
  const asRoot = userInfo().uid === 0;
  if (asRoot) {
    const ids = (what: string) => Number(execFileSync('id', [what, 'postgres'], { encoding: 'utf8' }).trim());
    chownSync(dir, ids('-u'), ids('-g'));
  }
  chmodSync(dir, 0o700);
  const run = (command: string, args: string[]) =>
    asRoot
      ? execFileSync('runuser', ['-u', 'postgres', '--', join(bin, command), ...args], { stdio: 'pipe', cwd: dir })
      : execFileSync(join(bin, command), args, { stdio: 'pipe', cwd: dir });
  const port = await freePort();
  const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c full_page_writes=off -c max_connections=60`;
  const pgCtl = (...args: string[]) => run('pg_ctl', ['-D', data, '-l', join(dir, 'log'), '-o', options, '-w', '-t', '60', ...args]);
  try {
    run('initdb', ['-D', data, '-A', 'trust', '-U', 'postgres', '--no-sync', '-E', 'UTF8']);
    pgCtl('start');
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    restart: () => {
      pgCtl('-m', 'fast', 'restart');
    },
    remove: () => {
      try {
        pgCtl('-m', 'immediate', 'stop');
      } catch {
        // Already stopped: the folder goes anyway.
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
