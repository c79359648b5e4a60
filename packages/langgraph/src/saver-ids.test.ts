import { MemorySaver, type BaseCheckpointSaver, type Checkpoint } from '@langchain/langgraph-checkpoint';
import { CheckpointValidationError } from '@session-checkpoint/core';
import { afterAll, describe, expect, it } from 'vitest';
import { SessionCheckpointSaver } from './index.js';
import { backends } from './test-support/backends.js';
import { cfg, checkpointWith, meta } from './test-support/checkpoints.js';

/*
 * Checkpoint ids order like MemorySaver orders them (JavaScript string order): the latest, `list`
 * of one (thread, namespace), `list` of a thread and `list` of every thread agree with it, and
 * `before` cuts at the same place, whatever characters the ids hold. Ids whose source ref could
 * not keep that order are refused. Threads, namespaces and ids starting with U+10FFFF are found.
 */

const list = backends();
afterAll(async () => {
  for (const b of list) await b.cleanup();
});

/** Ids that the 0.1.0 encoding sorted wrongly (escapes, hashes) and their neighbours. */
const IDS = [
  'a',
  'a}',
  'a~',
  'a~~',
  'a%',
  'a%7E',
  'a/',
  'a-',
  'a.',
  'a0',
  'a$',
  'a\u{10FFFF}',
  'a\u{10FFFE}',
  'a\u{1F600}',
  'a\uFFFD',
  'a\uE000',
  'a\uD7FF',
  'a\u00e9',
  `${'x'.repeat(99)}1`,
  `${'x'.repeat(99)}2`,
  `${'x'.repeat(98)}~`,
  `${'x'.repeat(65)}`,
  '\u{10FFFF}',
];

function withId(id: string): Checkpoint {
  return { ...checkpointWith({ v: id }), id };
}

/** Puts every id (in a shuffled order, each without a parent) into `saver`, on one thread and ns. */
async function putAll(saver: BaseCheckpointSaver, ids: readonly string[], thread = 't', ns = ''): Promise<void> {
  const shuffled = [...ids].sort((a, b) => (a.length * 7 + (a.codePointAt(a.length - 1) ?? 0)) % 11 - (b.length * 7 + (b.codePointAt(b.length - 1) ?? 0)) % 11);
  for (const id of shuffled) {
    const cp = withId(id);
    await saver.put(cfg(thread, undefined, ns), cp, meta(0), cp.channel_versions);
  }
}

async function ids(saver: BaseCheckpointSaver, configurable: Record<string, string>, before?: string): Promise<string[]> {
  const out: string[] = [];
  const options = before === undefined ? {} : { before: { configurable: { checkpoint_id: before } } };
  for await (const t of saver.list({ configurable }, options)) out.push(t.checkpoint.id);
  return out;
}

