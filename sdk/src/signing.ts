/**
 * HMACSHA256 request signing as the service publishes it (contract section 2), shared by the SDK (which signs) and
 * the mock (which verifies). Web Crypto only, so it runs unchanged in Node 22+ and in browsers.
 *
 * ```
 * Authorization: HMAC-SHA256 <apiKey>:<signature>:<nonce>:<timestamp>
 * stringToSign = apiKey + METHOD + lowercase(absoluteUrl) + timestamp + nonce
 * signature    = base64(HMAC-SHA256(key = UTF-8(apiSecret), message = UTF-8(stringToSign)))
 * ```
 *
 * The published page does not say how the secret becomes the HMAC key; its C# sample resembles one that
 * base64-decodes it. `secretEncoding: 'base64'` (at both ends) makes the key the secret's base64-decoded bytes.
 *
 * The body is not signed by the published scheme. A deployment that wants it covered turns on `bodyHash` at both
 * ends; `+ base64(SHA-256(raw body bytes))` is then appended when the request has a body.
 * @module
 */
import type { ProblemCode } from '../generated/types.gen';
import { ArrivalQueue } from './arrival-queue';
import { nodeHmacSha256 } from './node-hmac';

/**
 * How the api secret becomes the HMAC key: its UTF-8 bytes (`'utf8'`, the default) or the bytes it encodes in
 * base64 (`'base64'`, for a service that issues secrets as base64 of random bytes and decodes them to sign).
 */
export type SecretEncoding = 'utf8' | 'base64';

/** The raw bytes of a request body, in any of the forms a fetch `Request` gives them. */
export type SignableBody = string | Uint8Array | ArrayBuffer | null | undefined;

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

/** The stable codes of a rejected signature (401 problem+json `code`): the spec's `AUTH_*` problem codes. */
export type SignatureErrorCode = Extract<ProblemCode, `AUTH_${string}`>;

/** How far a request's timestamp may be from the verifier's wall clock. */
export const SIGNATURE_TOLERANCE_SECONDS = 300;

