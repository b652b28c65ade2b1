/**
 * Fault path patterns: the meaning of `*`, `{name}` and `:name`, and matching in time linear in the path. The old
 * regular-expression compilation backtracked: a pattern of many stars against a long path that does not match froze
 * the server (21 s for one request); this one answers at once (the test would time out otherwise).
 */
import { describe, expect, it } from 'vitest';
import { compilePathPattern, MAX_PATTERN_TOKENS } from '../../mock-server/src/pipeline/path-pattern';

describe('fault path patterns', () => {
  it.each([
    ['/s2s/users', '/s2s/users', true],
    ['/s2s/users', '/s2s/users/1', false],
    ['*', '/anything/at/all', true],
    ['/s2s/*', '/s2s/users/1/cards', true],
    ['/s2s/*', '/app/deposits', false],
    ['/s2s/users/{userId}', '/s2s/users/abc', true],
    ['/s2s/users/{userId}', '/s2s/users/abc/cards', false],
    ['/s2s/users/{userId}', '/s2s/users/', false],
    ['/s2s/users/:userId/cards', '/s2s/users/abc/cards', true],
    ['/s2s/*/cards', '/s2s/users/abc/cards', true],
    ['*/charge-draft', '/s2s/cards/1/charge-draft', true],
    ['/s2s/cards/{cardId}/*', '/s2s/cards/1/x/y', true],
    ['/a.b', '/aXb', false],
    ['/(x)+', '/(x)+', true],
  ])('%s against %s: %s', (pattern, path, expected) => {
    expect(compilePathPattern(pattern).matches(path)).toBe(expected);
  });

  it('answers at once for a pattern of many stars against a long path that does not match', () => {
    const pattern = compilePathPattern(`${'*a'.repeat(200)}*b`);
    const path = `/${'a'.repeat(8000)}`;
    expect(pattern.matches(path)).toBe(false);
    expect(pattern.matches(`${path}b`)).toBe(true);
  });

  it('refuses a pattern longer than the bound', () => {
    expect(() => compilePathPattern('a'.repeat(MAX_PATTERN_TOKENS + 1))).toThrow(RangeError);
  });
});
