/**
 * CORS headers for front-end dev servers, given only to the origins the server's guard allows (guard.ts: local
 * origins and `--cors-origin`). Other origins get none, so the browser blocks them: the mock holds no secret, but a
 * page on the open web has no business driving a developer's local server.
 */

/** Request headers a browser may send: the signature, JSON bodies and idempotency keys. */
export const ALLOWED_HEADERS = ['Authorization', 'Content-Type', 'Idempotency-Key', 'X-Request-Id'];
/** Response headers a browser script may read (the SDK reads them; `Date` to correct its clock after a skew). */
export const EXPOSED_HEADERS = ['X-Request-Id', 'Retry-After', 'Idempotent-Replayed', 'Date'];
/** Methods of the API and of the `/__mock/` control routes. */
export const ALLOWED_METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'];

/** The headers of a response to a request from an allowed origin (the origin is reflected, never `*`). */
export function corsHeaders(origin: string): Record<string, string> {
  return {
    'Access-Control-Allow-Origin': origin,
    'Access-Control-Expose-Headers': EXPOSED_HEADERS.join(', '),
    Vary: 'Origin',
  };
}

/**
 * The 204 answer to a preflight from an allowed origin. The headers the page asks for are allowed beside the SDK's:
 * an app sends its own (`traceparent`, a tenant header) with the client's `headers` option.
 */
export function preflightHeaders(origin: string, requested?: string): Record<string, string> {
  const asked = (requested ?? '')
    .split(',')
    .map((h) => h.trim())
    .filter((h) => /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(h));
  const allowed = [
    ...ALLOWED_HEADERS,
    ...asked.filter((h) => !ALLOWED_HEADERS.some((a) => a.toLowerCase() === h.toLowerCase())),
  ];
  return {
    'Access-Control-Allow-Origin': origin,
    'Access-Control-Allow-Methods': ALLOWED_METHODS.join(', '),
    'Access-Control-Allow-Headers': allowed.join(', '),
    'Access-Control-Max-Age': '600',
    Vary: 'Origin',
  };
}
