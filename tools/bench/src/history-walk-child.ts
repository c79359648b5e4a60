/**
 * Child process of the history-walk scenario (scenarios/history-walk.ts): opens one saver on a
 * chat thread built by the parent, walks `graph.getStateHistory` to the end under the heap limit
 * the parent started it with, and prints one JSON line: time to the first snapshot, total time,
 * snapshots seen, messages in the first (latest) one, and the peak V8 heap in use. The heap is
 * sampled after every snapshot and by a 2 ms timer in between; a walk that runs out of heap kills
 * this process, which the parent records as the contender's failure.
 *
 *   node --max-old-space-size=512 tools/bench/dist/history-walk-child.js '{"backend":"SQLite","which":"ours","path":"/tmp/x.sqlite"}'
 */
import { getHeapStatistics } from 'node:v8';
import type { BaseMessage } from '@langchain/core/messages';
import { chatGraph } from './chat-graph.js';
import { postgresStorage, sqliteStorage } from './saver-backends.js';

/** Where the thread lives and which saver reads it. */
export interface WalkSpec {
  backend: 'SQLite' | 'PostgreSQL';
  which: 'ours' | 'peer';
  /** SQLite file. */
  path?: string;
  /** PostgreSQL URL and schema. */
  url?: string;
  schema?: string;
}

/** What the child prints. */
export interface WalkResult {
  firstMs: number;
  totalMs: number;
  snapshots: number;
  latestMessages: number;
  peakHeapBytes: number;
}

const spec = JSON.parse(process.argv[2] ?? '{}') as WalkSpec;
const storage = spec.backend === 'SQLite' ? sqliteStorage(spec.path ?? '', spec.which) : postgresStorage(spec.url ?? '', spec.schema ?? '', spec.which);
const { saver, close } = await storage.open();
let peak = 0;
const sample = () => {
  const used = getHeapStatistics().used_heap_size;
  if (used > peak) peak = used;
};
const timer = setInterval(sample, 2);
try {
  const graph = chatGraph(saver, 'plain');
  const start = process.hrtime.bigint();
  let firstMs = NaN;
  let snapshots = 0;
  let latestMessages = 0;
  for await (const snapshot of graph.getStateHistory({ configurable: { thread_id: 'chat' } })) {
    sample();
    if (snapshots === 0) {
      firstMs = Number(process.hrtime.bigint() - start) / 1e6;
      latestMessages = ((snapshot.values as { messages?: BaseMessage[] }).messages ?? []).length;
    }
    snapshots++;
  }
  const totalMs = Number(process.hrtime.bigint() - start) / 1e6;
  sample();
  process.stdout.write(`${JSON.stringify({ firstMs, totalMs, snapshots, latestMessages, peakHeapBytes: peak } satisfies WalkResult)}\n`);
} finally {
  clearInterval(timer);
  await close();
}
