/**
 * `card-issuing-mock/jest`: one line of setup for Jest 30, in CommonJS and ESM projects.
 *
 * ```js
 * // jest.config.js
 * module.exports = { setupFilesAfterEnv: ['card-issuing-mock/jest'] };
 * // with jsdom, also: testEnvironment: 'card-issuing-mock/jest-environment-jsdom'
 * ```
 *
 * Each test gets a fresh mock state (default credentials `test_key` / `test_secret`, any base URL; `stateScope('file')`
 * keeps it for the file), and the global `fetch` answers from the mock while the file runs. `require('card-issuing-mock/jest').mock` (or `import { mock }`) is the
 * control API. The CommonJS build carries msw inside it, so Jest loads it without transforming node_modules.
 * @module card-issuing-mock/jest
 */
import type { CardIssuingMock } from './index.js';
import { mockForFile, type FileHooks, type StateScope } from './runners/setup.js';

export { createMockFetch, interceptFetch, type FetchFunction } from './runners/fetch.js';

/** Jest's hooks, which it puts on the global object of every test file (unless `injectGlobals` is false). */
function jestHooks(): FileHooks {
  const scope = globalThis as Partial<FileHooks>;
  if (
    typeof scope.beforeAll !== 'function' ||
    typeof scope.afterAll !== 'function' ||
    typeof scope.beforeEach !== 'function'
  ) {
    throw new Error(
      'card-issuing-mock/jest needs the hooks Jest puts on the global object (beforeAll, afterAll, beforeEach): list it in setupFilesAfterEnv (or import it from a test file), with injectGlobals left on.',
    );
  }
  return { beforeAll: scope.beforeAll, afterAll: scope.afterAll, beforeEach: scope.beforeEach };
}

export type { StateScope } from './runners/setup.js';

const file = mockForFile(jestHooks());

/**
 * This test file's mock: its control API; its handlers answer the global `fetch` while the file's tests run. Each
 * test starts from its fresh state (seeded, no faults, empty journal), whatever the test before it did.
 */
export const mock: CardIssuingMock = file.mock;

/**
 * `stateScope('file')` at the top of a test file keeps the mock's state from one test to the next (what each test
 * did, the next one sees), as the setup did before each test got its own; `'test'` is the default.
 */
export const stateScope: (scope: StateScope) => void = file.stateScope;
