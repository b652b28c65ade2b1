/**
 * The signature stage: the SDK's `verifySignature` (one implementation of the rules and their order), with the
 * HMAC the platform does fastest (node:crypto on the server; elsewhere a Web Crypto key imported once per
 * secret) and the bounded nonce cache. A rejection is a 401 ProblemError with its AUTH_ code.
 * @module
 */
import { verifySignature } from 'card-issuing-sdk/server';
import { ProblemError } from '../domain/errors';
import type { Tenant } from '../store';
import type { PipelineRequest } from './request';
import { wallSeconds } from './nonces';
import type { MockRuntime } from './runtime';

/** The tenant whose key signed the request; throws 401 with the AUTH_ code otherwise. */
export async function verifiedTenant(runtime: MockRuntime, request: PipelineRequest): Promise<Tenant> {
  const result = await verifySignature({
    method: request.method,
    url: signedUrl(runtime, request),
    body: request.body,
    authorization: request.header('authorization'),
    getSecret: (apiKey) => runtime.tenants.secretOf(apiKey),
    nonces: runtime.nonces,
    now: wallSeconds(),
    hmac: runtime.hmac,
    bodyHash: runtime.bodyHash,
    secretEncoding: runtime.secretEncoding,
  });
  if (!result.ok) {
    throw new ProblemError(
      result.code,
      result.detail,
      result.code === 'AUTH_SIGNATURE_MISMATCH' && result.stringToSign !== undefined
        ? { stringToSign: result.stringToSign }
        : {},
    );
  }
  return runtime.tenants.get(result.apiKey)!;
}

/**
 * The URL the client signed: the request as received (its target never normalised), or, behind a proxy or tunnel
 * that rewrites `Host`, the public URL the client used followed by the same target.
 */
export function signedUrl(runtime: MockRuntime, request: PipelineRequest): string {
  if (runtime.publicUrl === undefined) return request.url;
  const schemeEnd = request.url.indexOf('://');
  const pathStart = request.url.indexOf('/', schemeEnd < 0 ? 0 : schemeEnd + 3);
  return runtime.publicUrl + (pathStart < 0 ? '/' : request.url.slice(pathStart));
}

const encoder = new TextEncoder();

/**
 * HMAC-SHA256 with Web Crypto, the key of each secret imported once and kept (an import per request would cost
 * more than the HMAC). At most `max` keys are kept; the oldest goes first.
 */
export function webCryptoHmac(max = 64): (secret: string, message: string) => Promise<Uint8Array> {
  const keys = new Map<string, Promise<CryptoKey>>();
  return async (secret, message) => {
    let key = keys.get(secret);
    if (!key) {
      key = crypto.subtle.importKey('raw', encoder.encode(secret), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
      keys.set(secret, key);
      if (keys.size > max) keys.delete(keys.keys().next().value!);
    }
    return new Uint8Array(await crypto.subtle.sign('HMAC', await key, encoder.encode(message)));
  };
}
