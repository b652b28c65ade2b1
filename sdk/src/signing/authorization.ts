/**
 * The `Authorization` header of a signed request: `HMAC-SHA256 <apiKey>:<signature>:<nonce>:<timestamp>`.
 * @module
 */

/** The scheme word of the header. */
const SCHEME = 'HMAC-SHA256';

/** What a verifier accepts as a nonce: a GUID, with or without dashes, in any case (the published page's "a GUID"). */
const NONCE_PATTERN = /^(?:[0-9a-f]{32}|[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$/i;
/** Unix seconds, as digits. */
const TIMESTAMP_PATTERN = /^[0-9]{1,12}$/;
/** What the header starts with. */
const PREFIX = `${SCHEME} `;

/** The parts of an `Authorization` header. */
export interface AuthorizationParts {
  apiKey: string;
  signature: string;
  nonce: string;
  timestamp: string;
}

/** The header value of a signature. */
export function formatAuthorization(parts: AuthorizationParts): string {
  return `${SCHEME} ${parts.apiKey}:${parts.signature}:${parts.nonce}:${parts.timestamp}`;
}

/** The parts of an `Authorization` header, or undefined when it is not of the scheme's form. */
export function parseAuthorization(header: string): AuthorizationParts | undefined {
  if (!header.startsWith(PREFIX)) return undefined;
  // Exactly three colons after the scheme, found in place: a verifier parses every request's header.
  const a = header.indexOf(':', PREFIX.length);
  const b = a < 0 ? -1 : header.indexOf(':', a + 1);
  const c = b < 0 ? -1 : header.indexOf(':', b + 1);
  if (c < 0 || header.includes(':', c + 1)) return undefined;
  const apiKey = header.slice(PREFIX.length, a);
  const signature = header.slice(a + 1, b);
  const nonce = header.slice(b + 1, c);
  const timestamp = header.slice(c + 1);
  if (!apiKey || !signature || !NONCE_PATTERN.test(nonce) || !TIMESTAMP_PATTERN.test(timestamp)) return undefined;
  return { apiKey, signature, nonce, timestamp };
}
