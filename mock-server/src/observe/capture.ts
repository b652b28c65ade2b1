/**
 * The journal's seam into the request pipeline: an exchange listener (the pipeline's `onExchange`) that turns each
 * answered request into a journal record. API operations and control actions are recorded; reads of `/__mock/`
 * are not, so an inspector watching the journal never feeds it.
 * @module
 */
import type { Exchange, MockRuntime } from '../pipeline/runtime';
import { tenantOfHeader } from '../pipeline/runtime';
import { redactHeaders } from './redact';

/** The listener that records every exchange of `runtime` in its observer's journal. */
export function journalListener(runtime: MockRuntime): (exchange: Exchange) => void {
  return (exchange) => {
    const control = exchange.operationId?.startsWith('control:') ? parseControl(exchange.operationId) : undefined;
    if (control?.method === 'GET') return;
    const url = new URL(exchange.request.url);
    if (exchange.operationId === undefined && exchange.request.method === 'GET' && url.pathname.includes('/__mock')) return;
    // The tenant it acted on; else the one its ?apiKey= (control) or its Authorization header (API) names; else the default.
    const named = url.pathname.includes('/__mock') ? url.searchParams.get('apiKey') : tenantOfHeader(runtime, exchange.request.headers.authorization)?.apiKey;
    const tenant = exchange.apiKey ?? (named && runtime.tenants.get(named) ? named : runtime.tenants.default.apiKey);
    const response = exchange.response;
    runtime.observer.record({
      tenant,
      method: exchange.request.method,
      target: url.pathname + url.search,
      operationId: control ? controlOperationId(control.path, url.pathname) : exchange.operationId ?? null,
      status: exchange.status,
      code: exchange.code ?? null,
      durationMs: exchange.durationMs,
      requestId: response ? exchange.requestId : null,
      requestHeaders: redactHeaders(Object.entries(exchange.request.headers)),
      requestBody: exchange.request.body === undefined || exchange.request.body === '' ? null : exchange.request.body,
      responseHeaders: response ? redactHeaders(Object.entries(response.headers)) : {},
      responseBody: response && !response.stream && response.body !== '' ? response.body : null,
      startedAt: Date.now() - exchange.durationMs,
    });
  };
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
