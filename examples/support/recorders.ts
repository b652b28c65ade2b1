/**
 * Recorders that feed real traffic to a {@link ConformanceChecker}: one listens to MSW's life-cycle events (the mock
 * in-process), one wraps `fetch` (a real HTTP server, such as the standalone mock or a sandbox of the service).
 * @packageDocumentation
 */
import type { SetupServer } from 'msw/node';
import type { ConformanceChecker, Finding } from 'card-issuing-contract/conformance';

/** What a recorder gives back: a way to wait for the exchanges still being read, and to stop. */
export interface Recorder {
  /** Resolves once every exchange seen so far has been checked (bodies are read asynchronously). */
  settled(): Promise<void>;
  /** Stops recording (removes the listeners). */
  stop(): void;
}

/** Headers as a plain record: what a `Headers` object holds, for the checker and for logs. */
const headersOf = (headers: Headers): Record<string, string> => Object.fromEntries(headers.entries());

/**
 * Records every exchange MSW answers with a mocked response and checks it. The request body is read on
 * `request:start` (a handler consumes it afterwards); the response is cloned on `response:mocked`. Responses that
 * MSW let through to the network (`response:bypass`) are not the mock's and are not checked.
 *
 * @example
 * const server = setupServer(...mock.handlers);
 * const recorder = recordMswExchanges(server, checker);
 * server.listen({ onUnhandledFrame: 'error' });
 * // ... after the run:
 * await recorder.settled();
 * expect(checker.findings(), checker.report()).toEqual([]);
 */
export function recordMswExchanges(
  server: Pick<SetupServer, 'events'>,
  checker: ConformanceChecker,
  options: { onFindings?: (findings: Finding[]) => void } = {},
): Recorder {
  const requestBodies = new Map<string, Promise<string | undefined>>();
  const pending = new Set<Promise<void>>();

  const onStart = ({ request, requestId }: { request: Request; requestId: string }) => {
    requestBodies.set(requestId, request.body ? request.clone().text() : Promise.resolve(undefined));
  };
  const onMocked = ({ request, requestId, response }: { request: Request; requestId: string; response: Response }) => {
    const requestBody = requestBodies.get(requestId) ?? Promise.resolve(undefined);
    requestBodies.delete(requestId);
    const responseBody = response.body ? response.clone().text() : Promise.resolve(undefined);
    const work = Promise.all([requestBody, responseBody]).then(([reqBody, resBody]) => {
      const findings = checker.check({
        method: request.method,
        url: request.url,
        requestHeaders: headersOf(request.headers),
        requestBody: reqBody,
        status: response.status,
        responseHeaders: headersOf(response.headers),
        responseBody: resBody,
      });
      if (findings.length > 0) options.onFindings?.(findings);
    });
    pending.add(work);
    void work.finally(() => pending.delete(work));
  };

  server.events.on('request:start', onStart);
  server.events.on('response:mocked', onMocked);
  return {
    async settled() {
      while (pending.size > 0) await Promise.all([...pending]);
    },
    stop() {
      server.events.removeListener('request:start', onStart);
      server.events.removeListener('response:mocked', onMocked);
    },
  };
}
