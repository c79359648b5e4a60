import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import type { MastraDBMessage } from '@mastra/core/memory';
import { CheckpointMemoryStorage } from './index.js';
import { MessageList } from '@mastra/core/agent/message-list';
import { copyJson } from './rows/parsed-values.js';
import { messageOut } from './read-message.js';
import type { StoredMessage } from './rows/types.js';
import { backends, RUNTIME_OK } from './test-support/backends.js';

/*
 * Generated differential tests of a page's kept values (rows/parsed-values.ts, decision 0051):
 * where the adapter reads several ranges at once (SQLite, PostgreSQL) a page's messages read
 * before are copies of values kept by payload SHA-256, not parses, and built by
 * `readMessage`. Random threads (random content: text, metadata with nested objects, arrays
 * and a `__proto__` key; types v2 and v1; updates that change a message in its place, under its
 * ref, and add keys of their own), each page read several times, and every answer changed in
 * depth by the caller after it is compared (`toStrictEqual`) with the memory adapter's (no such
 * member: every row parsed) and each message with `messageOut` of its stored value (the plain
 * conversion). Handing out the kept value itself, keeping values by ref instead of SHA-256, or
 * dropping `readMessage`'s key check each fail it (checked).
 */

const TEXT = fc.string({ maxLength: 12 });
const JSON_VALUE = fc.jsonValue({ maxDepth: 2 });
const CONTENT = fc.record({
  text: TEXT,
  parts: fc.integer({ min: 0, max: 3 }),
  metadata: fc.option(fc.dictionary(fc.constantFrom('a', 'b', '__proto__', 'nested', '1'), JSON_VALUE, { maxKeys: 3 }), { nil: undefined }),
});
const caseArb = fc.record({
  saves: fc.array(fc.record({ at: fc.integer({ min: 0, max: 11 }), v1: fc.boolean(), content: CONTENT }), { minLength: 1, maxLength: 12 }),
  steps: fc.array(
    fc.oneof(
      fc.record({ op: fc.constant('read' as const), perPage: fc.integer({ min: 1, max: 5 }), page: fc.integer({ min: 0, max: 2 }), desc: fc.boolean(), times: fc.integer({ min: 2, max: 4 }) }),
      fc.record({ op: fc.constant('update' as const), at: fc.integer({ min: 0, max: 11 }), content: CONTENT, extra: fc.option(fc.constantFrom('note', 'tag', 'zeta'), { nil: undefined }) }),
    ),
    { minLength: 1, maxLength: 14 },
  ),
});

type Content = { text: string; parts: number; metadata: Record<string, unknown> | undefined };

/** Mastra's v2 content of a generated message, with `__proto__` kept an own key as JSON.parse keeps it. */
function contentOf(c: Content): Record<string, unknown> {
  const parts = Array.from({ length: c.parts + 1 }, (_, k) => ({ type: 'text', text: `${c.text} ${k}` }));
  const out: Record<string, unknown> = { format: 2, parts };
  if (c.metadata !== undefined) out.metadata = copyJson(JSON.parse(JSON.stringify(c.metadata)));
  return out;
}

/** Changes an answer in depth, as a caller (MessageList, an agent) may. */
function scribble(messages: MastraDBMessage[]): void {
  for (const m of messages) {
    const content = m.content as unknown as { parts: { text?: string }[]; metadata?: Record<string, unknown> };
    content.parts.push({ text: 'added by the caller' });
    for (const part of content.parts) part.text = `${part.text ?? ''} changed`;
    content.metadata = { ...(content.metadata ?? {}), scribbled: true };
    (m as unknown as Record<string, unknown>).role = 'scribbled';
  }
}

const all = backends();
const plain = all.find((b) => b.name === 'memory');
const members = all.filter((b) => b.name !== 'memory');
afterAll(async () => {
  for (const b of all) await b.cleanup();
});

