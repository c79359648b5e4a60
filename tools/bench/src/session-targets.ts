import type { RatioSpec } from './targets.js';

/** The OpenAI Agents session's bars (issue 17): getItems(20) flat in history length, within 2x the plain table. */
export const SESSION_RATIOS: RatioSpec[] = [
  {
    label: 'agents getItems(20): CheckpointSession at 1,000 vs 10 items (latency)',
    scenario: 'agents getItems(20) latency: CheckpointSession',
    numerator: '1,000 items',
    denominator: '10 items',
    direction: 'at most',
    target: 1.5,
  },
  {
    // At 10 items getItems(20) returns 10; at 100 and 1,000 it returns 20: this pair isolates history length.
    label: 'agents getItems(20): CheckpointSession at 1,000 vs 100 items (latency, same 20 items returned)',
    scenario: 'agents getItems(20) latency: CheckpointSession',
    numerator: '1,000 items',
    denominator: '100 items',
    direction: 'at most',
    target: 1.5,
  },
  {
    label: 'agents getItems(20): plain SQLite table at 1,000 vs 10 items (latency)',
    scenario: 'agents getItems(20) latency: plain SQLite table',
    numerator: '1,000 items',
    denominator: '10 items',
    direction: 'at most',
  },
  ...['10', '1,000'].map((size): RatioSpec => ({
    label: `agents getItems(20) at ${size} items: CheckpointSession vs plain SQLite table`,
    scenario: `agents getItems(20) at ${size} items`,
    numerator: 'CheckpointSession',
    denominator: 'plain SQLite table',
    direction: 'at least',
    target: 0.5,
  })),
  {
    label: 'agents addItems (one turn): CheckpointSession vs plain SQLite table',
    scenario: 'agents addItems (one turn, 3 items)',
    numerator: 'CheckpointSession',
    denominator: 'plain SQLite table',
    direction: 'at least',
  },
  {
    label: 'agents getItems(20) at 1,000 items: CheckpointSession vs MemorySession',
    scenario: 'agents getItems(20) at 1,000 items',
    numerator: 'CheckpointSession',
    denominator: 'MemorySession',
    direction: 'at least',
  },
];
