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
import { nodeHmacSha256 } from './node-hmac';
import { buildStringToSign, hasBytes, publishedStringToSign, type SignableBody } from './string-to-sign';

/** The stable codes of a rejected signature (401 problem+json `code`): the spec's `AUTH_*` problem codes. */
export type SignatureErrorCode = Extract<ProblemCode, `AUTH_${string}`>;

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
 * Never throws for a bad header; the result says what is wrong with a stable code. A server that verifies many
 * requests makes a {@link createSignatureVerifier} once instead: it keeps each secret's key.
 */
export async function verifySignature(input: VerifySignatureInput): Promise<VerifySignatureResult> {
  return verify(input, input, (secret) => macOf(secret, input.secretEncoding, input.hmac));
}

/** What {@link createSignatureVerifier} takes: everything of {@link VerifySignatureInput} but the request. */
export type SignatureVerifierOptions = Pick<
  VerifySignatureInput,
  'getSecret' | 'nonces' | 'toleranceSeconds' | 'bodyHash' | 'secretEncoding' | 'hmac'
>;

/** The request a {@link SignatureVerifier} checks, and the verifier's wall clock (Unix seconds; default now). */
export type SignedRequestInput = Pick<VerifySignatureInput, 'method' | 'url' | 'body' | 'authorization' | 'now'>;

/** Verifies requests with options given once; see {@link createSignatureVerifier}. */
export interface SignatureVerifier {
  /**
   * The checks of {@link verifySignature}, in its order, with its results. Synchronous where node:crypto is at hand
   * (Node 22.3+) and the body hash is not needed; a promise otherwise (Web Crypto, the body's SHA-256), so `await`
   * it where the code may run elsewhere.
   */
  verify(request: SignedRequestInput): VerifySignatureResult | Promise<VerifySignatureResult>;
}

/** How many secrets' HMAC keys a verifier keeps; past it, the oldest is made again when next needed. */
const KEPT_KEYS = 64;

/**
 * A verifier for a server: each secret's HMAC key is made once and kept (a node:crypto key object on Node, a Web
 * Crypto key elsewhere), and on Node a request whose body is not hashed is verified synchronously, without a
 * promise: a server answering thousands of requests a second spends on a signature little more than its HMAC.
 */
export function createSignatureVerifier(options: SignatureVerifierOptions): SignatureVerifier {
  const keys = new Map<string, Mac | undefined>();
  const kept = (secret: string): Mac | undefined => {
    if (keys.has(secret)) return keys.get(secret);
    const mac = macOf(secret, options.secretEncoding, options.hmac);
    keys.set(secret, mac);
    if (keys.size > KEPT_KEYS) keys.delete(keys.keys().next().value!);
    return mac;
  };
  return { verify: (request) => verify(request, options, kept) };
}

/**
 * HMAC-SHA256 under one secret: its base64 text with node:crypto (synchronous), bytes from the caller's `hmac` or
 * Web Crypto (a promise).
 */
type Mac = (message: string) => string | Uint8Array | Promise<Uint8Array>;

const nodeKey = nodeHmacSha256();

/**
 * The HMAC of a secret, or undefined when the secret has no key (not base64 under `'base64'`: every signature
 * with it is then a mismatch). `hmac`, the caller's own, is used with `'utf8'` only.
 */
function macOf(
  secret: string,
  encoding: SecretEncoding | undefined,
  hmac: VerifySignatureInput['hmac'],
): Mac | undefined {
  const key = encoding === 'base64' ? fromBase64(secret) : secret;
  if (key === undefined || key.length === 0) return undefined;
  if (hmac && typeof key === 'string') return (message) => hmac(key, message);
  if (nodeKey) return nodeKey(key);
  let imported: Promise<CryptoKey> | undefined;
  return async (message) => {
    imported ??= importHmacKey(key, 'sign');
    return new Uint8Array(await crypto.subtle.sign('HMAC', await imported, utf8Encode(message)));
  };
}

const MISSING: VerifySignatureResult = {
  ok: false,
  code: 'AUTH_MISSING',
  detail: 'The request has no Authorization header; sign it with HMAC-SHA256.',
};

const MALFORMED: VerifySignatureResult = {
  ok: false,
  code: 'AUTH_MALFORMED',
  detail:
    'The Authorization header must be "HMAC-SHA256 <apiKey>:<signature>:<nonce>:<timestamp>" with a GUID nonce (32 hex characters, dashes allowed) and a Unix-seconds timestamp.',
};

