import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { n, type BenchContext, type Sample } from '../context.js';
import { median } from '../harness.js';

const require = createRequire(import.meta.url);

function timeCall(args: string[]): number {
  const start = process.hrtime.bigint();
  execFileSync(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  return Number(process.hrtime.bigint() - start) / 1e6;
}

/**
 * Wall time of one CLI call (a new Node process each time), beside the floor of starting Node
 * itself (`node -e ""`), so the report separates our start-up cost from Node's.
 */
export async function cliCalls(ctx: BenchContext): Promise<Sample[]> {
  const bin = join(dirname(require.resolve('@session-checkpoint/cli/package.json')), 'bin', 'run.js');
  const dir = ctx.dir();
  const store = join(dir, 's.sqlite');
  const payload = join(dir, 'p.json');
  writeFileSync(payload, JSON.stringify({ messages: ['hello'], n: 1 }));
  execFileSync(process.execPath, [bin, 'init', '--store', store]);
  const calls = n(ctx, 20, 5);
  const create: number[] = [];
  const get: number[] = [];
  const node: number[] = [];
  for (let i = 0; i < calls; i++) {
    create.push(timeCall([bin, 'create', '--store', store, '--session-id', 's', '--payload-file', payload]));
    get.push(timeCall([bin, 'get', '--store', store, '--id', '1']));
    node.push(timeCall(['-e', '']));
  }
  return [
    { scenario: 'CLI call (median ms)', impl: 'create', unit: 'ms', value: median(create) },
    { scenario: 'CLI call (median ms)', impl: 'get', unit: 'ms', value: median(get) },
    { scenario: 'CLI call (median ms)', impl: 'node -e ""', unit: 'ms', value: median(node) },
  ];
}
