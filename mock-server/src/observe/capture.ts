/**
 * The journal's seam into the request pipeline: an exchange listener (the pipeline's `onExchange`) that turns each
 * answered request into a journal record. API operations and control actions are recorded; reads of `/__mock/`
 * are not, so an inspector watching the journal never feeds it.
 * @module
 */
import type { Exchange } from '../pipeline/runtime';
import type { ExchangeRecord } from './journal';
import { tenantOfHeader } from '../pipeline/runtime';
import type { ObservedRuntime } from './runtime';

/** The listener that records every exchange of `runtime` in its observer's journal. */
export function journalListener(runtime: ObservedRuntime): (exchange: Exchange) => void {
  return (exchange) => {
    const control = exchange.operationId?.startsWith('control:') ? parseControl(exchange.operationId) : undefined;
    if (control?.method === 'GET') return;
    const isControl = exchange.request.path.includes('/__mock');
    if (exchange.operationId === undefined && exchange.request.method === 'GET' && isControl) return;
    const operationId = control
      ? controlOperationId(control.path, exchange.request.path)
      : (exchange.operationId ?? null);
    runtime.observer.record(recordOf(exchange, tenantOf(runtime, exchange, isControl), operationId));
  };
}

/** One object per exchange, built whole (no spread copies): it is what the journal keeps. */
function recordOf(exchange: Exchange, tenant: string, operationId: string | null): ExchangeRecord {
  const { request, response } = exchange;
  const record: ExchangeRecord = {
    tenant,
    method: request.method,
    target: targetOf(request.url),
    operationId,
    status: exchange.status,
    code: exchange.code ?? null,
    durationMs: exchange.durationMs,
    // The request id, headers and bodies as they are (the journal redacts when it is read, which is rarer).
    requestId: response ? exchange.requestId : null,
    requestHeaders: request.headers,
    requestBody: request.body === undefined || request.body === '' ? null : request.body,
    responseHeaders: response ? response.headers : {},
    responseBody: response && !response.stream && response.body !== '' ? response.body : null,
    startedAt: Date.now() - exchange.durationMs,
  };
  if (exchange.override !== undefined) record.override = exchange.override;
  return record;
}

/** The tenant it acted on; else the one its ?apiKey= (control) or its Authorization header (API) names; else the default. */
function tenantOf(runtime: ObservedRuntime, exchange: Exchange, isControl: boolean): string {
  if (exchange.apiKey !== undefined) return exchange.apiKey;
  const { request } = exchange;
  const named = isControl
    ? new URL(request.url).searchParams.get('apiKey')
    : tenantOfHeader(runtime, request.headers.authorization)?.apiKey;
  return named && runtime.tenants.get(named) ? named : runtime.tenants.default.apiKey;
}

/** The path and query of an absolute URL, as received. */
function targetOf(url: string): string {
  const scheme = url.indexOf('://');
  const path = url.indexOf('/', scheme < 0 ? 0 : scheme + 3);
  return path < 0 ? '/' : url.slice(path);
}

/** `control:POST /__mock/kyc/{userId}` → its method and route path. */
function parseControl(operationId: string): { method: string; path: string } {
  const [method = '', path = ''] = operationId.slice('control:'.length).split(' ');
  return { method, path };
}

/**
 * The journal name of a control route: `mock.` and its literal path segments, with `{action}` replaced by the
 * action requested (`/__mock/corporates/{c}/approvals/{a}/{action}` → `mock.corporates.approvals.accept`).
 */
export function controlOperationId(routePath: string, requestPath: string): string {
  const actual = requestPath.split('/').filter((s) => s !== '');
  const route = routePath.split('/').filter((s) => s !== '');
  // The route is matched at the end of the request path (a baseUrl may add a prefix in front).
  const offset = actual.length - route.length;
  const segments = route.flatMap((segment, i) => {
    if (segment === '__mock') return [];
    if (segment === '{action}') return [actual[offset + i] ?? 'action'];
    return segment.startsWith('{') ? [] : [segment];
  });
  return ['mock', ...segments].join('.');
}
