/**
 * The control API over HTTP, exactly as contract section 7's table: MSW handlers under `/__mock/`, so they work
 * in-process, over node:http and in the service worker alike. Never signed; `?apiKey=` names the tenant
 * (default: the first credentials); bad bodies are 400 problem+json; every response carries `X-Request-Id`.
 * @module
 */
import { http, type HttpHandler } from 'msw';
import * as z from 'zod';
import { ProblemError, notFound } from '../domain/errors';
import { catchAll } from '../http/handlers';
import { asProblem, jsonReply, problemReply, toResponse } from '../http/problem';
import { routePattern, type MockRuntime } from '../http/runtime';
import { captureExchange, controlOperationId } from '../observe/capture';
import { validateParts } from '../http/validation';
import type { Credentials } from '../store';
import { zClockAdvanceBody, zCredentialsBody, zFaultBody, zIncomingDepositBody, zKycBody, zRequestChangeBody } from './schemas';
import type { TenantControl } from './tenant-control';

/** What the routes need from the mock. */
export interface ControlApi {
  /** The control of the tenant of `apiKey` (null: the default tenant); undefined when no such tenant exists. */
  control(apiKey: string | null): TenantControl | undefined;
  /** Adds a tenant (or finds the same credentials); 409 API_KEY_EXISTS for a known key with another secret. */
  addCredentials(credentials: Credentials): { created: boolean; control: TenantControl };
}

interface RouteArgs {
  control: TenantControl;
  params: Record<string, string>;
  body: unknown;
  url: URL;
}

interface RouteDef {
  method: 'get' | 'post' | 'put';
  path: string;
  params?: z.ZodType;
  body?: z.ZodType;
  /** The body may be absent (then `body` is `{}`). */
  optionalBody?: boolean;
  run(args: RouteArgs): { status: number; body: unknown };
}

const uuid = z.uuid();

/** The `/__mock/` handlers, and a 404 ROUTE_NOT_FOUND catch-all for any other path under `/__mock`. */
export function controlHandlers(runtime: MockRuntime, api: ControlApi): HttpHandler[] {
  const ok = (body: unknown, status = 200) => ({ status, body });
  const clockView = (control: TenantControl) => ({ now: control.clock.now().toISOString(), frozen: control.clock.frozen() });
  const routes: RouteDef[] = [
    { method: 'get', path: '/__mock/fixtures', run: ({ control }) => ok(control.fixtures()) },
    { method: 'post', path: '/__mock/reset', run: ({ control }) => (control.reset(), ok(control.fixtures())) },
    { method: 'get', path: '/__mock/clock', run: ({ control }) => ok(clockView(control)) },
    {
      method: 'post', path: '/__mock/clock/advance', body: zClockAdvanceBody,
      run: ({ control, body }) => (control.clock.advance((body as { seconds: number }).seconds), ok(clockView(control))),
    },
    {
      method: 'get', path: '/__mock/outbox',
      run: ({ control, url }) => ok({ items: control.outbox(url.searchParams.get('userId') ?? undefined) }),
    },
    {
      method: 'post', path: '/__mock/kyc/{userId}', params: z.object({ userId: uuid }), body: zKycBody,
      run: ({ control, params, body }) => ok(control.kyc(params.userId!, (body as z.infer<typeof zKycBody>).status)),
    },
    {
      method: 'post', path: '/__mock/deposits/incoming', body: zIncomingDepositBody,
      run: ({ control, body }) => ok(control.deposits.incoming(body as z.infer<typeof zIncomingDepositBody>), 201),
    },
    {
      method: 'post', path: '/__mock/users/{userUuid}/complete-registration', params: z.object({ userUuid: uuid }),
      run: ({ control, params }) => ok(control.users.completeRegistration(params.userUuid!)),
    },
    {
      method: 'post', path: '/__mock/corporates/{corporateUuid}/approvals/{approvalUuid}/{action}',
      params: z.object({ corporateUuid: uuid, approvalUuid: uuid, action: z.enum(['cancel', 'reject', 'request-change']) }),
      body: zRequestChangeBody, optionalBody: true,
      run: ({ control, params, body }) => {
        const { corporateUuid, approvalUuid, action } = params as { corporateUuid: string; approvalUuid: string; action: string };
        if (action === 'cancel') return ok(control.approvals.cancel(corporateUuid, approvalUuid));
        if (action === 'reject') return ok(control.approvals.reject(corporateUuid, approvalUuid));
        return ok(control.approvals.requestChange(corporateUuid, approvalUuid, body as z.infer<typeof zRequestChangeBody>), 201);
      },
    },
    {
      method: 'post', path: '/__mock/cards/{cardId}/{action}', params: z.object({ cardId: uuid, action: z.enum(['lock', 'unlock']) }),
      run: ({ control, params }) => ok(params.action === 'lock' ? control.cards.lock(params.cardId!) : control.cards.unlock(params.cardId!)),
    },
    { method: 'get', path: '/__mock/state', run: ({ control }) => ok(control.snapshot()) },
    {
      method: 'put', path: '/__mock/state',
      run: ({ control, body }) => {
        control.restore(body as Parameters<TenantControl['restore']>[0]);
        return ok({ restored: true, apiKey: control.apiKey });
      },
    },
    {
      method: 'post', path: '/__mock/faults', body: zFaultBody,
      run: ({ control, body }) => (control.faults.inject(body as z.infer<typeof zFaultBody>), ok({ injected: body }, 201)),
    },
    {
      method: 'post', path: '/__mock/credentials', body: zCredentialsBody,
      run: ({ body }) => {
        const { created, control } = api.addCredentials(body as Credentials);
        return ok(control.fixtures(), created ? 201 : 200);
      },
    },
  ];

  const handlers = routes.map((route) => http[route.method](routePattern(runtime, route.path), ({ request, params }) =>
    // The journal records control actions (a page's or a test's moves), not reads, which the inspector makes all the time.
    route.method === 'get' ? answer(route, request, params)
      : captureExchange(runtime.observer, {
        tenant: new URL(request.url).searchParams.get('apiKey') ?? runtime.tenants.default.apiKey, operationId: controlOperationId(route.path, params),
      }, request, () => answer(route, request, params))));

  async function answer(route: RouteDef, request: Request, params: Record<string, unknown>): Promise<Response> {
    const requestId = runtime.nextRequestId();
    const url = new URL(request.url);
    try {
      const apiKey = url.searchParams.get('apiKey');
      const text = await request.text();
      let body: unknown;
      if (text.trim() !== '') {
        try {
          body = JSON.parse(text);
        } catch {
          throw new ProblemError(400, 'MALFORMED_JSON', 'The request body is not valid JSON.');
        }
      } else if (route.optionalBody) {
        body = {};
      }
      const [parsedParams, parsedBody] = validateParts([
        { location: 'path', schema: route.params, value: params },
        { location: 'body', schema: route.body, value: body },
      ]);
      // Adding credentials needs no tenant; every other route acts on the tenant of ?apiKey=.
      const control = route.path === '/__mock/credentials' ? api.control(null) : api.control(apiKey);
      if (!control) throw notFound('tenant with api key', apiKey ?? '');
      const result = route.run({
        control, params: (parsedParams ?? {}) as Record<string, string>, body: route.body ? parsedBody : body, url,
      });
      return toResponse(jsonReply(result.body, result.status, requestId));
    } catch (error) {
      return toResponse(problemReply(asProblem(error), requestId, url.pathname));
    }
  }
  return [...handlers, ...catchAll(runtime, ['/__mock'])];
}
