import { canonicalPayloadFromJson, canonicalPayloadFromValue, checkStoredPayload } from '@session-checkpoint/core';
import { createHash } from 'node:crypto';
import { n, type BenchContext, type Sample } from '../context.js';
import { agentState } from '../payloads.js';

function mbPerSecond(bytes: number, count: number, fn: () => unknown): number {
  for (let i = 0; i < 3; i++) fn();
  const start = process.hrtime.bigint();
  for (let i = 0; i < count; i++) fn();
  const seconds = Number(process.hrtime.bigint() - start) / 1e9;
  return (bytes * count) / seconds / 1e6;
}

/**
 * Canonicalise + hash throughput against the floor's JSON.stringify + sha256, on a ~1 MB agent
 * state: from a JavaScript value, from JSON text (the lexeme-keeping path), and the read-side check.
 */
export async function canonicalHash(ctx: BenchContext): Promise<Sample[]> {
  const value = agentState(1_000_000, 1);
  const text = JSON.stringify(value);
  const bytes = Buffer.byteLength(text);
  const count = n(ctx, 40, 3);
  const canonical = canonicalPayloadFromValue(value).json;
  const sha = canonicalPayloadFromValue(value).sha256;
  const scenario = 'canonicalize+hash 1MB';
  return [
    { scenario, impl: 'canonicalize (value)', unit: 'MB/s', value: mbPerSecond(bytes, count, () => canonicalPayloadFromValue(value, { maxPayloadBytes: 1 << 30 })) },
    { scenario, impl: 'canonicalizeJson (text)', unit: 'MB/s', value: mbPerSecond(bytes, count, () => canonicalPayloadFromJson(text, { maxPayloadBytes: 1 << 30 })) },
    // Already canonical text (a stored payload re-submitted, sorted compact JSON): the writer's verbatim path.
    { scenario, impl: 'canonicalizeJson (canonical text)', unit: 'MB/s', value: mbPerSecond(bytes, count, () => canonicalPayloadFromJson(canonical, { maxPayloadBytes: 1 << 30 })) },
    { scenario, impl: 'read check (verify)', unit: 'MB/s', value: mbPerSecond(bytes, count, () => checkStoredPayload(canonical, sha)) },
    { scenario, impl: 'JSON.stringify+sha256', unit: 'MB/s', value: mbPerSecond(bytes, count, () => createHash('sha256').update(JSON.stringify(value)).digest('hex')) },
    { scenario, impl: 'sha256+JSON.parse', unit: 'MB/s', value: mbPerSecond(bytes, count, () => (createHash('sha256').update(text).digest('hex'), JSON.parse(text))) },
  ];
}
