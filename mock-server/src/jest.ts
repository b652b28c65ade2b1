/**
 * `card-issuing-mock/jest`: one line of setup for Jest 30, in CommonJS and ESM projects.
 *
 * ```js
 * // jest.config.js
 * module.exports = { setupFilesAfterEnv: ['card-issuing-mock/jest'] };
 * // with jsdom, also: testEnvironment: 'card-issuing-mock/jest-environment-jsdom'
 * ```
 *
 * Each test file gets a fresh mock (default credentials `test_key` / `test_secret`, any base URL), and the global
 * `fetch` answers from it while the file runs. `require('card-issuing-mock/jest').mock` (or `import { mock }`) is the
 * control API. The CommonJS build carries msw inside it, so Jest loads it without transforming node_modules.
 * @module card-issuing-mock/jest
 */
import type { CardIssuingMock } from './index.js';
import { mockForFile, type FileHooks } from './runners/setup.js';

export { createMockFetch, interceptFetch, type FetchFunction } from './runners/fetch.js';

/** Jest's hooks, which it puts on the global object of every test file (unless `injectGlobals` is false). */
function jestHooks(): FileHooks {
  const scope = globalThis as Partial<FileHooks>;
  if (typeof scope.beforeAll !== 'function' || typeof scope.afterAll !== 'function') {
    throw new Error(
      'card-issuing-mock/jest needs the hooks Jest puts on the global object (beforeAll, afterAll): list it in setupFilesAfterEnv (or import it from a test file), with injectGlobals left on.',
    );
  }
  return { beforeAll: scope.beforeAll, afterAll: scope.afterAll };
}

/** This test file's mock: its control API; its handlers answer the global `fetch` while the file's tests run. */
export const mock: CardIssuingMock = mockForFile(jestHooks());
