/**
 * The `Authorization` header of a signed request: `HMAC-SHA256 <apiKey>:<signature>:<nonce>:<timestamp>`.
 * @module
 */

/** The scheme word of the header. */
const SCHEME = 'HMAC-SHA256';

/** What a verifier accepts as a nonce: a GUID, with or without dashes, in any case (the published page's "a GUID"). */
const NONCE_PATTERN = /^(?:[0-9a-f]{32}|[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$/i;

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
  if (!header.startsWith(`${SCHEME} `)) return undefined;
  const parts = header.slice(SCHEME.length + 1).split(':');
  if (parts.length !== 4) return undefined;
  const [apiKey, signature, nonce, timestamp] = parts as [string, string, string, string];
  if (!apiKey || !signature || !NONCE_PATTERN.test(nonce) || !/^[0-9]{1,12}$/.test(timestamp)) return undefined;
  return { apiKey, signature, nonce, timestamp };
}
