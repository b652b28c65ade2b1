/**
 * What the test-runner entries (`card-issuing-mock/vitest`, `card-issuing-mock/jest`) share: one mock per test file,
 * its handlers answering the global `fetch` from the file's first hook to its last.
 * @module
 */
import { createMock } from '../mock/create-mock.js';
import type { CardIssuingMock } from '../mock/options.js';
import { interceptFetch } from './fetch.js';

/** The two hooks a runner gives: run once before the file's tests, once after them. */
export interface FileHooks {
  beforeAll(fn: () => void): void;
  afterAll(fn: () => void): void;
}

/** Creates the file's mock and registers the hooks that route `fetch` to it while the file runs. */
export function mockForFile(hooks: FileHooks): CardIssuingMock {
  const mock = createMock();
  let restore: (() => void) | undefined;
  hooks.beforeAll(() => {
    restore = interceptFetch(mock.handlers);
  });
  hooks.afterAll(() => {
    restore?.();
    restore = undefined;
  });
  return mock;
}
