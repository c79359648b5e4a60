import { describe, expect, it } from 'vitest';
import { describeStore, selectStore } from './store-selection.js';

describe('selectStore', () => {
  it('prefers flags, then the environment', () => {
    expect(selectStore({ store: '/x/s.sqlite' }, { SESSION_CHECKPOINT_DATABASE_URL: 'postgres://a@b/c' })).toEqual({ kind: 'sqlite', path: '/x/s.sqlite' });
    expect(selectStore({}, { SESSION_CHECKPOINT_DATABASE_URL: 'postgresql://a@b/c' })).toEqual({ kind: 'postgres', url: 'postgresql://a@b/c' });
    expect(selectStore({}, { SESSION_CHECKPOINT_STORE: '/y.sqlite' })).toEqual({ kind: 'sqlite', path: '/y.sqlite' });
  });

  it('refuses ambiguity and absence as usage errors', () => {
    expect(() => selectStore({ store: 'a', 'database-url': 'postgres://x' }, {})).toThrow(/cannot be used together/u);
    expect(() => selectStore({}, { SESSION_CHECKPOINT_STORE: 'a', SESSION_CHECKPOINT_DATABASE_URL: 'postgres://x' })).toThrow(/both set/u);
    expect(() => selectStore({}, {})).toThrow(/required/u);
    expect(() => selectStore({ 'database-url': 'mysql://x' }, {})).toThrow(/postgres/u);
    expect(() => selectStore({ store: '' }, {})).toThrow(/empty/u);
  });

  it('masks passwords when describing a database', () => {
    expect(describeStore({ kind: 'postgres', url: 'postgres://u:secret@db:5432/x' })).toBe('postgres://u:***@db:5432/x');
  });

  it('carries --schema and --connect-timeout (flag beats variable) for PostgreSQL only', () => {
    const url = 'postgres://a@b/c';
    expect(selectStore({ 'database-url': url, schema: 'S', 'connect-timeout': '2.5' }, { SESSION_CHECKPOINT_SCHEMA: 'env' })).toEqual({
      kind: 'postgres',
      url,
      schema: 'S',
      connectTimeoutMs: 2500,
    });
    expect(selectStore({}, { SESSION_CHECKPOINT_DATABASE_URL: url, SESSION_CHECKPOINT_SCHEMA: 'env', SESSION_CHECKPOINT_CONNECT_TIMEOUT: '3' })).toEqual({
      kind: 'postgres',
      url,
      schema: 'env',
      connectTimeoutMs: 3000,
    });
    // The variables are ignored for a SQLite store, the flags refused.
    expect(selectStore({ store: '/x.sqlite' }, { SESSION_CHECKPOINT_SCHEMA: 'env' })).toEqual({ kind: 'sqlite', path: '/x.sqlite' });
    expect(() => selectStore({ store: '/x.sqlite', schema: 's' }, {})).toThrow(/PostgreSQL stores only/u);
    expect(() => selectStore({ 'database-url': url, 'connect-timeout': '0' }, {})).toThrow(/positive number of seconds/u);
  });
});
