import type { UIMessage } from 'ai';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { createChatStore } from './index.js';
import { backends, RUNTIME_OK } from './test-support/backends.js';

/*
 * The chat store against the simplest model of it: random sequences of saves (appends, the same
 * list again, edits and regenerations in the middle, truncations, lists from another writer, and
 * messages changed in place after they were saved, which a store that trusted identity would miss)
 * on memory, SQLite and PostgreSQL. After every save, loadChat is the list just saved, and chatAt
 * of every earlier save is the list saved then: nothing saved is lost, nothing is mixed up.
 */

type Step = { kind: 'append'; n: number } | { kind: 'same' } | { kind: 'edit'; at: number; text: string } | { kind: 'truncate'; to: number } | { kind: 'mutate'; at: number; text: string } | { kind: 'regenerate'; text: string };

const stepArb: fc.Arbitrary<Step> = fc.oneof(
  { arbitrary: fc.record({ kind: fc.constant('append' as const), n: fc.integer({ min: 1, max: 3 }) }), weight: 4 },
  fc.record({ kind: fc.constant('same' as const) }),
  fc.record({ kind: fc.constant('edit' as const), at: fc.nat(), text: fc.string({ maxLength: 6 }) }),
  fc.record({ kind: fc.constant('truncate' as const), to: fc.nat() }),
  fc.record({ kind: fc.constant('mutate' as const), at: fc.nat(), text: fc.string({ maxLength: 6 }) }),
  fc.record({ kind: fc.constant('regenerate' as const), text: fc.string({ maxLength: 6 }) }),
);

const list = backends();
afterAll(async () => {
  for (const b of list) await b.cleanup();
});

describe.skipIf(!RUNTIME_OK).each(list)('the chat store against its model on $name', (backend) => {
  it.skipIf(!backend.available)('loads what was saved last, and every earlier save as it was', async () => {
    const store = await backend.open(backend.target());
    let chat = 0;
    try {
      await fc.assert(
        fc.asyncProperty(fc.array(stepArb, { minLength: 1, maxLength: 12 }), async (steps) => {
          const chats = createChatStore(store);
          const chatId = `model-${chat++}`;
          let next = 0;
          const message = (text: string): UIMessage => ({ id: `m${next++}`, role: next % 2 ? 'user' : 'assistant', parts: [{ type: 'text', text }] });
          let current: UIMessage[] = [];
          const saved: string[] = [];
          for (const step of steps) {
            if (step.kind === 'append') current = [...current, ...Array.from({ length: step.n }, () => message('hello'))];
            if (step.kind === 'edit' && current.length > 0) {
              const at = step.at % current.length;
              current = [...current.slice(0, at), { ...(current[at] as UIMessage), parts: [{ type: 'text', text: step.text }] }, message('again')];
            }
            if (step.kind === 'truncate') current = current.slice(0, step.to % (current.length + 1));
            if (step.kind === 'regenerate' && current.length > 0) current = [...current.slice(0, -1), message(step.text)];
            // In place: the same objects, changed after they were saved; the next save must see it.
            if (step.kind === 'mutate' && current.length > 0) (current[step.at % current.length] as UIMessage).parts = [{ type: 'text', text: `changed ${step.text}` }];
            const result = await chats.saveChat({ chatId, messages: current });
            const text = JSON.stringify(current);
            if (result.written) saved.push(text);
            else expect(text).toBe(saved.at(-1) ?? '[]');
            expect(JSON.stringify(await chats.loadChat(chatId))).toBe(text);
          }
          for (const [k, text] of saved.entries()) expect(JSON.stringify(await chats.chatAt(chatId, k + 1))).toBe(text);
        }),
        { numRuns: Number(process.env.SC_SOAK === '1' ? (process.env.SC_SOAK_RUNS ?? 300) : 30), seed: Number(process.env.SC_ORACLE_SEED ?? 38) },
      );
    } finally {
      await store.close();
    }
  });
});