const SCHEME = 'HMAC-SHA256';
/** What a verifier accepts as a nonce: a GUID, with or without dashes, in any case (the published page's "a GUID"). */
const NONCE_PATTERN = /^(?:[0-9a-f]{32}|[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$/i;
const encoder = new TextEncoder();

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
  sign(request: { method: string; url: string; body?: SignableBody; timestamp?: number | string; nonce?: string }): Promise<SignedRequest>;
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
  let key: Promise<CryptoKey> | undefined;
  const secret = hmacKeyOf(options.apiSecret, options.secretEncoding ?? 'utf8', 'signRequest');
  // node:crypto where the runtime offers it synchronously (Node), else a CryptoKey imported once (browsers).
  const hmac = nodeHmacSha256();
  return {
    bodyHash,
    async sign(request) {
      const timestamp = String(request.timestamp ?? Math.floor(Date.now() / 1000));
      const nonce = request.nonce ?? createNonce();
      const stringToSign = await buildStringToSign({ method: request.method, url: request.url, body: request.body, apiKey, timestamp, nonce, bodyHash });
      let signature: string;
      if (hmac) signature = hmac(secret, stringToSign);
      else {
        key ??= importHmacKey(secret, 'sign');
        signature = toBase64(new Uint8Array(await crypto.subtle.sign('HMAC', await key, encoder.encode(stringToSign))));
      }
      return { authorization: `${SCHEME} ${apiKey}:${signature}:${nonce}:${timestamp}`, stringToSign, timestamp, nonce };
    },
  };
}

/**
 * The string a request's signature covers (contract section 2): the five published parts, plus the body hash
 * when `bodyHash` is on and the request has a body.
 */
export async function buildStringToSign(input: {
  method: string;
  url: string;
  body?: SignableBody;
  apiKey: string;
  timestamp: string;
  nonce: string;
  bodyHash?: boolean;
}): Promise<string> {
  const base = `${input.apiKey}${input.method.toUpperCase()}${input.url.toLowerCase()}${input.timestamp}${input.nonce}`;
  return input.bodyHash ? base + (await hashBody(input.body)) : base;
}

/**
 * A fresh nonce: 32 lower-case hex characters (a random GUID without dashes, 122 random bits). `randomUUID` first:
 * Node draws it from a batch of entropy it keeps (about 0.2 µs, against 1.6 µs for a `getRandomValues` call, which
 * is a system call each time); `getRandomValues` where `randomUUID` is missing (a browser page outside a secure
 * context, such as plain http on a LAN address).
 */
export function createNonce(): string {
  return randomUuid().replaceAll('-', '');
}

/** A random (version 4) UUID, in any context that has `crypto.getRandomValues`. */
export function randomUuid(): string {
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  bytes[6] = (bytes[6]! & 0x0f) | 0x40; // version 4
  bytes[8] = (bytes[8]! & 0x3f) | 0x80; // RFC 9562 variant
  let hex = '';
  for (const b of bytes) hex += HEX[b]!;
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
const HEX = Array.from({ length: 256 }, (_, b) => b.toString(16).padStart(2, '0'));

/** The parts of an `Authorization` header, or undefined when it is not of the scheme's form. */
export function parseAuthorization(header: string): { apiKey: string; signature: string; nonce: string; timestamp: string } | undefined {
  if (!header.startsWith(`${SCHEME} `)) return undefined;
  const parts = header.slice(SCHEME.length + 1).split(':');
  if (parts.length !== 4) return undefined;
  const [apiKey, signature, nonce, timestamp] = parts as [string, string, string, string];
  if (!apiKey || !signature || !NONCE_PATTERN.test(nonce) || !/^[0-9]{1,12}$/.test(timestamp)) return undefined;
  return { apiKey, signature, nonce, timestamp };
}

/** What {@link NonceCache} takes. */
export interface NonceCacheOptions {
  /**
   * The most nonces kept (default: no limit but the window). Past it, the oldest is forgotten first: a server
   * facing a flood keeps bounded memory, and refuses replays only of the newest `max` nonces of the window.
   */
  max?: number;
}

/**
 * Remembers the nonces seen within the tolerance window, so that a replayed request is refused; each nonce until
 * its request's timestamp leaves the window, and at most `max` of them.
 */
export class NonceCache {
  // Arrival order beside a Set for the look-ups.
  readonly #seen = new Set<string>();
  readonly #order = new ArrivalQueue<{ id: string; expiresAt: number }>();
  readonly #max: number;

  constructor(options: NonceCacheOptions = {}) {
    const max = options.max ?? Number.POSITIVE_INFINITY;
    if (!(max === Number.POSITIVE_INFINITY || (Number.isSafeInteger(max) && max > 0))) throw new TypeError('NonceCache: max must be a positive whole number.');
    this.#max = max;
  }

  /** How many nonces are kept now. */
  get size(): number {
    return this.#seen.size;
  }

  /** True when this key's nonce was already seen; otherwise records it (until `expiresAt`, Unix seconds). */
  checkAndRecord(apiKey: string, nonce: string, nowSeconds: number, expiresAt: number): boolean {
    // Expiries grow roughly with arrival: stop at the first live entry.
    for (let oldest = this.#order.peek(); oldest && oldest.expiresAt <= nowSeconds; oldest = this.#order.peek()) this.#forgetOldest();
    const id = `${apiKey}:${nonce.toLowerCase()}`;
    if (this.#seen.has(id)) return true;
    if (this.#seen.size >= this.#max) this.#forgetOldest();
    this.#seen.add(id);
    this.#order.push({ id, expiresAt });
    return false;
  }

  /** Forgets every nonce. */
  clear(): void {
    this.#seen.clear();
    this.#order.clear();
  }

  #forgetOldest(): void {
    const oldest = this.#order.shift();
    if (oldest) this.#seen.delete(oldest.id);
  }
}

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
    return { ok: false, code: 'AUTH_MISSING', detail: 'The request has no Authorization header; sign it with HMAC-SHA256.' };
  }
  const parts = parseAuthorization(input.authorization);
  if (!parts) {
    return {
      ok: false,
      code: 'AUTH_MALFORMED',
      detail: 'The Authorization header must be "HMAC-SHA256 <apiKey>:<signature>:<nonce>:<timestamp>" with a GUID nonce (32 hex characters, dashes allowed) and a Unix-seconds timestamp.',
    };
  }
  const { apiKey, signature, nonce, timestamp } = parts;
  const secret = input.getSecret(apiKey);
  if (secret === undefined) return { ok: false, code: 'AUTH_UNKNOWN_KEY', detail: `Unknown api key "${apiKey}".`, apiKey };

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
    method: input.method, url: input.url, body: input.body, apiKey, timestamp, nonce, bodyHash: input.bodyHash ?? false,
  });
  const given = fromBase64(signature);
  const base64 = input.secretEncoding === 'base64';
  const key = base64 ? fromBase64(secret) : secret;
  const valid = given !== undefined && key !== undefined && (input.hmac && !base64
    ? constantTimeEqual(given, await input.hmac(secret, stringToSign))
    : await crypto.subtle.verify('HMAC', await importHmacKey(key, 'verify'), given, encoder.encode(stringToSign)));
  if (!valid) {
    const hint = input.bodyHash ? ' This server requires the body hash: sign with bodyHash on.' : '';
    return { ok: false, code: 'AUTH_SIGNATURE_MISMATCH', detail: `The signature does not match the request.${hint}`, apiKey, stringToSign };
  }
  if (input.nonces?.checkAndRecord(apiKey, nonce, now, Number(timestamp) + tolerance + 1)) {
    return { ok: false, code: 'AUTH_NONCE_REUSED', detail: 'This nonce was already used; every request needs a fresh one.', apiKey };
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

async function hashBody(body: SignableBody): Promise<string> {
  const bytes = toBytes(body);
  if (!bytes || bytes.byteLength === 0) return '';
  return toBase64(new Uint8Array(await crypto.subtle.digest('SHA-256', bytes)));
}

function toBytes(body: SignableBody): Uint8Array<ArrayBuffer> | undefined {
  if (body === null || body === undefined) return undefined;
  if (typeof body === 'string') return encoder.encode(body);
  if (body instanceof ArrayBuffer) return new Uint8Array(body);
  return new Uint8Array(body.buffer.slice(body.byteOffset, body.byteOffset + body.byteLength) as ArrayBuffer);
}

function importHmacKey(key: string | Uint8Array<ArrayBuffer>, usage: 'sign' | 'verify'): Promise<CryptoKey> {
  return crypto.subtle.importKey('raw', typeof key === 'string' ? encoder.encode(key) : key, { name: 'HMAC', hash: 'SHA-256' }, false, [usage]);
}

/** The HMAC key of a secret: the string itself (hashed as UTF-8) or the bytes its base64 encodes. */
function hmacKeyOf(secret: string, encoding: SecretEncoding, caller: string): string | Uint8Array<ArrayBuffer> {
  if (encoding === 'utf8') return secret;
  if (encoding !== 'base64') throw new TypeError(`${caller}: secretEncoding must be 'utf8' or 'base64'.`);
  const bytes = fromBase64(secret);
  // Never quote the secret: say only what is wrong with it.
  if (!bytes) throw new TypeError(`${caller}: apiSecret is not base64, as secretEncoding 'base64' requires.`);
  return bytes;
}

function toBase64(bytes: Uint8Array): string {
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary);
}

function fromBase64(text: string): Uint8Array<ArrayBuffer> | undefined {
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(text)) return undefined;
  try {
    return Uint8Array.from(atob(text), (c) => c.charCodeAt(0));
  } catch {
    return undefined;
  }
}
