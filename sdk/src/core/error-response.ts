/**
 * The engine's error-response chunk (`./lazy`), loaded with its first error response: the reader of the response,
 * and what only such a response needs: its `Retry-After` for a retry, the clock correction after a refusal of the
 * request's timestamp, the facts of the secret said on a signature mismatch; and the errors of a response that cannot
 * be the result (a redirect, a body that is not JSON). A page whose calls succeed never loads it.
 * @module
 */
import type { SecretEncoding } from '../signing/hmac-key';

export { errorFromResponse } from './errors/from-response';
export { bodyError, redirectError } from './errors/received';
export { parseRetryAfter } from './retry-after';
export { correctClock } from './clock-skew';

/**
 * What a signature mismatch says of the secret: the configured encoding, and whether the secret looks like base64 (a
 * secret of 16+ bytes in base64, what `openssl rand -base64` makes, may be meant to be decoded).
 */
export function secretFacts(
  apiSecret: string,
  encoding: SecretEncoding,
): { encoding: SecretEncoding; looksBase64: boolean } {
  return {
    encoding,
    looksBase64: apiSecret.length >= 24 && apiSecret.length % 4 === 0 && /^[A-Za-z0-9+/]+={0,2}$/.test(apiSecret),
  };
}
