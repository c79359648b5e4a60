/** A ratio the report computes from two implementations of one scenario, with the target. */
export interface RatioSpec {
  label: string;
  scenario: string;
  numerator: string;
  denominator: string;
  /** For latencies (µs, ms) lower is better: the ratio is denominator/numerator-free, read as "at most". */
  direction: 'at least' | 'at most';
  target?: number;
}

import { SAVER_RATIOS } from './saver-targets.js';
import { EVERY_READ_HASHED } from './scenarios/sqlite-reads.js';
import { SESSION_RATIOS } from './session-targets.js';
import { WALK_RATIOS } from './scenarios/history-walk.js';
import { SEALED_RATIOS } from './scenarios/sealed-cost.js';
import { SEALED_SAVER_RATIOS } from './scenarios/sealed-saver.js';

const durabilities = ['full', 'normal'] as const;

/** Every ratio in the report; those with a `target` are the bars. */
export const RATIOS: RatioSpec[] = [
  ...durabilities.flatMap((d) =>
    (['1KiB', '900KiB'] as const).flatMap((size): RatioSpec[] => [
      { label: `create ${size} (${d}) vs raw floor`, scenario: `create ${size} (${d})`, numerator: 'session-checkpoint', denominator: 'raw floor', direction: 'at least', target: 0.8 },
      { label: `create ${size} (${d}) vs SqliteSaver.put`, scenario: `create ${size} (${d})`, numerator: 'session-checkpoint', denominator: 'SqliteSaver.put', direction: 'at least', target: 1.0 },
    ]),
  ),
  { label: 'get by id vs SqliteSaver.getTuple', scenario: 'get by id 1KiB', numerator: 'session-checkpoint', denominator: 'SqliteSaver.getTuple', direction: 'at least', target: 1.5 },
  { label: 'get by id vs raw floor', scenario: 'get by id 1KiB', numerator: 'session-checkpoint', denominator: 'raw floor', direction: 'at least' },
  { label: 'latest vs SqliteSaver.getTuple', scenario: 'latest of a session', numerator: 'session-checkpoint', denominator: 'SqliteSaver.getTuple', direction: 'at least' },
  { label: 'latest vs raw floor', scenario: 'latest of a session', numerator: 'session-checkpoint', denominator: 'raw floor', direction: 'at least' },
  { label: 'list 100 vs SqliteSaver.list', scenario: 'list 100', numerator: 'session-checkpoint', denominator: 'SqliteSaver.list', direction: 'at least' },
  { label: 'list 100 vs raw floor', scenario: 'list 100', numerator: 'session-checkpoint', denominator: 'raw floor', direction: 'at least' },
  // The reads above re-read 1,200 rows, so the verified-text memo answers most of them; the same
  // reads with every row hashed, for comparison (no target).
  { label: 'get by id, every read hashed, vs SqliteSaver.getTuple', scenario: 'get by id 1KiB', numerator: EVERY_READ_HASHED, denominator: 'SqliteSaver.getTuple', direction: 'at least' },
  { label: 'get by id, every read hashed, vs raw floor', scenario: 'get by id 1KiB', numerator: EVERY_READ_HASHED, denominator: 'raw floor', direction: 'at least' },
  { label: 'latest, every read hashed, vs raw floor', scenario: 'latest of a session', numerator: EVERY_READ_HASHED, denominator: 'raw floor', direction: 'at least' },
  { label: 'list 100, every read hashed, vs raw floor', scenario: 'list 100', numerator: EVERY_READ_HASHED, denominator: 'raw floor', direction: 'at least' },
  { label: 'list 1000 vs SqliteSaver.list', scenario: 'list 1000', numerator: 'session-checkpoint', denominator: 'SqliteSaver.list', direction: 'at least' },
  { label: 'list 1000 vs raw floor', scenario: 'list 1000', numerator: 'session-checkpoint', denominator: 'raw floor', direction: 'at least' },
  { label: 'history 20 vs SqliteSaver.list(20)', scenario: 'history 20', numerator: 'session-checkpoint', denominator: 'SqliteSaver.list', direction: 'at least' },
  { label: 'memory put vs MemorySaver.put', scenario: 'memory put 1KiB', numerator: 'session-checkpoint', denominator: 'MemorySaver.put', direction: 'at least' },
  { label: 'memory latest vs MemorySaver.getTuple', scenario: 'memory get latest', numerator: 'session-checkpoint', denominator: 'MemorySaver.getTuple', direction: 'at least' },
  { label: 'canonicalize+hash (value) vs JSON.stringify+sha256', scenario: 'canonicalize+hash 1MB', numerator: 'canonicalize (value)', denominator: 'JSON.stringify+sha256', direction: 'at least', target: 0.5 },
  { label: 'canonicalizeJson+hash (text) vs JSON.stringify+sha256', scenario: 'canonicalize+hash 1MB', numerator: 'canonicalizeJson (text)', denominator: 'JSON.stringify+sha256', direction: 'at least', target: 0.6 },
  { label: 'canonicalizeJson+hash (canonical text) vs JSON.stringify+sha256', scenario: 'canonicalize+hash 1MB', numerator: 'canonicalizeJson (canonical text)', denominator: 'JSON.stringify+sha256', direction: 'at least' },
  { label: 'read check vs sha256+JSON.parse', scenario: 'canonicalize+hash 1MB', numerator: 'read check (verify)', denominator: 'sha256+JSON.parse', direction: 'at least' },
  ...[1, 8].flatMap((c): RatioSpec[] => [
    { label: `PostgreSQL create, ${c} client(s), vs raw pg`, scenario: `PostgreSQL create 1KiB, ${c} client(s)`, numerator: 'session-checkpoint', denominator: 'raw floor (pg)', direction: 'at least' },
    { label: `PostgreSQL get, ${c} client(s), vs raw pg`, scenario: `PostgreSQL get 1KiB, ${c} client(s)`, numerator: 'session-checkpoint', denominator: 'raw floor (pg)', direction: 'at least' },
  ]),
  ...['get by id', 'latest of a session', 'list first page (20)'].map((what): RatioSpec => ({
    label: `growth: ${what}, 1M rows vs 1k rows (latency)`,
    scenario: `growth: ${what}`,
    numerator: '1M',
    denominator: '1k',
    direction: 'at most',
    target: 2.0,
  })),
  ...SAVER_RATIOS,
  ...SESSION_RATIOS,
  ...WALK_RATIOS,
  ...SEALED_RATIOS,
  ...SEALED_SAVER_RATIOS,
  // CLI start-up: wall time of one call against a bare Node start, lower is better (issue 11).
  ...['get', 'list', 'create', 'floor script (get)', 'floor part: require better-sqlite3', 'floor part: node:crypto hash'].map((impl): RatioSpec => ({
    label: `CLI ${impl} vs node -e ""`,
    scenario: 'CLI call (median ms)',
    numerator: impl,
    denominator: 'node -e ""',
    direction: 'at most',
    ...(impl.startsWith('floor') ? {} : { target: 1.3 }),
  })),
  // Issue 18: `get` against the floor script, and what an installed plugin costs it.
  { label: 'CLI get vs floor script (get)', scenario: 'CLI call (median ms)', numerator: 'get', denominator: 'floor script (get)', direction: 'at most', target: 1.3 },
  { label: 'CLI get with the example plugin linked vs get', scenario: 'CLI call (median ms)', numerator: 'get (example plugin linked)', denominator: 'get', direction: 'at most', target: 1.15 },
  // The Python CLI is not always installed; its floor (the same get in Python's standard library) bounds it from below.
  { label: 'CLI get vs python floor script (get)', scenario: 'CLI call (median ms)', numerator: 'get', denominator: 'python floor script (get)', direction: 'at most', target: 1.0 },
  { label: 'CLI get vs the Python CLI (get)', scenario: 'CLI call (median ms)', numerator: 'get', denominator: 'python CLI (get)', direction: 'at most', target: 1.0 },
  { label: 'CLI get with a hook plugin (oclif path) vs get', scenario: 'CLI call (median ms)', numerator: 'get (plugin with a hook: oclif path)', denominator: 'get', direction: 'at most' },
];