describe.each(list)('checkpoint id order on $name', (backend) => {
  it.skipIf(!backend.available)('latest, list and before agree with MemorySaver for ids with escapes, odd code points and long ids', async () => {
    const store = await backend.open();
    try {
      const saver = new SessionCheckpointSaver(store);
      const memory = new MemorySaver();
      await putAll(saver, IDS);
      await putAll(memory, IDS);
      const expected = await ids(memory, { thread_id: 't', checkpoint_ns: '' });
      // JavaScript string order: U+E000-U+FFFF sort above astral code points, U+10FFFF the highest of those.
      expect(expected.filter((id) => id.startsWith('a') && id.length <= 3).slice(0, 4)).toEqual(['a\uFFFD', 'a\uE000', 'a\u{10FFFF}', 'a\u{10FFFE}']);
      expect(await ids(saver, { thread_id: 't', checkpoint_ns: '' })).toEqual(expected);
      expect(await ids(saver, { thread_id: 't' })).toEqual(expected);
      expect(await ids(saver, {})).toEqual(expected);
      expect((await saver.getTuple(cfg('t')))?.checkpoint.id).toBe((await memory.getTuple(cfg('t')))?.checkpoint.id);
      for (const id of IDS) {
        expect((await saver.getTuple(cfg('t', id)))?.checkpoint.id, id).toBe(id);
        expect(await ids(saver, { thread_id: 't', checkpoint_ns: '' }, id), `before ${id}`).toEqual(await ids(memory, { thread_id: 't', checkpoint_ns: '' }, id));
      }
    } finally {
      await store.close();
    }
  });

  it.skipIf(!backend.available)('the latest of ids "a}" then "a~" is "a~", and list by thread agrees with list by thread and namespace', async () => {
    const store = await backend.open();
    try {
      const saver = new SessionCheckpointSaver(store);
      for (const id of ['a}', 'a~']) {
        const cp = withId(id);
        await saver.put(cfg('t'), cp, meta(0), cp.channel_versions);
      }
      expect((await saver.getTuple(cfg('t')))?.checkpoint.id).toBe('a~');
      expect(await ids(saver, { thread_id: 't', checkpoint_ns: '' })).toEqual(['a~', 'a}']);
      expect(await ids(saver, { thread_id: 't' })).toEqual(['a~', 'a}']);
    } finally {
      await store.close();
    }
  });

  it.skipIf(!backend.available)('finds threads, namespaces and ids that start with U+10FFFF', async () => {
    const store = await backend.open();
    try {
      const saver = new SessionCheckpointSaver(store);
      const odd = '\u{10FFFF}';
      const cases: [string, string, string][] = [
        [`${odd}t`, '', 'id-1'],
        ['t', `${odd}ns`, 'id-2'],
        ['t', '', `${odd}id`],
        [odd, odd, odd],
      ];
      for (const [thread, ns, id] of cases) {
        const cp = withId(id);
        await saver.put(cfg(thread, undefined, ns), cp, meta(0), cp.channel_versions);
        await saver.putWrites(cfg(thread, id, ns), [['w', id]], 'task');
      }
      for (const [thread, ns, id] of cases) {
        const latest = await saver.getTuple(cfg(thread, undefined, ns));
        expect(latest?.checkpoint.id, JSON.stringify([thread, ns])).toBe(id);
        expect(latest?.pendingWrites).toEqual([['task', 'w', id]]);
        expect(await ids(saver, { thread_id: thread, checkpoint_ns: ns })).toEqual([id]);
        expect(await ids(saver, { thread_id: thread })).toContain(id);
      }
      expect((await ids(saver, {})).sort()).toEqual(cases.map((c) => c[2]).sort());
    } finally {
      await store.close();
    }
  });

  it.skipIf(!backend.available)('refuses an id too long to keep its order, storing nothing, and says how long it may be', async () => {
    const store = await backend.open();
    try {
      const saver = new SessionCheckpointSaver(store);
      const cp = withId('y'.repeat(300));
      const put = saver.put(cfg('t'), cp, meta(0), cp.channel_versions);
      await expect(put).rejects.toThrow(CheckpointValidationError);
      await expect(saver.put(cfg('t'), cp, meta(0), cp.channel_versions)).rejects.toThrow(/checkpoint_id .*at most \d+ characters/);
      expect((await store.verify()).checked).toBe(0);
    } finally {
      await store.close();
    }
  });

  it.skipIf(!backend.available)('a checkpoint whose id begins another id keeps its pending writes in a list with before', async () => {
    const store = await backend.open();
    try {
      const saver = new SessionCheckpointSaver(store);
      for (const id of ['a', 'a-1']) {
        const cp = withId(id);
        await saver.put(cfg('t'), cp, meta(0), cp.channel_versions);
        await saver.putWrites(cfg('t', id), [['w', id]], 'task');
      }
      const page: [string, unknown][] = [];
      for await (const t of saver.list(cfg('t'), { before: { configurable: { checkpoint_id: 'a-1' } } })) page.push([t.checkpoint.id, t.pendingWrites]);
      expect(page).toEqual([['a', [['task', 'w', 'a']]]]);
    } finally {
      await store.close();
    }
  });
});
