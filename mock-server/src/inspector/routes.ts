/**
 * The control routes of what the mock saw, and the inspector page's model (contract section 7):
 * `GET /__mock/requests` (the journal, newest first, filtered), `GET /__mock/events` (domain events, oldest
 * first), `GET /__mock/events/stream` (both, live, as server-sent events) and `GET /__mock/inspect` (the page's
 * model of a tenant). Like the other control routes, `?apiKey=` names the tenant (default: the first).
 * These are reads: the journal does not record them, so the page watching it never feeds it.
 * @module
 */
import { http, type HttpHandler } from 'msw';
import * as z from 'zod';
import type { TenantControl } from '../control';
import { notFound } from '../domain/errors';
import { asProblem, jsonReply, problemReply, toResponse } from '../http/problem';
import { routePattern, type MockRuntime } from '../http/runtime';
import { validateParts } from '../http/validation';
import { eventStreamResponse } from '../observe';
import { inspectorView } from './view';

const zSeq = z.string().regex(/^\d{1,15}$/, 'A sequence number').transform(Number);
const zLimit = z.string().regex(/^\d{1,4}$/, 'A whole number').transform(Number).pipe(z.number().min(1).max(5000));

const zRequestsQuery = z.strictObject({
  apiKey: z.string().optional(),
  operation: z.string().max(100).optional(),
  status: z.string().regex(/^([1-5]\d\d|[1-5]xx|0)$/i, 'A status (409) or a class (4xx)').optional(),
  code: z.string().max(100).optional(),
  requestId: z.string().max(100).optional(),
  method: z.string().regex(/^[A-Za-z]{1,10}$/).optional(),
  seq: zSeq.optional(),
  after: zSeq.optional(),
  limit: zLimit.optional(),
  bodies: z.enum(['true', 'false']).optional(),
});

const zEventsQuery = z.strictObject({
  apiKey: z.string().optional(),
  type: z.string().max(500).optional(),
  id: z.string().max(100).optional(),
  requestId: z.string().max(100).optional(),
  after: zSeq.optional(),
  limit: zLimit.optional(),
});

const zStreamQuery = z.strictObject({ apiKey: z.string().optional(), lastEventId: zSeq.optional() });
const zInspectQuery = z.strictObject({ apiKey: z.string().optional() });

/** The handlers of the journal, the events, their stream and the page model. */
export function inspectorHandlers(runtime: MockRuntime, control: (apiKey: string | null) => TenantControl | undefined): HttpHandler[] {
  const route = <Q extends z.ZodType>(path: string, schema: Q, run: (control: TenantControl, query: z.infer<Q>, request: Request) => Response) =>
    http.get(routePattern(runtime, path), ({ request }) => {
      const url = new URL(request.url);
      const requestId = runtime.nextRequestId();
      try {
        const [query] = validateParts([{ location: 'query', schema, value: Object.fromEntries(url.searchParams) }]) as [z.infer<Q>];
        const apiKey = url.searchParams.get('apiKey');
        const tenant = control(apiKey);
        if (!tenant) throw notFound('tenant with api key', apiKey ?? '');
        return run(tenant, query, request);
      } catch (error) {
        return toResponse(problemReply(asProblem(error), requestId, url.pathname));
      }
    });
  const json = (body: unknown) => toResponse(jsonReply(body, 200, runtime.nextRequestId()), { 'cache-control': 'no-store' });

  return [
    route('/__mock/requests', zRequestsQuery, (tenant, q) => {
      const filter = {
        ...(q.operation !== undefined ? { operation: q.operation } : {}), ...(q.status !== undefined ? { status: q.status } : {}),
        ...(q.code !== undefined ? { code: q.code } : {}), ...(q.requestId !== undefined ? { requestId: q.requestId } : {}),
        ...(q.method !== undefined ? { method: q.method } : {}), ...(q.after !== undefined ? { after: q.after } : {}),
        ...(q.seq !== undefined ? { seq: q.seq } : {}), limit: q.limit ?? 100,
      };
      const items = q.bodies === 'false' ? runtime.observer.requestSummaries(tenant.apiKey, filter) : runtime.observer.requests(tenant.apiKey, filter);
      return json({ items, ...runtime.observer.stats(tenant.apiKey).requests });
    }),
    route('/__mock/events/stream', zStreamQuery, (tenant, q, request) => {
      const header = request.headers.get('last-event-id');
      const lastEventId = q.lastEventId ?? (header !== null && /^\d{1,15}$/.test(header) ? Number(header) : undefined);
      return eventStreamResponse(runtime.observer, tenant.apiKey, { ...(lastEventId !== undefined ? { lastEventId } : {}), signal: request.signal });
    }),
    route('/__mock/events', zEventsQuery, (tenant, q) => {
      const items = tenant.events({
        ...(q.type !== undefined ? { type: q.type.split(',').map((t) => t.trim()).filter(Boolean) } : {}),
        ...(q.id !== undefined ? { id: q.id } : {}), ...(q.requestId !== undefined ? { requestId: q.requestId } : {}),
        ...(q.after !== undefined ? { after: q.after } : {}), ...(q.limit !== undefined ? { limit: q.limit } : {}),
      });
      return json({ items, ...runtime.observer.stats(tenant.apiKey).events });
    }),
    route('/__mock/inspect', zInspectQuery, (tenant) => {
      const state = tenant.snapshot();
      return json({
        ...inspectorView({
          state, frozen: tenant.clock.frozen(), now: tenant.clock.now().getTime(), tenants: runtime.tenants.all().map((t) => t.apiKey),
          events: runtime.observer.events(tenant.apiKey, { type: ['approval.statusChanged', 'authorization.'] }),
          faults: runtime.tenants.get(tenant.apiKey)?.faults ?? [],
        }),
        journal: runtime.observer.stats(tenant.apiKey),
      });
    }),
  ];
}
