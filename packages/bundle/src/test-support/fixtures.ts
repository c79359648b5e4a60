/** Transcript lookups the bundle tests share; files come from `@session-checkpoint/fixtures`. */
import { loadTranscript, type TranscriptCase } from '@session-checkpoint/fixtures';

function transcriptCase(name: string): TranscriptCase {
  const c = loadTranscript().find((t) => t.name === name);
  if (!c) throw new Error(`no case ${name}`);
  return c;
}

/** The content of the input file of a transcript case, by case name. */
export function transcriptInput(name: string): string {
  const content = transcriptCase(name).stdin_or_payload_file_content?.[0]?.content;
  if (typeof content !== 'string') throw new Error(`no inline input for ${name}`);
  return content;
}

/** The JSON stdout of a transcript case. */
export function transcriptOutput(name: string): { ok: boolean; result?: unknown; error?: string } {
  return JSON.parse(transcriptCase(name).stdout) as { ok: boolean; result?: unknown; error?: string };
}
