/**
 * The few assertions the contract suite states, in the shape vitest and Jest users read (`expect(x).toMatchObject`),
 * over node:assert's AssertionError so that node:test and every JUnit reader show expected and actual. A test
 * framework as a dependency of an installed CLI would cost more than these hundred lines.
 * @module
 */
import { AssertionError, fail } from 'node:assert';
import { isDeepStrictEqual, inspect } from 'node:util';

const ASYMMETRIC = Symbol('asymmetric matcher');

/** A value that matches by a rule (`expect.any(String)`, `expect.arrayContaining([...])`, ...). */
interface Asymmetric {
  [ASYMMETRIC]: true;
  matches(actual: unknown): boolean;
  toString(): string;
}

const isAsymmetric = (v: unknown): v is Asymmetric => typeof v === 'object' && v !== null && ASYMMETRIC in v;
const isPlainObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' &&
  v !== null &&
  !Array.isArray(v) &&
  (Object.getPrototypeOf(v) === Object.prototype || Object.getPrototypeOf(v) === null);

/** Deep equality as vitest's `toEqual`: properties that are undefined count as absent; matchers match. */
function equals(actual: unknown, expected: unknown): boolean {
  if (isAsymmetric(expected)) return expected.matches(actual);
  if (Object.is(actual, expected)) return true;
  if (Array.isArray(expected))
    return Array.isArray(actual) && actual.length === expected.length && expected.every((e, i) => equals(actual[i], e));
  if (isPlainObject(expected)) {
    if (!isPlainObject(actual)) return false;
    const keys = new Set(
      [...Object.keys(expected), ...Object.keys(actual)].filter(
        (k) => expected[k] !== undefined || actual[k] !== undefined,
      ),
    );
    return [...keys].every((k) => equals(actual[k], expected[k]));
  }
  return isDeepStrictEqual(actual, expected);
}

/** `toMatchObject`: every property of `expected` matches, at any depth; arrays match element by element. */
function matchesObject(actual: unknown, expected: unknown): boolean {
  if (isAsymmetric(expected)) return expected.matches(actual);
  if (Array.isArray(expected))
    return (
      Array.isArray(actual) &&
      actual.length === expected.length &&
      expected.every((e, i) => matchesObject(actual[i], e))
    );
  if (isPlainObject(expected)) {
    if (typeof actual !== 'object' || actual === null) return false;
    return Object.keys(expected).every(
      (k) => k in actual && matchesObject((actual as Record<string, unknown>)[k], expected[k]),
    );
  }
  return equals(actual, expected);
}

const show = (v: unknown): string =>
  inspect(v, { depth: 6, breakLength: 120, maxArrayLength: 30, maxStringLength: 400 });

function asymmetric(describe: string, matches: (actual: unknown) => boolean): Asymmetric {
  return { [ASYMMETRIC]: true, matches, toString: () => describe, [inspect.custom]: () => describe } as Asymmetric;
}

/** The assertions on one value; `not` negates the ones that read naturally negated. */
export interface Assertion {
  toBe(expected: unknown): void;
  toEqual(expected: unknown): void;
  toMatchObject(expected: unknown): void;
  toContain(item: unknown): void;
  toMatch(pattern: RegExp | string): void;
  toHaveLength(length: number): void;
  toBeTruthy(): void;
  toBeNull(): void;
  toBeInstanceOf(type: abstract new (...args: never[]) => unknown): void;
  toBeGreaterThan(n: number): void;
  toBeGreaterThanOrEqual(n: number): void;
  toBeLessThanOrEqual(n: number): void;
  toThrow(): void;
  readonly not: Assertion;
}

function assertion(actual: unknown, message: string | undefined, negated: boolean): Assertion {
  const check = (pass: boolean, rule: string, expected: unknown, operator: string): void => {
    if (pass !== negated) return;
    const what = `expected ${show(actual)} ${negated ? 'not ' : ''}${rule}${expected === undefined ? '' : ` ${show(expected)}`}`;
    throw new AssertionError({ message: message ? `${message}: ${what}` : what, actual, expected, operator });
  };
  return {
    toBe: (expected) => check(Object.is(actual, expected), 'to be', expected, 'strictEqual'),
    toEqual: (expected) => check(equals(actual, expected), 'to equal', expected, 'deepStrictEqual'),
    toMatchObject: (expected) => check(matchesObject(actual, expected), 'to match', expected, 'match'),
    toContain: (item) =>
      check(
        typeof actual === 'string'
          ? actual.includes(String(item))
          : Array.isArray(actual) && actual.some((a) => equals(a, item)),
        'to contain',
        item,
        'contains',
      ),
    toMatch: (pattern) =>
      check(
        typeof actual === 'string' && (typeof pattern === 'string' ? actual.includes(pattern) : pattern.test(actual)),
        'to match',
        pattern,
        'match',
      ),
    toHaveLength: (length) =>
      check((actual as { length?: unknown } | null)?.length === length, 'to have length', length, 'length'),
    toBeTruthy: () => check(Boolean(actual), 'to be truthy', undefined, 'truthy'),
    toBeNull: () => check(actual === null, 'to be null', undefined, 'strictEqual'),
    toBeInstanceOf: (type) => check(actual instanceof type, 'to be an instance of', type.name, 'instanceOf'),
    toBeGreaterThan: (n) => check(typeof actual === 'number' && actual > n, 'to be greater than', n, '>'),
    toBeGreaterThanOrEqual: (n) => check(typeof actual === 'number' && actual >= n, 'to be at least', n, '>='),
    toBeLessThanOrEqual: (n) => check(typeof actual === 'number' && actual <= n, 'to be at most', n, '<='),
    toThrow: () => {
      if (typeof actual !== 'function') fail('toThrow needs a function');
      let threw = false;
      try {
        (actual as () => unknown)();
      } catch {
        threw = true;
      }
      check(threw, 'to throw', undefined, 'throws');
    },
    get not() {
      return assertion(actual, message, !negated);
    },
  };
}

/** Assertions on `actual`; `message` says what the rule is, and leads the failure. */
export const expect = Object.assign(
  (actual: unknown, message?: string): Assertion => assertion(actual, message, false),
  {
    /** Any value of the type (`String`, `Number`, a class). */
    any: (type: unknown): Asymmetric =>
      asymmetric(`any ${(type as { name?: string }).name ?? 'value'}`, (v) =>
        type === String
          ? typeof v === 'string'
          : type === Number
            ? typeof v === 'number'
            : type === Boolean
              ? typeof v === 'boolean'
              : v instanceof (type as new () => unknown),
      ),
    /** An array holding each of `items` (each may be a matcher), in any order, among others. */
    arrayContaining: (items: unknown[]): Asymmetric =>
      asymmetric(
        `an array containing ${show(items)}`,
        (v) => Array.isArray(v) && items.every((item) => v.some((a) => equals(a, item))),
      ),
    /** A string containing `part`. */
    stringContaining: (part: string): Asymmetric =>
      asymmetric(`a string containing ${show(part)}`, (v) => typeof v === 'string' && v.includes(part)),
  },
);
