import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** One measured number of one implementation in one run. */
export interface Sample {
  scenario: string;
  impl: string;
  unit: 'ops/s' | 'ms' | 'MB/s' | 'µs/op' | 'KiB' | 'pages/op' | 'turns/s' | 'commits/turn' | 'KiB/turn';
  /** The number; NaN when `failure` says why there is none. */
  value: number;
  /** Why this implementation produced no number in this run (it died, or returned a wrong result). */
  failure?: string;
}

/** Settings shared by every scenario. */
export interface BenchContext {
  /** Scale factor for iteration counts: 1 for the report, smaller for a smoke run. */
  scale: number;
  /** PostgreSQL URL, or undefined to leave PostgreSQL scenarios out. */
  pgUrl: string | undefined;
  /** Largest growth size to build (rows). */
  growthMax: number;
  /** A fresh temporary directory, removed by `cleanup`. */
  dir(): string;
  cleanup(): void;
}

export function createContext(options: { scale: number; pgUrl: string | undefined; growthMax: number }): BenchContext {
  const made: string[] = [];
  return {
    ...options,
    dir() {
      const dir = mkdtempSync(join(tmpdir(), 'sc-bench-'));
      made.push(dir);
      return dir;
    },
    cleanup() {
      for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** At least `min` iterations, scaled. */
export const n = (ctx: BenchContext, count: number, min = 5) => Math.max(min, Math.round(count * ctx.scale));
