/**
 * HMACSHA256 request signing as the service publishes it (contract section 2): what the client does to every
 * attempt, and `signRequest` for those who call the API another way. Verification is `./verify` (server side).
 * Browser-safe: node:crypto only through `process.getBuiltinModule`, else Web Crypto.
 *
 * ```
 * Authorization: HMAC-SHA256 <apiKey>:<signature>:<nonce>:<timestamp>
 * stringToSign = apiKey + METHOD + lowercase(absoluteUrl) + timestamp + nonce
 * signature    = base64(HMAC-SHA256(key = UTF-8(apiSecret), message = UTF-8(stringToSign)))
 * ```
 *
 * `secretEncoding` (`./hmac-key`) says how the secret becomes the HMAC key; `bodyHash` (`./string-to-sign`) adds
 * the body to what is signed. Both must match the server's.
 * @module
 */
import { toBase64, utf8Encode } from '../bytes';
import { loadOnce } from '../load-once';
import { formatAuthorization } from './authorization';
import { hmacKeyOf, importHmacKey, type SecretEncoding } from './hmac-key';
import { nodeHmacSha256 } from './node-hmac';
import { createNonce } from './nonce';
import { buildStringToSign, publishedStringToSign, type SignableBody } from './string-to-sign';

/** What {@link signRequest} needs. `timestamp` and `nonce` make it deterministic (test vectors). */
export interface SignRequestInput {
  /** HTTP method, any case (it is upper-cased). */
  method: string;
  /** The absolute URL exactly as sent on the wire (scheme, host, port, path, query; percent-encoded). */
  url: string;
  /** The raw body; signed only with `bodyHash`. A body of zero bytes counts as no body. */
  body?: SignableBody;
  apiKey: string;
  apiSecret: string;
  /** Unix seconds; defaults to now. */
  timestamp?: number | string;
  /** A random string, fresh for every request; defaults to 32 lower-case hex characters. */
  nonce?: string;
  /** Append `base64(SHA-256(body))` to the string to sign (opt-in; the published scheme does not). Default false. */
  bodyHash?: boolean;
  /** How the secret becomes the HMAC key (default `'utf8'`). */
  secretEncoding?: SecretEncoding;
}

/** The signature of one request. */
export interface SignedRequest {
  /** The value of the `Authorization` header. */
  authorization: string;
  /** What was signed; useful to compare with the mock's `stringToSign` on a mismatch. */
  stringToSign: string;
  timestamp: string;
  nonce: string;
}

/**
 * Signs a request: returns the `Authorization` header value and what went into it.
 * Deterministic when `timestamp` and `nonce` are given; otherwise uses the current time and a fresh nonce.
 * Imports the HMAC key on every call; a client that signs many requests uses {@link createSigner}.
 */
export async function signRequest(input: SignRequestInput): Promise<SignedRequest> {
  return createSigner(input).sign(input);
}

/** What {@link createSigner} needs: the credentials, and whether bodies are signed. */
export interface SignerOptions {
  apiKey: string;
  apiSecret: string;
  /** Append `base64(SHA-256(body))` (opt-in). Default false. */
  bodyHash?: boolean;
  /** How the secret becomes the HMAC key (default `'utf8'`). */
  secretEncoding?: SecretEncoding;
}

/** Signs requests with one api key; the HMAC key is imported once, on first use. */
export interface Signer {
  /** Whether the body is part of what is signed; when false, `sign` never reads it. */
  readonly bodyHash: boolean;
  /** Signs one request (a fresh nonce and the current time unless given). */
  sign(request: {
    method: string;
    url: string;
    body?: SignableBody;
    timestamp?: number | string;
    nonce?: string;
  }): Promise<SignedRequest>;
}

/**
 * A signer for one api key. On Node it signs with node:crypto (obtained through `process.getBuiltinModule`, never
 * imported); elsewhere the HMAC key is imported into Web Crypto once and kept (a non-extractable `CryptoKey`), so
 * that signing a request is one HMAC and no key schedule.
 */
export function createSigner(options: SignerOptions): Signer {
  // Web Crypto would refuse an empty key with a bare DataError; say what is wrong instead.
  if (!options.apiKey) throw new TypeError('signRequest: apiKey is required.');
  if (!options.apiSecret) throw new TypeError('signRequest: apiSecret is required.');
  const { apiKey } = options;
  const bodyHash = options.bodyHash ?? false;
  const secret = hmacKeyOf(options.apiSecret, options.secretEncoding ?? 'utf8', 'signRequest');
  // node:crypto where the runtime offers it synchronously (Node: its key object made once), else a CryptoKey
  // imported once (browsers).
  const hmac = nodeHmacSha256()?.(secret);
  // Web Crypto's key, imported once on first use (a failed import is tried again by the next request).
  const key = loadOnce(() => importHmacKey(secret, 'sign'));
  return {
    bodyHash,
    async sign(request) {
      const timestamp = String(request.timestamp ?? Math.floor(Date.now() / 1000));
      const nonce = request.nonce ?? createNonce();
      const parts = { method: request.method, url: request.url, apiKey, timestamp, nonce };
      // Without the body hash, nothing to await: the five published parts.
      const stringToSign = bodyHash
        ? await buildStringToSign({ ...parts, body: request.body, bodyHash })
        : publishedStringToSign(parts);
      let signature: string;
      if (hmac) signature = hmac(stringToSign);
      else {
        signature = toBase64(new Uint8Array(await crypto.subtle.sign('HMAC', await key(), utf8Encode(stringToSign))));
      }
      return {
        authorization: formatAuthorization({ apiKey, signature, nonce, timestamp }),
        stringToSign,
        timestamp,
        nonce,
      };
    },
  };
}
