/**
 * The journal's hook into the msw handlers: times an exchange, keeps the raw request and response text, and
 * hands them to the observer. One wrapper around a resolver; the pipeline itself is untouched.
 * @module
 */
import { codeOf } from './journal';
import type { Observer } from './observer';
import { redactHeaders } from './redact';

/** What the journal names an exchange by. */
export interface CaptureInfo {
  /** The tenant the exchange belongs to (its api key). */
  tenant: string;
  /** The operationId or control action; null for a route that does not exist. */
  operationId: string | null;
}

/**
 * Runs `respond` for `request` and records the exchange. The request body is read from a clone before the
 * pipeline reads it, the response body from a clone after; the response itself goes back untouched.
 */
export async function captureExchange(observer: Observer, info: CaptureInfo, request: Request, respond: () => Promise<Response>): Promise<Response> {
  const startedAt = Date.now();
  const started = performance.now();
  const requestBody = request.method === 'GET' || request.method === 'HEAD' || request.body === null ? null : await request.clone().text();
  const response = await respond();
  const dropped = response.type === 'error';
  const responseBody = dropped ? null : await response.clone().text();
  const status = dropped ? 0 : response.status;
  const url = new URL(request.url);
  observer.record({
    tenant: info.tenant,
    method: request.method.toUpperCase(),
    target: url.pathname + url.search,
    operationId: info.operationId,
    status,
    code: dropped ? 'NETWORK_ERROR' : codeOf(status, responseBody),
    durationMs: performance.now() - started,
    requestId: dropped ? null : response.headers.get('x-request-id'),
    requestHeaders: redactHeaders(request.headers),
    requestBody: requestBody === '' ? null : requestBody,
    responseHeaders: dropped ? {} : redactHeaders(response.headers),
    responseBody: responseBody === '' ? null : responseBody,
    startedAt,
  });
  return response;
}

/**
 * The journal name of a control route: `mock.` and its literal path segments, with `{action}` replaced by the
 * action requested (`/__mock/corporates/{c}/approvals/{a}/{action}` → `mock.corporates.approvals.accept`).
 */
export function controlOperationId(routePath: string, params: Record<string, unknown>): string {
  const segments = routePath.split('/').filter((s) => s !== '' && s !== '__mock').flatMap((s) => {
    if (s === '{action}') return [String(params.action ?? 'action')];
    return s.startsWith('{') ? [] : [s];
  });
  return ['mock', ...segments].join('.');
}