describe.each(members)('kept page values on $name', (backend) => {
  it.skipIf(!RUNTIME_OK || !backend.available)('answer as every row parsed, for random messages, updates and repeated reads changed by the caller', async () => {
    let keptReads = 0;
    let updatedReads = 0;
    await fc.assert(
      fc.asyncProperty(caseArb, async ({ saves, steps }) => {
        const store = await backend.open(backend.target());
        const reference = await (plain as NonNullable<typeof plain>).open(undefined);
        try {
          const domains = [new CheckpointMemoryStorage(store), new CheckpointMemoryStorage(reference)] as const;
          expect(typeof store.adapter.listBySourceRefRanges).toBe('function');
          expect(reference.adapter.listBySourceRefRanges).toBeUndefined();
          const now = new Date(Date.UTC(2026, 0, 1));
          for (const d of domains) await d.saveThread({ thread: { id: 't', resourceId: 'r', title: 't', createdAt: now, updatedAt: now } });
          const saved = new Set<number>();
          for (const s of saves) {
            const message = { id: `m${s.at}`, threadId: 't', resourceId: 'r', role: 'user' as const, type: s.v1 ? 'v1' : 'v2', createdAt: new Date(now.getTime() + s.at * 1000), content: contentOf(s.content) };
            for (const d of domains) await d.saveMessages({ messages: [structuredClone(message) as unknown as MastraDBMessage] });
            saved.add(s.at);
          }
          const reads = new Map<string, number>();
          let updated = false;
          for (const step of steps) {
            if (step.op === 'update') {
              if (!saved.has(step.at)) continue;
              // Same thread and time: the new version takes the old one's ref, with a new SHA-256.
              const update = { id: `m${step.at}`, content: contentOf(step.content), ...(step.extra === undefined ? {} : { [step.extra]: `${step.extra} ${step.at}` }) };
              for (const d of domains) await d.updateMessages({ messages: [structuredClone(update) as never] });
              updated = true;
              continue;
            }
            const args = { threadId: 't', perPage: step.perPage, page: step.page, orderBy: { field: 'createdAt' as const, direction: step.desc ? ('DESC' as const) : ('ASC' as const) } };
            for (let k = 0; k < step.times; k++) {
              const [ours, theirs] = [await domains[0].listMessages(args), await domains[1].listMessages(args)];
              expect(ours, JSON.stringify(args)).toStrictEqual(theirs);
              // And each message as the plain conversion gives it from the stored value (every read
              // builds its messages by readMessage, the memory adapter's too).
              const stored = new Map((await reference.listBySourceRefPrefix({ namespace: 'mastra', prefix: 'm/', limit: 100 })).map((row) => [(row.payload as unknown as { value: StoredMessage }).value.id, (row.payload as unknown as { value: StoredMessage }).value]));
              for (const m of ours.messages) {
                const plain = new MessageList().add([messageOut(stored.get(m.id) as StoredMessage)], 'memory').get.all.db()[0];
                expect(m, m.id).toStrictEqual(plain);
                // Key order too (JSON.stringify shows it): readMessage's literal and messageOut agree.
                expect(Object.keys(m), m.id).toEqual(Object.keys(plain ?? {}));
              }
              for (const m of ours.messages) expect(Object.getPrototypeOf(m.content), m.id).toBe(Object.prototype);
              const key = JSON.stringify(args);
              const n = (reads.get(key) ?? 0) + 1;
              reads.set(key, n);
              if (n > 2 && ours.messages.length > 0) keptReads++;
              if (n > 2 && updated && ours.messages.length > 0) updatedReads++;
              scribble(ours.messages);
              scribble(theirs.messages);
            }
          }
        } finally {
          await store.close();
          await reference.close();
        }
      }),
      { numRuns: Number(process.env.SC_SOAK === '1' ? (process.env.SC_SOAK_RUNS ?? 200) : 25), seed: Number(process.env.SC_ORACLE_SEED ?? 510) },
    );
    // Pages read a third time (their values kept), some of them after an update.
    expect(keptReads).toBeGreaterThan(10);
    expect(updatedReads).toBeGreaterThan(3);
  });
});

describe('copyJson', () => {
  it('copies a JSON value as JSON.parse builds it, sharing nothing', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        const text = JSON.stringify(value);
        const parsed = JSON.parse(text) as unknown;
        const copy = copyJson(parsed);
        expect(JSON.stringify(copy)).toBe(text);
        expect(copy).toStrictEqual(JSON.parse(text));
        const walk = (a: unknown, b: unknown): void => {
          if (typeof a !== 'object' || a === null) return;
          expect(a).not.toBe(b);
          expect(Object.getPrototypeOf(a)).toBe(Object.getPrototypeOf(b));
          for (const key of Object.keys(a)) walk((a as Record<string, unknown>)[key], (b as Record<string, unknown>)[key]);
        };
        walk(copy, parsed);
      }),
      { numRuns: 300, seed: 510 },
    );
    const proto = JSON.parse('{"__proto__":{"x":1},"a":[{"__proto__":[1]}]}') as Record<string, unknown>;
    const copy = copyJson(proto) as Record<string, unknown>;
    expect(Object.getPrototypeOf(copy)).toBe(Object.prototype);
    expect(Object.keys(copy)).toEqual(['__proto__', 'a']);
    expect(JSON.stringify(copy)).toBe(JSON.stringify(proto));
  });
});
