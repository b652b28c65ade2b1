/**
 * What a request's signature covers (contract section 2), the one definition the signer and the verifier share:
 *
 * ```
 * stringToSign = apiKey + METHOD + lowercase(absoluteUrl) + timestamp + nonce [+ base64(SHA-256(body))]
 * ```
 *
 * The body hash is not part of the published scheme; a deployment that wants the body covered turns on `bodyHash`
 * at both ends, and it is then appended when the request has a body.
 * @module
 */
import { toBase64, utf8Encode } from '../bytes';

/** The raw bytes of a request body, in any of the forms a fetch `Request` gives them. */
export type SignableBody = string | Uint8Array | ArrayBuffer | null | undefined;

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
  const base = publishedStringToSign(input);
  return input.bodyHash ? base + (await hashBody(input.body)) : base;
}

/** The five published parts: what is signed without the body hash, or with it when the request has no body. */
export function publishedStringToSign(input: {
  method: string;
  url: string;
  apiKey: string;
  timestamp: string;
  nonce: string;
}): string {
  return `${input.apiKey}${input.method.toUpperCase()}${input.url.toLowerCase()}${input.timestamp}${input.nonce}`;
}

/** True when a body has bytes (an empty body is signed as none). */
export function hasBytes(body: SignableBody): boolean {
  if (body === null || body === undefined) return false;
  return typeof body === 'string' ? body.length > 0 : body.byteLength > 0;
}

async function hashBody(body: SignableBody): Promise<string> {
  const bytes = toBytes(body);
  if (!bytes || bytes.byteLength === 0) return '';
  return toBase64(new Uint8Array(await crypto.subtle.digest('SHA-256', bytes)));
}

function toBytes(body: SignableBody): Uint8Array<ArrayBuffer> | undefined {
  if (body === null || body === undefined) return undefined;
  if (typeof body === 'string') return utf8Encode(body);
  if (body instanceof ArrayBuffer) return new Uint8Array(body);
  return new Uint8Array(body.buffer.slice(body.byteOffset, body.byteOffset + body.byteLength) as ArrayBuffer);
}
