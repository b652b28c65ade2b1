/**
 * `card-issuing-mock/playwright`: Playwright's `test` with a `mock` fixture. Each test gets a fresh mock in the test's
 * own process; the page's requests to the API are answered from it through `context.route` (no service worker, no
 * server, no script in the app), and the test holds the whole mock: its control API (`mock.kyc(...)`,
 * `mock.clock.advance(...)`, `mock.faults.inject(...)`) and its state (`mock.snapshot()`). Tests in parallel workers
 * each have their own.
 *
 * ```ts
 * import { expect, test } from 'card-issuing-mock/playwright';
 *
 * test.use({ mockOptions: { seed: 42 } });
 * test('the user passes KYC', async ({ page, mock }) => {
 *   await page.goto('/signup');
 *   // ... the app creates a user through the SDK; the mock answers
 *   mock.kyc(Object.keys(mock.snapshot().users)[0]!, 'PASSED');
 * });
 * ```
 * @module card-issuing-mock/playwright
 */
import {
  test as base,
  type PlaywrightTestArgs,
  type PlaywrightTestOptions,
  type PlaywrightWorkerArgs,
  type PlaywrightWorkerOptions,
  type TestType,
} from '@playwright/test';
import { createMock, type CardIssuingMock, type CreateMockOptions } from './index';
import { answerRoute } from './runners/route';

export { expect } from '@playwright/test';

/** The fixtures `test` adds. */
export interface MockFixtures {
  /** The test's own mock: its control API, its state, its handlers. Fresh for every test. */
  mock: CardIssuingMock;
  /** Options of the test's mock (`createMock`'s): `test.use({ mockOptions: { seed: 42, baseUrl } })`. */
  mockOptions: CreateMockOptions;
}

/**
 * Playwright's `test` with {@link MockFixtures}. The mock is on for every test of a file that uses this `test`,
 * whether the test names `mock` or not; with `mockOptions.baseUrl` only that origin is routed, otherwise every request
 * is offered to the mock and what it does not handle goes on to the network.
 */
// Typed by hand so that the declarations name @playwright/test (what the user installs), not its inner package.
export const test: TestType<
  PlaywrightTestArgs & PlaywrightTestOptions & MockFixtures,
  PlaywrightWorkerArgs & PlaywrightWorkerOptions
> = base.extend<MockFixtures>({
  mockOptions: [{}, { option: true }],
  mock: [
    async ({ context, mockOptions }, use) => {
      const mock = createMock(mockOptions);
      const origin = mockOptions.baseUrl === undefined ? undefined : new URL(mockOptions.baseUrl).origin;
      const matches = (url: URL) => origin === undefined || url.origin === origin;
      const handler = (route: Parameters<typeof answerRoute>[1]) => answerRoute(mock.handlers, route);
      await context.route(matches, handler);
      await use(mock);
      await context.unroute(matches, handler);
    },
    { auto: true },
  ],
});
