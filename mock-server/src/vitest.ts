/**
 * `card-issuing-mock/vitest`: one line of setup for vitest, in every environment it offers (node, jsdom, happy-dom).
 *
 * ```ts
 * // vitest.config.ts
 * export default defineConfig({ test: { setupFiles: ['card-issuing-mock/vitest'] } });
 * ```
 *
 * Each test gets a fresh mock state (default credentials `test_key` / `test_secret`, any base URL; `stateScope('file')`
 * keeps it for the file), and the global `fetch` answers from the mock while the file runs; the SDK's client needs
 * no other option. Import `mock` for the
 * control API (`mock.kyc`, `mock.outbox`, `mock.clock.advance`, ...).
 * @module card-issuing-mock/vitest
 */
import { afterAll, beforeAll, beforeEach } from 'vitest';
import type { CardIssuingMock } from './index.js';
import { mockForFile, type StateScope } from './runners/setup.js';

export { createMockFetch, interceptFetch, type FetchFunction } from './runners/fetch.js';

export type { StateScope } from './runners/setup.js';

const file = mockForFile({ beforeAll, afterAll, beforeEach });

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
