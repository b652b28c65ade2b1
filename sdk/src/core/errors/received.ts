/**
 * The SDK's own errors for a response that arrived but cannot be the call's result: a redirect, never followed, and
 * a body that is not JSON or could not be validated. In the error-response chunk (`../error-response`): made only
 * once a response has arrived (so the chunk can load), they need not weigh on every page that imports the client.
 * @module
 */
import { RedirectError, ResponseValidationError } from './classes';

/** What the engine knows of the call whose response it is. */
export interface ReceivedFacts {
  operation: string;
  status: number | undefined;
  requestId: string | undefined;
  /** What the error must never show: the secret, the `Authorization` header, the signature. */
  redact: readonly string[];
}

/**
 * A 3xx (or a browser's opaque redirect): never followed, named with its location, resolved against the request's
 * `url`, when the runtime shows it.
 */
export function redirectError(response: Response, facts: ReceivedFacts & { url: string }): RedirectError {
  const { url, operation, ...rest } = facts;
  const header = response.headers.get('location');
  let location: string | undefined;
  try {
    location = header === null ? undefined : new URL(header, url).href;
  } catch {
    location = undefined;
  }
  const where = location === undefined ? 'a location the runtime does not show' : location;
  return new RedirectError({
    detail: `${operation}: the server redirected the request (${response.status || 'opaque'}) to ${where}; the SDK follows no redirect (the signature covers the URL, and a body is never sent again). Check baseUrl.`,
    location,
    ...rest,
  });
}

/**
 * What failed on a received body, as the caller sees it: a body that is not JSON, or whatever else fails on a
 * successful response's body (a validator giving way on a huge or deep body: RangeError), is a
 * {@link ResponseValidationError} whose message never quotes the body (a SyntaxError's does); any other error passes.
 */
export function bodyError(error: unknown, facts: ReceivedFacts): unknown {
  const message =
    error instanceof SyntaxError
      ? 'The response body is not JSON'
      : facts.status !== undefined && facts.status < 300 && error instanceof Error && error.name !== 'AbortError'
        ? `The response could not be validated (${error.name})`
        : undefined;
  if (message === undefined) return error;
  return new ResponseValidationError({ ...facts, errors: [{ path: '', message }] });
}