/** The checks in their order; synchronous up to a HMAC or body hash that is a promise. */
function verify(
  request: SignedRequestInput,
  options: SignatureVerifierOptions,
  macFor: (secret: string) => Mac | undefined,
): VerifySignatureResult | Promise<VerifySignatureResult> {
  if (!request.authorization) return { ...MISSING };
  const parts = parseAuthorization(request.authorization);
  if (!parts) return { ...MALFORMED };
  const { apiKey, signature, nonce, timestamp } = parts;
  const secret = options.getSecret(apiKey);
  if (secret === undefined)
    return { ok: false, code: 'AUTH_UNKNOWN_KEY', detail: `Unknown api key "${apiKey}".`, apiKey };

  const now = request.now ?? Math.floor(Date.now() / 1000);
  const tolerance = options.toleranceSeconds ?? SIGNATURE_TOLERANCE_SECONDS;
  const skew = Number(timestamp) - now;
  if (Math.abs(skew) > tolerance) {
    return {
      ok: false,
      code: 'AUTH_TIMESTAMP_SKEW',
      detail: `The timestamp is ${Math.abs(skew)} s ${skew > 0 ? 'ahead of' : 'behind'} the server's clock; at most ${tolerance} s is allowed.`,
      apiKey,
    };
  }

  const signed = { method: request.method, url: request.url, apiKey, timestamp, nonce };
  // The body's SHA-256 is a promise (Web Crypto); without it, everything up to the HMAC is synchronous.
  if (options.bodyHash && hasBytes(request.body)) {
    return buildStringToSign({ ...signed, body: request.body, bodyHash: true }).then((stringToSign) =>
      checkSignature(options, macFor, secret, signature, signed, now, tolerance, stringToSign),
    );
  }
  return checkSignature(options, macFor, secret, signature, signed, now, tolerance, publishedStringToSign(signed));
}

/** The signature under the key's secret (constant-time), then the nonce; a HMAC that is a promise is awaited. */
function checkSignature(
  options: SignatureVerifierOptions,
  macFor: (secret: string) => Mac | undefined,
  secret: string,
  signature: string,
  signed: { apiKey: string; timestamp: string; nonce: string },
  now: number,
  tolerance: number,
  stringToSign: string,
): VerifySignatureResult | Promise<VerifySignatureResult> {
  const expected = macFor(secret)?.(stringToSign);
  return expected instanceof Promise
    ? expected.then((bytes) => concluded(options, sameMac(signature, bytes), signed, now, tolerance, stringToSign))
    : concluded(options, sameMac(signature, expected), signed, now, tolerance, stringToSign);
}

/**
 * True when the header's signature is the expected HMAC: the same text as node:crypto's (canonical, padded) base64,
 * compared in constant time, or else text that decodes to the same bytes (unpadded, say), compared as bytes.
 */
function sameMac(signature: string, expected: string | Uint8Array | undefined): boolean {
  if (expected === undefined) return false;
  if (typeof expected === 'string') {
    if (signature.length === expected.length) {
      let diff = 0;
      for (let i = 0; i < expected.length; i++) diff |= signature.charCodeAt(i) ^ expected.charCodeAt(i);
      if (diff === 0) return true;
    }
    expected = fromBase64(expected)!;
  }
  const given = fromBase64(signature);
  return given !== undefined && constantTimeEqual(given, expected);
}

/** The outcome once the signature is compared: a mismatch, a replayed nonce, or the request's key. */
function concluded(
  options: SignatureVerifierOptions,
  matched: boolean,
  { apiKey, nonce, timestamp }: { apiKey: string; timestamp: string; nonce: string },
  now: number,
  tolerance: number,
  stringToSign: string,
): VerifySignatureResult {
  if (!matched) {
    const hint = options.bodyHash ? ' This server requires the body hash: sign with bodyHash on.' : '';
    return {
      ok: false,
      code: 'AUTH_SIGNATURE_MISMATCH',
      detail: `The signature does not match the request.${hint}`,
      apiKey,
      stringToSign,
    };
  }
  if (options.nonces?.checkAndRecord(apiKey, nonce, now, Number(timestamp) + tolerance + 1)) {
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
