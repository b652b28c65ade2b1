/**
 * The signature stage: the SDK's signature verifier (one implementation of the rules and their order), made once
 * per mock (each secret's key kept: a node:crypto key object on Node, synchronous; a Web Crypto key elsewhere),
 * and the bounded nonce cache. A rejection is a 401 ProblemError with its AUTH_ code.
 * @module
 */
import type { VerifySignatureResult } from 'card-issuing-sdk/server';
import { ProblemError } from '../domain/errors';
import type { Tenant } from '../store';
import type { PipelineRequest } from './request';
import { wallSeconds } from './nonces';
import type { MockRuntime } from './runtime';

/**
 * The tenant whose key signed the request; throws 401 with the AUTH_ code otherwise. Synchronous where the
 * verifier is (Node, no body hash), so that a request waits for no promise it does not need.
 */
export function verifiedTenant(runtime: MockRuntime, request: PipelineRequest): Tenant | Promise<Tenant> {
  const result = runtime.signatures.verify({
    method: request.method,
    url: signedUrl(runtime, request),
    body: request.body,
    authorization: request.header('authorization'),
    now: wallSeconds(),
  });
  return result instanceof Promise ? result.then((r) => tenantOf(runtime, r)) : tenantOf(runtime, result);
}

function tenantOf(runtime: MockRuntime, result: VerifySignatureResult): Tenant {
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
