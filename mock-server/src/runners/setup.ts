/**
 * What the test-runner entries (`card-issuing-mock/vitest`, `card-issuing-mock/jest`) share: one mock per test file,
 * its handlers answering the global `fetch` from the file's first hook to its last, and each test starting from the
 * mock's fresh state (unless the file asks to keep state from one test to the next).
 * @module
 */
import { createMock } from '../mock/create-mock.js';
import { mockInternals } from '../mock/internals.js';
import type { CardIssuingMock, ServerState } from '../mock/options.js';
import type { ObservedRuntime } from '../observe/runtime.js';
import { interceptFetch } from './fetch.js';

/** The hooks a runner gives: once before and after the file's tests, and before each test. */
export interface FileHooks {
  beforeAll(fn: () => void): void;
  afterAll(fn: () => void): void;
  beforeEach(fn: () => void): void;
}

/** How long the mock's state lasts: one test (the default), or the whole file (what each test did, the next sees). */
export type StateScope = 'test' | 'file';

/** The file's mock, and the function that sets how long its state lasts. */
export interface FileMock {
  mock: CardIssuingMock;
  stateScope(scope: StateScope): void;
}

/**
 * Creates the file's mock and registers the hooks that route `fetch` to it while the file runs and, before each
 * test, put it back as it was made: every tenant's seeded state, no faults or overrides, no handlers added with
 * `mock.use`, empty journal and events.
 */
export function mockForFile(hooks: FileHooks): FileMock {
  const mock = createMock();
  const fresh: ServerState = mock.exportState();
  let scope: StateScope = 'test';
  let restore: (() => void) | undefined;
  hooks.beforeAll(() => {
    restore = interceptFetch(mock.handlers);
  });
  hooks.beforeEach(() => {
    // Registered before the test file's own hooks, so its beforeEach set-up runs on the fresh state.
    if (scope === 'file') return;
    mock.importState(fresh);
    mock.resetHandlers();
    (mockInternals(mock).runtime as ObservedRuntime).observer.forget();
  });
  hooks.afterAll(() => {
    restore?.();
    restore = undefined;
  });
  return {
    mock,
    stateScope(next) {
      if (next !== 'test' && next !== 'file')
        throw new TypeError(`stateScope takes 'test' or 'file' (got ${JSON.stringify(next)}).`);
      scope = next;
    },
  };
}
