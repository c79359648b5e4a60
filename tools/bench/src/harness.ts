/**
 * Timing primitives. Absolute numbers on a shared 2-core VM are noise; what the report uses are
 * ratios between implementations measured back to back in the same run, and medians over runs.
 */

/** Ops per second of `op`, called `count` times after `warmup` untimed calls. */
export async function opsPerSecond(op: (i: number) => unknown, count: number, warmup = Math.min(50, count)): Promise<number> {
  for (let i = 0; i < warmup; i++) await op(-1 - i);
  const start = process.hrtime.bigint();
  for (let i = 0; i < count; i++) await op(i);
  const seconds = Number(process.hrtime.bigint() - start) / 1e9;
  return count / seconds;
}

/** Milliseconds of one call of `fn` (after one untimed call when `warm`). */
export async function millis(fn: () => unknown, warm = true): Promise<number> {
  if (warm) await fn();
  const start = process.hrtime.bigint();
  await fn();
  return Number(process.hrtime.bigint() - start) / 1e6;
}

/** Median of a list of numbers. */
export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/** Samples of one metric over several runs, summarised. */
export interface Summary {
  median: number;
  min: number;
  max: number;
  samples: number[];
}

/** Summarises samples. */
export function summarize(samples: readonly number[]): Summary {
  return { median: median(samples), min: Math.min(...samples), max: Math.max(...samples), samples: [...samples] };
}
