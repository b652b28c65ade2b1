/**
 * The control routes of what the mock saw, and the inspector page's model (contract section 7):
 * `GET /__mock/requests` (the journal, newest first, filtered), `GET /__mock/events` (domain events, oldest
 * first), `GET /__mock/events/stream` (both, live, as server-sent events), `GET /__mock/usage` (what the consumer
 * used, when the mock records usage) and `GET /__mock/inspect` (the page's model of a tenant). Like the other control routes, `?apiKey=` names the tenant (default: the first).
 * These are reads: the journal does not record them, so the page watching it never feeds it.
 * @module
 */
import * as z from 'zod';
import type { RouteDef, TenantControl } from '../control';
import type { ObservedRuntime } from '../observe/runtime';
import { validateParts } from '../pipeline/validation';
import { eventStream } from '../observe/sse';
import { inspectorView } from './view';

const zSeq = z
  .string()
  .regex(/^\d{1,15}$/, 'A sequence number')
  .transform(Number);
const zLimit = z
  .string()
  .regex(/^\d{1,4}$/, 'A whole number')
  .transform(Number)
  .pipe(z.number().min(1).max(5000));

const zRequestsQuery = z.strictObject({
  apiKey: z.string().optional(),
  operation: z.string().max(100).optional(),
  status: z
    .string()
    .regex(/^([1-5]\d\d|[1-5]xx|0)$/i, 'A status (409) or a class (4xx)')
    .optional(),
  code: z.string().max(100).optional(),
  requestId: z.string().max(100).optional(),
  method: z
    .string()
    .regex(/^[A-Za-z]{1,10}$/)
    .optional(),
  seq: zSeq.optional(),
  after: zSeq.optional(),
  limit: zLimit.optional(),
  bodies: z.enum(['true', 'false']).optional(),
  /** `true`, `false`, or an override's id. */
  overridden: z
    .string()
    .regex(/^(true|false|override_\d{1,15})$/, 'true, false or an override id')
    .optional(),
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
const zUsageQuery = zInspectQuery;

function query<S extends z.ZodType>(schema: S, url: URL): z.infer<S> {
  const [parsed] = validateParts([{ location: 'query', schema, value: Object.fromEntries(url.searchParams) }]) as [
    z.infer<S>,
  ];
  return parsed;
}

/** Drops the keys whose value is undefined (the filters are exact-optional). */
function defined<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T;
}

/** The routes of the journal, the events, their stream and the page model. */
export function inspectorRoutes(runtime: ObservedRuntime): RouteDef[] {
  const stats = (control: TenantControl) => runtime.observer.stats(control.apiKey);
  return [
    {
      method: 'get',
      path: '/__mock/requests',
      run: ({ control, url }) => {
        const q = query(zRequestsQuery, url);
        const filter = requestFilter(q);
        const items =
          q.bodies === 'false' ? runtime.observer.requestSummaries(control.apiKey, filter) : control.requests(filter);
        return { status: 200, body: { items, ...stats(control).requests } };
      },
    },
    {
      method: 'get',
      path: '/__mock/usage',
      run: ({ control, url }) => {
        query(zUsageQuery, url);
        return { status: 200, body: control.usage() };
      },
    },
    {
      method: 'get',
      path: '/__mock/events/stream',
      run: ({ control, url, header }) => {
        const q = query(zStreamQuery, url);
        const last = header('last-event-id');
        const lastEventId = q.lastEventId ?? (last !== undefined && /^\d{1,15}$/.test(last) ? Number(last) : undefined);
        return {
          status: 200,
          headers: {
            'content-type': 'text/event-stream; charset=utf-8',
            'cache-control': 'no-store',
            'x-accel-buffering': 'no',
          },
          stream: eventStream(runtime.observer, control.apiKey, defined({ lastEventId })),
        };
      },
    },
    {
      method: 'get',
      path: '/__mock/events',
      run: ({ control, url }) => {
        const items = control.events(eventFilter(query(zEventsQuery, url)));
        return { status: 200, body: { items, ...stats(control).events } };
      },
    },
    {
      method: 'get',
      path: '/__mock/inspect',
      run: ({ control, url }) => {
        query(zInspectQuery, url);
        return { status: 200, body: { ...pageModel(runtime, control), journal: stats(control) } };
      },
    },
  ];
}

/** The journal's filter from the query (100 entries unless a limit is given; `overridden`: an id or a yes/no). */
function requestFilter(q: z.infer<typeof zRequestsQuery>) {
  return defined({
    operation: q.operation,
    status: q.status,
    code: q.code,
    requestId: q.requestId,
    method: q.method,
    seq: q.seq,
    after: q.after,
    limit: q.limit ?? 100,
    overridden:
      q.overridden === undefined
        ? undefined
        : q.overridden.startsWith('override_')
          ? q.overridden
          : q.overridden === 'true',
  });
}

/** The events' filter from the query (`type`: a comma-separated list). */
function eventFilter(q: z.infer<typeof zEventsQuery>) {
  return defined({
    type:
      q.type === undefined
        ? undefined
        : q.type
            .split(',')
            .map((t) => t.trim())
            .filter(Boolean),
    id: q.id,
    requestId: q.requestId,
    after: q.after,
    limit: q.limit,
  });
}

/** The inspector page's model of the tenant, from a settled snapshot. */
function pageModel(runtime: ObservedRuntime, control: TenantControl) {
  return inspectorView({
    state: control.snapshot(),
    frozen: control.clock.frozen(),
    now: control.clock.now().getTime(),
    // The page never signs: with signatures checked, an unsigned control request reaches the default tenant
    // only, so the page offers no other (with --no-auth it may switch to any).
    tenants: runtime.verifySignatures ? [control.apiKey] : runtime.tenants.all().map((t) => t.apiKey),
    events: runtime.observer.events(control.apiKey, { type: 'approval.statusChanged' }),
    faults: control.faults.list(),
    overrides: control.overrides.list(),
  });
}
