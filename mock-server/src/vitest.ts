/**
 * `card-issuing-mock/vitest`: one line of setup for vitest, in every environment it offers (node, jsdom, happy-dom).
 *
 * ```ts
 * // vitest.config.ts
 * export default defineConfig({ test: { setupFiles: ['card-issuing-mock/vitest'] } });
 * ```
 *
 * Each test file gets a fresh mock (default credentials `test_key` / `test_secret`, any base URL), and the global
 * `fetch` answers from it while the file runs; the SDK's client needs no other option. Import `mock` for the
 * control API (`mock.kyc`, `mock.outbox`, `mock.clock.advance`, ...).
 * @module card-issuing-mock/vitest
 */
import { afterAll, beforeAll } from 'vitest';
import type { CardIssuingMock } from './index.js';
import { mockForFile } from './runners/setup.js';

export { createMockFetch, interceptFetch, type FetchFunction } from './runners/fetch.js';

/** This test file's mock: its control API; its handlers answer the global `fetch` while the file's tests run. */
export const mock: CardIssuingMock = mockForFile({ beforeAll, afterAll });
