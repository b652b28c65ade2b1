/**
 * The mock as a `fetch`: requests go straight to the handlers of {@link createMock} through msw's `getResponse`,
 * in-process, with no interceptor, socket or port. This is what the test-runner setups install, because it works the
 * same in every environment a runner offers: Node, jsdom, and happy-dom, whose own fetch does the browser's CORS
 * preflight and talks HTTP through node:http (msw/node sees that traffic only as an OPTIONS request it has no
 * handler for, and lets it go to the network).
 * @module
 */
import { getResponse, isPassthroughResponse, type RequestHandler } from 'msw';

/** The signature of `fetch`, as the SDK's `fetch` option takes it. */
export type FetchFunction = (input: RequestInfo | URL, init?: RequestInit) => Promise<Response>;

/**
 * A `fetch` answered by msw request handlers (e.g. `createMock().handlers`); what none of them answers goes to
 * `fallback` (default: a `TypeError`, as fetch rejects when there is no network). An injected network fault
 * (`faults.inject({ status: 0 })`) rejects the same way. Responses are made with the `Response` of the realm the
 * call comes from, so code that checks `instanceof Response` in jsdom or happy-dom sees its own class.
 *
 * @example
 * ```ts
 * const mock = createMock({ seed: 42 });
 * const client = createCardIssuingClient({ baseUrl: 'https://api.example.test', apiKey: 'test_key', apiSecret: 'test_secret', fetch: createMockFetch(mock.handlers) });
 * ```
 */
export function createMockFetch(
  handlers: readonly RequestHandler[],
  fallback?: (request: Request) => Promise<Response>,
): FetchFunction {
  return async (input, init) => {
    const request = new globalThis.Request(input, init);
    if (request.signal.aborted) throw request.signal.reason;
    const response = await getResponse([...handlers], fallback ? request.clone() : request);
    if (!response || isPassthroughResponse(response)) {
      if (fallback) return fallback(request);
      throw new TypeError(`fetch failed: no mock handler for ${request.method} ${request.url}`);
    }
    if (response.type === 'error') throw new TypeError('fetch failed', { cause: response });
    return ownRealmResponse(response);
  };
}

/**
 * Routes the global `fetch` (what the SDK calls by default) to the handlers; requests they do not answer go to the
 * `fetch` that was there before. Returns the function that puts the previous `fetch` back.
 */
export function interceptFetch(handlers: readonly RequestHandler[]): () => void {
  const previous = globalThis.fetch;
  const mocked = createMockFetch(handlers, (request) => previous(request));
  globalThis.fetch = mocked;
  return () => {
    if (globalThis.fetch === mocked) globalThis.fetch = previous;
  };
}

const NULL_BODY_STATUSES = new Set([101, 103, 204, 205, 304]);

/** The same response as an instance of this realm's `Response` (msw builds its responses with the class it loaded). */
async function ownRealmResponse(response: Response): Promise<Response> {
  const Own = globalThis.Response;
  if ((response as unknown) instanceof Own) return response;
  const body = NULL_BODY_STATUSES.has(response.status) ? null : await response.arrayBuffer();
  return new Own(body, { status: response.status, statusText: response.statusText, headers: [...response.headers] });
}
