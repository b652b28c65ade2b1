/**
 * `card-issuing-mock/browser` on a server (the package's "node" and "react-server" export conditions): the same
 * names, inert. A client component that imports the browser mock is rendered on the server too (Next.js server
 * rendering, React Server Components); there it must load without msw/browser (which msw does not give to Node), and
 * say what to do if it is started.
 * @module
 */
import type * as Browser from './browser';

export type { BrowserMock, BrowserMockInspector, StartBrowserMockOptions } from './browser';

/** What {@link startBrowserMock} throws on a server. */
export class BrowserOnlyError extends Error {
  override readonly name = 'BrowserOnlyError';
  readonly code = 'BROWSER_MOCK_ON_SERVER';
}

/**
 * On a server: refuses, naming the two halves of the recipe. The browser's mock starts in the browser (in Next.js,
 * from a client component's `useEffect`); the server's own `fetch` is answered in-process by
 * `interceptFetch(createMock().handlers)` from `card-issuing-mock` (in Next.js, from `instrumentation.ts`) or by the
 * standalone server.
 */
export const startBrowserMock: typeof Browser.startBrowserMock = async () => {
  throw new BrowserOnlyError(
    "startBrowserMock() runs in a browser (it registers a service worker), and this is a server. Start it in the browser only (in Next.js: in a client component's useEffect), and answer the server's own fetch in-process with interceptFetch(createMock().handlers) from 'card-issuing-mock' (in Next.js: in instrumentation.ts), or with the standalone server (npx card-issuing-mock).",
  );
};
