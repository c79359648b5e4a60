/** Access to the Python reference's fixtures (fixtures/python-v1 at the repository root). */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export const FIXTURES_DIR = fileURLToPath(new URL('../../../../fixtures/python-v1/', import.meta.url));

export const PY_EXPORTS = ['py-export-all.json', 'py-export-app-a.json', 'py-export-app_b.v2.json'] as const;

export function fixtureText(name: string): string {
  return readFileSync(FIXTURES_DIR + name, 'utf8');
}

export interface TranscriptCase {
  name: string;
  argv: string[];
  exit_code: number;
  stdout: string;
  stdin_or_payload_file_content: Array<{ path: string; content: string | null; bytes: number; recipe?: string }> | null;
}

export function transcript(): TranscriptCase[] {
  return JSON.parse(fixtureText('cli-transcript.json')) as TranscriptCase[];
}

/** The content of the input file of a transcript case, by case name. */
export function transcriptInput(name: string): string {
  const c = transcript().find((t) => t.name === name);
  const content = c?.stdin_or_payload_file_content?.[0]?.content;
  if (typeof content !== 'string') throw new Error(`no inline input for ${name}`);
  return content;
}

/** The JSON stdout of a transcript case. */
export function transcriptOutput(name: string): { ok: boolean; result?: unknown; error?: string } {
  const c = transcript().find((t) => t.name === name);
  if (!c) throw new Error(`no case ${name}`);
  return JSON.parse(c.stdout) as { ok: boolean; result?: unknown; error?: string };
}
