import { CHAT_RATIOS } from './chat-targets.js';
import { OURS_EVERY_READ_HASHED } from './scenarios/langgraph-saver.js';
import type { RatioSpec } from './targets.js';

const vs = (scenario: string, target: number | undefined, peer = 'SqliteSaver'): RatioSpec => ({
  label: `${scenario}: SessionCheckpointSaver vs ${peer}`,
  scenario,
  numerator: 'SessionCheckpointSaver',
  denominator: peer,
  direction: 'at least',
  ...(target === undefined ? {} : { target }),
});

/**
 * The LangGraph saver's bars (every row still verified): put and putWrites at least 0.8x
 * SqliteSaver within the Python v1 table layout and at least 1x PostgresSaver (issue 39, measured in
 * interleaved rounds: docs/decisions/0023), also per CPU second of this process; getTuple at least
 * 0.8x, list(100) at least 1.5x (issue 16). Then the chat scenario's (chat-targets.ts).
 */
export const SAVER_RATIOS: RatioSpec[] = [
  ...['put (1 of 3 channels changed)', 'putWrites (2 writes)'].flatMap((op) => [vs(`saver ${op}`, 0.8), vs(`saver ${op}, per CPU second`, undefined)]),
  vs('saver getTuple latest', 0.8),
  vs('saver getTuple by id', 0.8),
  vs('saver list(100)', 1.5),
  // The reads above re-read the same rows, so the store's verified-text memo answers most of them;
  // the same reads with every row hashed, for comparison (no target).
  ...['getTuple latest', 'getTuple by id', 'list(100)'].map((op): RatioSpec => ({
    label: `saver ${op}: ${OURS_EVERY_READ_HASHED} vs SqliteSaver`,
    scenario: `saver ${op}`,
    numerator: OURS_EVERY_READ_HASHED,
    denominator: 'SqliteSaver',
    direction: 'at least',
  })),
  {
    label: 'bytes after 200 growing steps: SessionCheckpointSaver / SqliteSaver',
    scenario: 'saver bytes after 200 growing steps',
    numerator: 'SessionCheckpointSaver',
    denominator: 'SqliteSaver',
    direction: 'at most',
  },
  // What bounds put and putWrites on SQLite (no target): the pages each writes to the WAL.
  ...['put', 'putWrites'].map(
    (op): RatioSpec => ({
      label: `WAL pages per ${op}: SessionCheckpointSaver / SqliteSaver`,
      scenario: `saver WAL pages per ${op}`,
      numerator: 'SessionCheckpointSaver',
      denominator: 'SqliteSaver',
      direction: 'at most',
    }),
  ),
  ...['put (1 of 3 channels changed)', 'putWrites (2 writes)'].flatMap((op) => [
    vs(`PostgreSQL saver ${op}`, 1, 'PostgresSaver'),
    vs(`PostgreSQL saver ${op}, per CPU second`, undefined, 'PostgresSaver'),
  ]),
  ...['getTuple latest', 'getTuple by id', 'list(100)'].map((op) => vs(`PostgreSQL saver ${op}`, 1.4, 'PostgresSaver')),
  ...CHAT_RATIOS,
];
