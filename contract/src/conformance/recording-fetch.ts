/**
 * A `fetch` that feeds every exchange with a real HTTP server (the standalone mock, a sandbox of the service) to a
 * {@link ConformanceChecker} before the caller sees the response.
 * @module
 */
import type { ConformanceChecker, Finding } from './validator';

/** Headers as a plain record: what a `Headers` object holds, for the checker and for logs. */
const headersOf = (headers: Headers): Record<string, string> => Object.fromEntries(headers.entries());

/**
 * Wraps `fetch` so that every exchange with a real HTTP server is checked before the caller sees the response.
 * Pass the result as the SDK's `fetch` option (or use it directly). The body of the response is read from a clone,
 * so the caller still reads the original.
 */
export function createRecordingFetch(
  checker: ConformanceChecker,
  baseFetch: typeof fetch = globalThis.fetch,
  options: { onFindings?: (findings: Finding[]) => void } = {},
): typeof fetch {
  return async (input, init) => {
    const request = new Request(input, init);
    const requestBody = request.body ? await request.clone().text() : undefined;
    const response = await baseFetch(request);
    const responseBody = response.body ? await response.clone().text() : undefined;
    const findings = checker.check({
      method: request.method,
      url: request.url,
      requestHeaders: headersOf(request.headers),
      requestBody,
      status: response.status,
      responseHeaders: headersOf(response.headers),
      responseBody,
    });
    if (findings.length > 0) options.onFindings?.(findings);
    return response;
  };
}
