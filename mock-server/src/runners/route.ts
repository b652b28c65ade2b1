/**
 * The mock behind Playwright's request routing: what the page asks of the API is answered in the test's process by
 * the mock's handlers (msw's `getResponse`, through {@link createMockFetch}), with no service worker in the page. A
 * request the mock does not handle falls back to the page's other routes and then the network.
 * @module
 */
import type { RequestHandler } from 'msw';
import { createMockFetch } from './fetch';

/** The part of Playwright's `Route` this uses (typed here so that the mock does not depend on Playwright's types). */
export interface RouteLike {
  request(): {
    url(): string;
    method(): string;
    allHeaders(): Promise<Record<string, string>>;
    postDataBuffer(): Buffer | null;
  };
  fulfill(response: { status: number; headers: Record<string, string>; body?: Buffer }): Promise<void>;
  fallback(): Promise<void>;
  abort(errorCode?: string): Promise<void>;
}

const UNHANDLED = Symbol('unhandled');

/**
 * Answers one routed request from `handlers`. The page's origin is allowed (CORS), as an API that serves browsers
 * does: a page at http://localhost calls https://api.example.test, and Chromium checks the answer's headers.
 */
export async function answerRoute(handlers: readonly RequestHandler[], route: RouteLike): Promise<void> {
  const routed = route.request();
  const headers = await routed.allHeaders();
  const origin = headers.origin;
  const cors: Record<string, string> = origin
    ? { 'access-control-allow-origin': origin, 'access-control-expose-headers': '*', vary: 'Origin' }
    : {};
  if (routed.method() === 'OPTIONS' && headers['access-control-request-method']) {
    // A CORS preflight: the mock answers the request that follows, so allow whatever it asks.
    await route.fulfill({
      status: 204,
      headers: {
        ...cors,
        'access-control-allow-methods': headers['access-control-request-method'],
        'access-control-allow-headers': headers['access-control-request-headers'] ?? '*',
        'access-control-max-age': '600',
      },
    });
    return;
  }
  const body = routed.postDataBuffer();
  const request = new Request(routed.url(), {
    method: routed.method(),
    headers,
    ...(body && routed.method() !== 'GET' && routed.method() !== 'HEAD' ? { body: new Uint8Array(body) } : {}),
  });
  const mockFetch = createMockFetch(handlers, () => Promise.reject(UNHANDLED));
  let response: Response;
  try {
    response = await mockFetch(request);
  } catch (error) {
    // Not the mock's: the page's other routes, then the network. An injected network fault: a failed request.
    if (error === UNHANDLED) await route.fallback();
    else await route.abort('failed');
    return;
  }
  await route.fulfill({
    status: response.status,
    headers: { ...Object.fromEntries(response.headers), ...cors },
    body: Buffer.from(await response.arrayBuffer()),
  });
}
