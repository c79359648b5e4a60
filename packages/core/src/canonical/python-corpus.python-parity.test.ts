/**
 * The whole committed CPython corpus through every JSON entry point of core, in one table: the 67
 * error vectors and 400 mutations of lossless/test-support/python-json-cases.json and the 94 + 6
 * golden vectors of fixtures/python-v1. CPython's outcome of each input (parse error, canonical
 * text, dumps or encode failure) is in test-support/python-corpus.json, written by
 * tools/python-oracle/make_corpus.py; the recorded expectations of the sources are checked against
 * it first, so the oracle cannot drift from the fixtures.
 */
import { readFileSync } from 'node:fs';
import { CANONICAL_VECTOR_FILES, readFixtureJson, type CanonicalVector } from '@session-checkpoint/fixtures';
import { describe, expect, it } from 'vitest';
import { sha256Hex } from '../sha256.js';
import { disagreements, isDeliberate, type PythonOutcome } from './test-support/python-outcome.js';

type Vector = CanonicalVector;

interface Entry {
  source: string;
  group?: 'errors' | 'mutations';
  index?: number;
  name?: string;
  outcome: PythonOutcome;
}

const read = (url: URL) => JSON.parse(readFileSync(url, 'utf8')) as unknown;
const cases = read(new URL('../lossless/test-support/python-json-cases.json', import.meta.url)) as Record<'errors' | 'mutations', Array<[string, string | null]>>;
const vectors = new Map<string, Vector[]>(
  CANONICAL_VECTOR_FILES.map((file) => [file, readFixtureJson<Vector[]>(file)]),
);
const corpus = read(new URL('./test-support/python-corpus.json', import.meta.url)) as { entries: Entry[] };

/** The input of an entry and what its source recorded about it (parse message, canonical text). */
function resolve(entry: Entry): { label: string; input: string; recorded: (outcome: PythonOutcome) => boolean } {
  if (entry.group !== undefined) {
    const [input, message] = cases[entry.group][entry.index as number] as [string, string | null];
    // The cases file records json.loads only: its message, or null when it parsed.
    return { label: `${entry.group}[${entry.index}] ${JSON.stringify(input).slice(0, 60)}`, input, recorded: (o) => (o.stage === 'parse' ? o.message : null) === message };
  }
  const vector = (vectors.get(entry.source) as Vector[]).find((v) => v.name === entry.name) as Vector;
  const t = vector.input_template;
  const input = vector.input_json ?? (t ? t.prefix + t.repeat.repeat(t.count) + t.suffix : '');
  const recorded = (o: PythonOutcome) => {
    if (vector.error === 'JSONDecodeError') return o.stage === 'parse' && o.message === vector.error_message;
    if (vector.error === null) return o.stage === undefined && (o.sha256 ?? sha256Hex(o.canonical ?? '')) === vector.sha256;
    // Over the size cap: Python's json.dumps succeeded, the reference refused the size.
    if (vector.error_message?.startsWith('payload exceeds')) return o.stage === undefined;
    if (vector.error_message === 'payload must be a JSON object') return o.type !== 'dict';
    return o.stage !== undefined && o.stage !== 'parse';
  };
  return { label: `${entry.source} ${entry.name}`, input, recorded };
}

const rows = corpus.entries.map((entry) => ({ entry, ...resolve(entry) }));

describe('the CPython corpus through every entry point', () => {
  it('covers every input of the sources', () => {
    expect(rows.filter((r) => r.entry.source === 'python-json-cases.json')).toHaveLength(cases.errors.length + cases.mutations.length);
    expect(cases.errors).toHaveLength(67);
    expect(cases.mutations).toHaveLength(400);
    for (const [file, list] of vectors) expect(rows.filter((r) => r.entry.source === file).map((r) => r.entry.name)).toEqual(list.map((v) => v.name));
  });

  it('the oracle agrees with what the sources recorded', () => {
    expect(rows.filter((r) => !r.recorded(r.entry.outcome)).map((r) => r.label)).toEqual([]);
  });

  it('only the known deliberate differences are left out (checked in vectors.python-parity.test.ts)', () => {
    expect(rows.filter((r) => isDeliberate(r.entry.outcome)).map((r) => r.entry.name)).toEqual(['int_4301_digits', 'deep_nesting_1000', 'deep_nesting_100000']);
  });

  it.each(rows.filter((r) => !isDeliberate(r.entry.outcome)).map((r) => [r.label, r] as const))('%s', (_, row) => {
    expect(disagreements(row.input, row.entry.outcome)).toEqual([]);
  });
});
