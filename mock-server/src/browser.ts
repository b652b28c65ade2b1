/**
 * `card-issuing-mock/browser`: the mock in the browser's service worker, for front-end apps that call the API
 * with `fetch` and should get the mock's answers without a server. Same handlers as `createMock()` in tests and as
 * the standalone server.
 *
 * Put msw's worker script where the app serves static files first: `npx card-issuing-mock init public`.
 *
 * ```ts
 * import { startBrowserMock } from 'card-issuing-mock/browser';
 * if (import.meta.env.DEV) await startBrowserMock({ baseUrl: 'https://api.example.test' });
 * ```
 * @module
 */
import { setupWorker, type SetupWorker } from 'msw/browser';
import { createMock, type CardIssuingMock } from './index.js';

/** Options of {@link startBrowserMock}: those of {@link createMock} plus where the worker script is. */
export type StartBrowserMockOptions = Parameters<typeof createMock>[0] & {
  /** Where the app serves msw's `mockServiceWorker.js` (default `/mockServiceWorker.js`), and registration options. */
  serviceWorker?: { url?: string; options?: RegistrationOptions };
  /** Do not log each intercepted request in the browser console. Default false. */
  quiet?: boolean;
};

/** A running browser mock. */
export interface BrowserMock {
  /** The msw worker, for `worker.use(...)` overrides in a story or a test. */
  worker: SetupWorker;
  /** The mock's control API (clock, outbox, kyc, deposits, faults, ...). */
  mock: CardIssuingMock;
  /** Stops intercepting requests. */
  stop(): Promise<void>;
}

/**
 * Registers the service worker and starts answering the API's requests from the mock. Requests the mock does not
 * handle (the app's own assets, other APIs) go to the network untouched.
 */
export async function startBrowserMock(options: StartBrowserMockOptions = {}): Promise<BrowserMock> {
  const { serviceWorker, quiet = false, ...mockOptions } = options;
  const mock = createMock(mockOptions);
  const worker = setupWorker(...mock.handlers);
  await worker.start({
    serviceWorker: { url: serviceWorker?.url ?? '/mockServiceWorker.js', ...(serviceWorker?.options ? { options: serviceWorker.options } : {}) },
    onUnhandledFrame: 'bypass',
    quiet,
  });
  return {
    worker,
    mock,
    async stop() {
      await worker.stop();
    },
  };
}
