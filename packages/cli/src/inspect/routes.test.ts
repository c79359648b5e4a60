import { describe, expect, it } from 'vitest';
import { answerApi, touches } from './routes.js';
import type { InspectSource } from './source.js';

/** A source that must never be reached: these requests are refused before any read. */
const unreachable = new Proxy({} as InspectSource, {
  get: () => () => {
    throw new Error('the store was read');
  },
});

const api = (path: string) => answerApi(new URL(`http://127.0.0.1:1${path}`), unreachable);

describe('the viewer API', () => {
  it('refuses incomplete or bad requests with 400 before reading anything', async () => {
    for (const path of [
      '/api/timeline?family=langgraph&namespace=langgraph',
      '/api/timeline?family=redis&namespace=x&thread=t',
      '/api/timeline?family=langgraph&namespace=langgraph&thread=t&limit=0',
      '/api/timeline?family=langgraph&namespace=langgraph&thread=t&limit=501',
      '/api/timeline?family=langgraph&namespace=langgraph&thread=t&changed=messages',
      '/api/diff?family=langgraph&namespace=langgraph&thread=t&from=a',
      '/api/writes?family=langgraph&namespace=langgraph&thread=t',
    ]) {
      const answer = await api(path);
      expect(answer.status, path).toBe(400);
      expect(JSON.parse(answer.body), path).toMatchObject({ ok: false, type: 'BadRequest' });
    }
  });

  it('answers 404 for an unknown endpoint and 500 with the error (no stack) when a read fails', async () => {
    expect((await api('/api/nothing')).status).toBe(404);
    const failing = await api('/api/threads');
    expect(failing.status).toBe(500);
    expect(JSON.parse(failing.body)).toEqual({ ok: false, error: 'the store was read', type: 'Error' });
  });
});

describe('touches (the changed-path filter)', () => {
  it('matches an operation at, below or above the pointer, and a move from it', () => {
    expect(touches({ op: 'add', path: '/messages/3', value: 1 }, '/messages')).toBe(true);
    expect(touches({ op: 'replace', path: '/messages', value: [] }, '/messages/3')).toBe(true);
    expect(touches({ op: 'replace', path: '/turns', value: 2 }, '/turns')).toBe(true);
    expect(touches({ op: 'move', path: '/b', from: '/messages/0' }, '/messages')).toBe(true);
    expect(touches({ op: 'replace', path: '/turns', value: 2 }, '/messages')).toBe(false);
    expect(touches({ op: 'add', path: '/messagesX', value: 2 }, '/messages')).toBe(false);
    expect(touches({ op: 'replace', path: '', value: {} }, '/messages')).toBe(true);
  });
});
