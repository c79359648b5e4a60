import { homedir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { expandHome } from './expand-home.js';

describe('expandHome', () => {
  it('expands ~ and ~/ only, as Python expanduser does for the current user', () => {
    expect(expandHome('~')).toBe(homedir());
    expect(expandHome('~/a/b.json')).toBe(join(homedir(), 'a/b.json'));
    expect(expandHome('a/~/b')).toBe('a/~/b');
    expect(expandHome('~other/x')).toBe('~other/x');
    expect(expandHome('/abs/path')).toBe('/abs/path');
  });
});
