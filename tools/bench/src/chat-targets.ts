import { chatAnchor, chatScenario, DELTA_CHAT_TURNS, memoryReference, OURS, OURS_DELTA } from './scenarios/chat.js';
import type { RatioSpec } from './targets.js';

/** Turn counts of the chat ratios (the issue's, and the DeltaChannel-only comparison's); other counts given with --turns get no rows. */
const TURNS = [DELTA_CHAT_TURNS, 60, 300];

/**
 * The chat scenario's bars (issue 16, item 5), per backend and turn count; every ratio is a
 * latency or a size, so lower is better. Our saver with the unchanged graph against the anchor
 * (the DeltaChannel rewrite on LangGraph's saver): bytes and total time at most 1.2x; its last 10
 * turns at most 1.5x its first 10 at 60 turns; the DeltaChannel graph on ours at least as fast as
 * on LangGraph's saver (total time and a `getState`, which replays the channel's writes through
 * `getDeltaChannelHistory`). LangGraph's saver with the unchanged graph stands beside them, unjudged.
 */
export const CHAT_RATIOS: RatioSpec[] = (['SQLite', 'PostgreSQL'] as const).flatMap((backend) => {
  const peer = backend === 'SQLite' ? 'SqliteSaver' : 'PostgresSaver';
  const anchor = chatAnchor(peer);
  return TURNS.flatMap((turns): RatioSpec[] => {
    const prefix = chatScenario(turns, backend);
    const vsAnchor = (what: string, impl: string, target?: number): RatioSpec => ({
      label: `${prefix}: ${what}, ${impl} / ${anchor}`,
      scenario: `${prefix}: ${what}`,
      numerator: impl,
      denominator: anchor,
      direction: 'at most',
      ...(target === undefined ? {} : { target }),
    });
    const lastVsFirst = (impl: string, target?: number): RatioSpec => ({
      label: `${prefix}: last 10 / first 10 turns, ${impl}`,
      scenario: `${prefix}, ${impl}: time of 10 turns`,
      numerator: 'last 10',
      denominator: 'first 10',
      direction: 'at most',
      ...(target === undefined ? {} : { target }),
    });
    return [
      vsAnchor('bytes on disk', OURS, 1.2),
      vsAnchor('total time', OURS, 1.2),
      lastVsFirst(OURS, turns === 60 ? 1.5 : undefined),
      vsAnchor('total time', OURS_DELTA, 1),
      vsAnchor('getState after reopening', OURS_DELTA, 1),
      vsAnchor('bytes on disk', OURS_DELTA),
      vsAnchor('bytes on disk', peer),
      vsAnchor('total time', peer),
      lastVsFirst(anchor),
      lastVsFirst(peer),
      // LangGraph's own growth, with nothing stored: the floor under every saver's last/first ratio.
      lastVsFirst(memoryReference('plain')),
      lastVsFirst(memoryReference('delta')),
    ];
  });
});
