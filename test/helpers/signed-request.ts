/**
 * The one way tests send a raw request signed as contract section 2 (for what the typed client would refuse to
 * send: bad bodies, bad or missing signatures, foreign tenants). The suites' own helpers (`send` in test/mock,
 * `signedFetch` in test/server, the contract harness's `send`) bind a base URL or a recording fetch to it.
 */
import { signRequest } from 'card-issuing-sdk';

/** A tenant's credentials. */
export interface Credentials {
  apiKey: string;
  apiSecret: string;
}

/** The mock's default tenant (contract section 1). */
export const TEST_CREDENTIALS: Credentials = { apiKey: 'test_key', apiSecret: 'test_secret' };

/** A raw request; signed with `credentials` unless they are `null`. */
export interface RawRequest {
  method: string;
  url: string;
  /** A string or bytes is sent as is; anything else as JSON. A body sets `Content-Type: application/json`. */
  body?: unknown;
  headers?: Record<string, string>;
  /** Default {@link TEST_CREDENTIALS}; `null` sends the request unsigned. */
  credentials?: Credentials | null;
  /** Signs with this timestamp (Unix seconds) instead of now. */
  timestamp?: number | string;
  /** Signs with this nonce instead of a fresh one. */
  nonce?: string;
  /** Sent as the `Authorization` header of an unsigned request (e.g. a malformed one). */
  authorization?: string;
}

/** The headers and body of `request`, signed: what goes to `fetch`. */
export async function signedInit(
  request: RawRequest,
): Promise<{ method: string; headers: Record<string, string>; body?: string | Uint8Array }> {
  const { method, url } = request;
  const body =
    request.body === undefined || typeof request.body === 'string' || request.body instanceof Uint8Array
      ? request.body
      : JSON.stringify(request.body);
  const headers: Record<string, string> = body === undefined ? {} : { 'content-type': 'application/json' };
  // Lower-cased, so that a caller's `Content-Type` replaces the default instead of joining it.
  for (const [name, value] of Object.entries(request.headers ?? {})) headers[name.toLowerCase()] = value;
  const credentials = request.credentials === undefined ? TEST_CREDENTIALS : request.credentials;
  if (credentials) {
    const { authorization } = await signRequest({
      method,
      url,
      ...(body === undefined ? {} : { body }),
      ...credentials,
      ...(request.timestamp === undefined ? {} : { timestamp: request.timestamp }),
      ...(request.nonce === undefined ? {} : { nonce: request.nonce }),
    });
    headers.authorization = authorization;
  } else if (request.authorization !== undefined) {
    headers.authorization = request.authorization;
  }
  return { method, headers, ...(body === undefined ? {} : { body }) };
}

/** Sends `request` signed (see {@link RawRequest}) through `fetch` (default the global one). */
export async function sendSigned(request: RawRequest, fetchImpl: typeof fetch = fetch): Promise<Response> {
  return fetchImpl(request.url, (await signedInit(request)) as RequestInit);
}
