/**
 * Server-side verification of a signed request (contract section 2), as the service does it and the mock does
 * with this very function: header present, well-formed, known key, timestamp within the tolerance, signature
 * (constant-time), nonce not replayed. For servers and tests; the SDK's client only signs.
 * @module
 */
import type { ProblemCode } from '../../generated/types.gen';
import { fromBase64, utf8Encode } from '../bytes';
import { parseAuthorization } from './authorization';
import { importHmacKey, type SecretEncoding } from './hmac-key';
import type { NonceCache } from './nonce-cache';
import { buildStringToSign, type SignableBody } from './string-to-sign';

/** The stable codes of a rejected signature (401 problem+json `code`): the spec's `AUTH_*` problem codes. */
export type SignatureErrorCode = Extract<ProblemCode, `AUTH_${string}`>;

/** The length of an HMAC-SHA256 signature. */
const HMAC_SHA256_BYTES = 32;

/** How far a request's timestamp may be from the verifier's wall clock. */
export const SIGNATURE_TOLERANCE_SECONDS = 300;

/** What {@link verifySignature} needs: the request as received, and how to find a key's secret. */
export interface VerifySignatureInput {
  method: string;
  /**
   * The absolute URL the client signed: the request target exactly as received (no normalisation: `/./`, `'` and
   * percent-encoding stay as sent) on the server's own origin, or on the public origin of a proxy in front of it.
   */
  url: string;
  body?: SignableBody;
  /** The `Authorization` header as received. */
  authorization: string | null | undefined;
  /** The secret of an api key, or undefined when the key is unknown. */
  getSecret: (apiKey: string) => string | undefined;
  /** The verifier's wall clock in Unix seconds (never a virtual clock); defaults to now. */
  now?: number;
  /** Where seen nonces are kept; without it, replays are not detected. */
  nonces?: NonceCache;
  /** Seconds a timestamp may be off; defaults to {@link SIGNATURE_TOLERANCE_SECONDS}. */
  toleranceSeconds?: number;
  /** Require the body hash (the opt-in profile): a request signed the five-part way is then a mismatch. */
  bodyHash?: boolean;
  /**
   * How every secret becomes its HMAC key (default `'utf8'`). With `'base64'`, a secret that is not base64 makes
   * every request signed with its key a mismatch.
   */
  secretEncoding?: SecretEncoding;
  /**
   * HMAC-SHA256 of `message` under `secret` (UTF-8 both), when the verifier has a faster one than importing a Web
   * Crypto key per request (node:crypto, or a cached `CryptoKey`). The comparison stays constant-time. Used with
   * `secretEncoding: 'utf8'` only: with `'base64'` the key is the decoded bytes, and Web Crypto computes it.
   */
  hmac?: (secret: string, message: string) => Uint8Array | Promise<Uint8Array>;
}

/** The outcome of {@link verifySignature}. `stringToSign` is what the verifier expected (for mismatches). */
export type VerifySignatureResult =
  | { ok: true; apiKey: string; nonce: string; timestamp: number }
  | { ok: false; code: SignatureErrorCode; detail: string; apiKey?: string; stringToSign?: string };

/**
 * Verifies a request's signature as a server does (the mock uses it). Checks, in order: header present,
 * well-formed, known key, timestamp within the tolerance, signature (constant-time), nonce not replayed.
 * Never throws for a bad header; the result says what is wrong with a stable code.
 */
export async function verifySignature(input: VerifySignatureInput): Promise<VerifySignatureResult> {
  if (!input.authorization) {
    return {
      ok: false,
      code: 'AUTH_MISSING',
      detail: 'The request has no Authorization header; sign it with HMAC-SHA256.',
    };
  }
  const parts = parseAuthorization(input.authorization);
  if (!parts) {
    return {
      ok: false,
      code: 'AUTH_MALFORMED',
      detail:
        'The Authorization header must be "HMAC-SHA256 <apiKey>:<signature>:<nonce>:<timestamp>" with a GUID nonce (32 hex characters, dashes allowed) and a Unix-seconds timestamp.',
    };
  }
  const { apiKey, signature, nonce, timestamp } = parts;
  const secret = input.getSecret(apiKey);
  if (secret === undefined)
    return { ok: false, code: 'AUTH_UNKNOWN_KEY', detail: `Unknown api key "${apiKey}".`, apiKey };

  const now = input.now ?? Math.floor(Date.now() / 1000);
  const tolerance = input.toleranceSeconds ?? SIGNATURE_TOLERANCE_SECONDS;
  const skew = Number(timestamp) - now;
  if (Math.abs(skew) > tolerance) {
    return {
      ok: false,
      code: 'AUTH_TIMESTAMP_SKEW',
      detail: `The timestamp is ${Math.abs(skew)} s ${skew > 0 ? 'ahead of' : 'behind'} the server's clock; at most ${tolerance} s is allowed.`,
      apiKey,
    };
  }

  const stringToSign = await buildStringToSign({
    method: input.method,
    url: input.url,
    body: input.body,
    apiKey,
    timestamp,
    nonce,
    bodyHash: input.bodyHash ?? false,
  });
  const given = fromBase64(signature);
  const base64 = input.secretEncoding === 'base64';
  // A secret that is not base64 under 'base64' has no key: every signature with it is a mismatch.
  const key = base64 ? fromBase64(secret) : secret;
  // HMAC-SHA256 is 32 bytes: any other length is refused before any compare; a key of no bytes signs nothing.
  const valid =
    given?.byteLength === HMAC_SHA256_BYTES &&
    key !== undefined &&
    key.length > 0 &&
    (input.hmac && !base64
      ? constantTimeEqual(given, await input.hmac(secret, stringToSign))
      : await crypto.subtle.verify('HMAC', await importHmacKey(key, 'verify'), given, utf8Encode(stringToSign)));
  if (!valid) {
    const hint = input.bodyHash ? ' This server requires the body hash: sign with bodyHash on.' : '';
    return {
      ok: false,
      code: 'AUTH_SIGNATURE_MISMATCH',
      detail: `The signature does not match the request.${hint}`,
      apiKey,
      stringToSign,
    };
  }
  if (input.nonces?.checkAndRecord(apiKey, nonce, now, Number(timestamp) + tolerance + 1)) {
    return {
      ok: false,
      code: 'AUTH_NONCE_REUSED',
      detail: 'This nonce was already used; every request needs a fresh one.',
      apiKey,
    };
  }
  return { ok: true, apiKey, nonce, timestamp: Number(timestamp) };
}

/** Equal bytes, in time that depends on the length only. */
function constantTimeEqual(a: Uint8Array, b: Uint8Array): boolean {
  if (a.byteLength !== b.byteLength) return false;
  let diff = 0;
  for (let i = 0; i < a.byteLength; i++) diff |= a[i]! ^ b[i]!;
  return diff === 0;
}
