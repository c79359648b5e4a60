import { existsSync, readFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Sample } from './context.js';
import { median, summarize } from './harness.js';
import type { RatioSpec } from './targets.js';

/** A sample with the run it came from, so ratios pair numbers measured back to back. */
export type RunSample = Sample & { run: number };

export interface RatioResult {
  spec: RatioSpec;
  median: number;
  min: number;
  max: number;
  met: boolean | undefined;
  /** Why either side had no number in some runs (see {@link Sample.failure}); such a ratio misses its target. */
  failure?: string;
}

/** The failure of a group of samples, summarised: the first reason and in how many runs. */
function failureOf(failed: readonly RunSample[], runs: number): string | undefined {
  if (failed.length === 0) return undefined;
  const first = failed[0]!.failure ?? 'failed';
  return failed.length === runs ? first : `${first} (in ${failed.length} of ${runs} runs)`;
}

/** Per-run ratios of two implementations, summarised; undefined when either side is missing. */
export function ratio(samples: readonly RunSample[], spec: RatioSpec): RatioResult | undefined {
  const side = (impl: string) => new Map(samples.filter((s) => s.scenario === spec.scenario && s.impl === impl).map((s) => [s.run, s]));
  const num = side(spec.numerator);
  const den = side(spec.denominator);
  const runs = [...num.keys()].filter((run) => den.has(run));
  if (runs.length === 0) return undefined;
  const failed = runs.flatMap((run) => [num.get(run)!, den.get(run)!].filter((s) => s.failure !== undefined).slice(0, 1));
  const failure = failureOf(failed, runs.length);
  const values = runs.filter((run) => num.get(run)!.failure === undefined && den.get(run)!.failure === undefined).map((run) => num.get(run)!.value / den.get(run)!.value);
  const m = values.length === 0 ? NaN : median(values);
  const met = spec.target === undefined ? undefined : failure !== undefined ? false : spec.direction === 'at least' ? m >= spec.target : m <= spec.target;
  return { spec, median: m, min: Math.min(...values), max: Math.max(...values), met, ...(failure === undefined ? {} : { failure }) };
}

/** A dependency's version, found from its entry point (some packages do not export package.json). */
function version(name: string): string {
  try {
    let dir = dirname(fileURLToPath(import.meta.resolve(name)));
    for (;;) {
      const file = join(dir, 'package.json');
      if (existsSync(file)) {
        const pkg = JSON.parse(readFileSync(file, 'utf8')) as { name?: string; version?: string };
        if (pkg.name === name && pkg.version) return pkg.version;
      }
      if (dirname(dir) === dir) return '?';
      dir = dirname(dir);
    }
  } catch {
    return '?';
  }
}

/** A failure's text as a table cell: one line, no column separators. */
const cell = (text: string) => text.replace(/\s+/g, ' ').replaceAll('|', '\\|');

const fmt = (value: number) => (value >= 100 ? Math.round(value).toLocaleString('en-US') : value >= 10 ? value.toFixed(1) : value.toFixed(2));

/** The markdown report: machine, versions, every measurement and every ratio. */
export function renderReport(samples: readonly RunSample[], ratios: readonly RatioResult[], meta: { runs: number; command: string; seconds: number }): string {
  const lines: string[] = [];
  const cpu = cpus()[0]?.model ?? 'unknown CPU';
  lines.push('# Benchmarks', '');
  lines.push(`Produced by \`${meta.command}\` (${meta.runs} runs, ${Math.round(meta.seconds)} s) on ${new Date().toISOString().slice(0, 10)}.`);
  lines.push('Each number is the median over runs, with min-max; ratios are computed per run between implementations measured back to back, then the median is taken. Absolute figures on this shared 2-core VM move between runs; the ratios are what to read.', '');
  lines.push('## Machine and versions', '');
  lines.push(`- ${cpus().length} x ${cpu}, ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.version}, ${process.platform}`);
  lines.push(
    `- better-sqlite3 ${version('better-sqlite3')}, kysely ${version('kysely')}, pg ${version('pg')}, @langchain/langgraph-checkpoint-sqlite ${version('@langchain/langgraph-checkpoint-sqlite')}, @langchain/langgraph-checkpoint ${version('@langchain/langgraph-checkpoint')}`,
    '',
  );
  lines.push('## Targets and ratios', '');
  lines.push('| ratio | median | min-max | target | met |', '|---|---|---|---|---|');
  for (const r of ratios) {
    const target = r.spec.target === undefined ? '' : `${r.spec.direction} ${r.spec.target}`;
    const met = r.met === undefined ? '' : r.met ? 'yes' : '**no**';
    const failed = r.failure === undefined ? '' : `failed: ${cell(r.failure)}`;
    const value = Number.isNaN(r.median) ? `| ${failed} | ` : `| ${r.median.toFixed(2)}${failed && ` (${failed})`} | ${r.min.toFixed(2)}-${r.max.toFixed(2)}`;
    lines.push(`| ${r.spec.label} ${value} | ${target} | ${met} |`);
  }
  lines.push('', '## Measurements', '');
  lines.push('| scenario | implementation | median | min-max | unit |', '|---|---|---|---|---|');
  const keys = [...new Set(samples.map((s) => `${s.scenario}\u0000${s.impl}`))];
  for (const key of keys) {
    const [scenario, impl] = key.split('\u0000') as [string, string];
    const group = samples.filter((s) => s.scenario === scenario && s.impl === impl);
    const ok = group.filter((s) => s.failure === undefined);
    const failure = failureOf(group.filter((s) => s.failure !== undefined), group.length);
    const failed = failure === undefined ? '' : `failed: ${cell(failure)}`;
    if (ok.length === 0) {
      lines.push(`| ${scenario} | ${impl} | ${failed} |  | ${group[0]!.unit} |`);
      continue;
    }
    const sum = summarize(ok.map((s) => s.value));
    lines.push(`| ${scenario} | ${impl} | ${fmt(sum.median)}${failed && ` (${failed})`} | ${fmt(sum.min)}-${fmt(sum.max)} | ${group[0]!.unit} |`);
  }
  lines.push('');
  // Figures measured by their own scripts (each with its command), kept beside the code and appended.
  const figures = new URL('../figures.md', import.meta.url);
  if (existsSync(figures)) lines.push(readFileSync(figures, 'utf8').trimEnd(), '');
  // Why each design was chosen (profiles, what bounds a missed target) is in the decision records.
  lines.push('Why each design was chosen, with the figures that decided it: [decisions/](decisions/README.md).', '');
  return lines.join('\n');
}
