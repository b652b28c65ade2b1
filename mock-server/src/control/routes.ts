/**
 * The control API over HTTP, exactly as contract section 7's table: routes under `/__mock/` that the request
 * pipeline serves (so they work in-process, over node:http and in the service worker alike). An unsigned request
 * acts on the default tenant; one for another tenant is signed with its key (pipeline/control-auth.ts). No route
 * returns a secret. Bad bodies are 400 problem+json; every response carries `X-Request-Id`.
 * @module
 */
import * as z from 'zod';
import { ProblemError } from '../domain/errors';
import type { ControlAccess, ControlRoute } from '../pipeline/control-route';
import type { Credentials } from '../store';
import {
  zAuthorizeBody,
  zCreditBody,
  zClockAdvanceBody,
  zCredentialsBody,
  zFaultBody,
  zIncomingDepositBody,
  zKycBody,
  zObjectBody,
  zRequestChangeBody,
} from './schemas';
import type { TenantControl } from './tenant-control';
import type { OperationId } from 'card-issuing-sdk/server';
import type { OverrideSpec } from '../pipeline/overrides';
import { authorizationRoutes } from './authorization-routes';
import { givenRoutes } from './given/routes';

/** What the routes need from the mock: the control of a tenant (as the pipeline finds it), and adding one. */
export interface ControlApi extends ControlAccess<TenantControl> {
  /** Adds a tenant (or finds the same credentials); 409 API_KEY_EXISTS for a known key with another secret. */
  addCredentials(credentials: Credentials): { created: boolean; control: TenantControl };
}

/** One control route of a tenant's control: method and path, the schemas of its path parameters and body, and what it does. */
export type RouteDef = ControlRoute<TenantControl>;

const uuid = z.uuid();

/** Fixtures as a control route answers them: the api key, never a secret (any local process can read them). */
function publicFixtures(control: TenantControl) {
  const fixtures = control.fixtures();
  return { ...fixtures, credentials: fixtures.credentials.map(({ apiKey }) => ({ apiKey })) };
}

/** What a tenant keeps a list of, by id: its faults, its overrides. */
interface Rules {
  list(): unknown[];
  remove(id: string): void;
  clear(): void;
}

/** `GET /__mock/{name}` lists the rules, `DELETE /__mock/{name}` clears them, `DELETE /__mock/{name}/{id}` removes one. */
function ruleRoutes(name: string, idPrefix: string, rules: (control: TenantControl) => Rules): RouteDef[] {
  const path = `/__mock/${name}`;
  return [
    { method: 'get', path, run: ({ control }) => ({ status: 200, body: { items: rules(control).list() } }) },
    {
      method: 'delete',
      path,
      run: ({ control }) => {
        const cleared = rules(control).list().length;
        rules(control).clear();
        return { status: 200, body: { cleared } };
      },
    },
    {
      method: 'delete',
      path: `${path}/{id}`,
      params: z.object({ id: z.string().regex(new RegExp(`^${idPrefix}_\\d{1,15}$`), `An id (${idPrefix}_N)`) }),
      run: ({ control, params }) => {
        rules(control).remove(params.id!);
        return { status: 200, body: { removed: params.id } };
      },
    },
  ];
}

/** The `/__mock/` routes (the pipeline answers 404 ROUTE_NOT_FOUND for any other path under `/__mock`). */
export function controlRoutes(api: ControlApi): RouteDef[] {
  return [
    ...clockRoutes(),
    ...actorRoutes(),
    ...cardRoutes(),
    ...authorizationRoutes(),
    ...givenRoutes(),
    ...stateRoutes(),
    ...faultAndOverrideRoutes(),
    {
      method: 'post',
      path: '/__mock/credentials',
      body: zCredentialsBody,
      run: ({ body }) => {
        const { created, control } = api.addCredentials(body as Credentials);
        return ok(publicFixtures(control), created ? 201 : 200);
      },
    },
  ];
}

const ok = (body: unknown, status = 200) => ({ status, body });

const clockView = (control: TenantControl) => ({
  now: control.clock.now().toISOString(),
  frozen: control.clock.frozen(),
});

/** Fixtures, reset and the virtual clock. */
function clockRoutes(): RouteDef[] {
  return [
    { method: 'get', path: '/__mock/fixtures', run: ({ control }) => ok(publicFixtures(control)) },
    {
      method: 'post',
      path: '/__mock/reset',
      run: ({ control }) => {
        control.reset();
        return ok(publicFixtures(control));
      },
    },
    { method: 'get', path: '/__mock/clock', run: ({ control }) => ok(clockView(control)) },
    {
      method: 'post',
      path: '/__mock/clock/advance',
      body: zClockAdvanceBody,
      run: ({ control, body }) => {
        control.clock.advance((body as { seconds: number }).seconds);
        return ok(clockView(control));
      },
    },
  ];
}

/** What users, the KYC provider, the chain and the corporation do: outbox, KYC, deposits, registration, approvals. */
function actorRoutes(): RouteDef[] {
  return [
    {
      method: 'get',
      path: '/__mock/outbox',
      run: ({ control, url }) => ok({ items: control.outbox(url.searchParams.get('userId') ?? undefined) }),
    },
    {
      method: 'post',
      path: '/__mock/kyc/{userId}',
      params: z.object({ userId: uuid }),
      body: zKycBody,
      run: ({ control, params, body }) => ok(control.kyc(params.userId!, (body as z.infer<typeof zKycBody>).status)),
    },
    {
      method: 'post',
      path: '/__mock/deposits/incoming',
      body: zIncomingDepositBody,
      run: ({ control, body }) => ok(control.deposits.incoming(body as z.infer<typeof zIncomingDepositBody>), 201),
    },
    {
      method: 'post',
      path: '/__mock/users/{userUuid}/complete-registration',
      params: z.object({ userUuid: uuid }),
      run: ({ control, params }) => ok(control.users.completeRegistration(params.userUuid!)),
    },
    {
      method: 'post',
      path: '/__mock/corporates/{corporateUuid}/approvals/{approvalUuid}/{action}',
      params: z.object({
        corporateUuid: uuid,
        approvalUuid: uuid,
        action: z.enum(['cancel', 'reject', 'request-change', 'accept']),
      }),
      body: zRequestChangeBody,
      optionalBody: true,
      run: ({ control, params, body }) => approvalAction(control, params as ApprovalParams, body),
    },
  ];
}

/** The path parameters of an approval action (a type literal, so that the route's parameter record converts to it). */
type ApprovalParams = {
  corporateUuid: string;
  approvalUuid: string;
  action: string;
};

/** An approval action; only a change request has a body, the other actions take none. */
function approvalAction(
  control: TenantControl,
  { corporateUuid, approvalUuid, action }: ApprovalParams,
  body: unknown,
) {
  if (action === 'request-change')
    return ok(
      control.approvals.requestChange(corporateUuid, approvalUuid, body as z.infer<typeof zRequestChangeBody>),
      201,
    );
  if (Object.keys(body as object).length > 0)
    throw new ProblemError('VALIDATION_FAILED', `${action} takes no body.`, {
      errors: [{ path: 'body', message: 'No body is sent' }],
    });
  if (action === 'cancel') return ok(control.approvals.cancel(corporateUuid, approvalUuid));
  if (action === 'reject') return ok(control.approvals.reject(corporateUuid, approvalUuid));
  return ok(control.approvals.accept(corporateUuid, approvalUuid));
}

/** Purchases, details, refunds and the lock of a card. */
function cardRoutes(): RouteDef[] {
  return [
    {
      method: 'post',
      path: '/__mock/cards/{cardId}/authorize',
      params: z.object({ cardId: uuid }),
      body: zAuthorizeBody,
      run: ({ control, params, body }) =>
        ok(control.cards.authorize(params.cardId!, body as z.infer<typeof zAuthorizeBody>), 201),
    },
    {
      method: 'get',
      path: '/__mock/cards/{cardId}/details',
      params: z.object({ cardId: uuid }),
      run: async ({ control, params, url }) =>
        ok(await control.cards.details(params.cardId!, url.searchParams.get('publicKey') ?? '')),
    },
    {
      method: 'post',
      path: '/__mock/cards/{cardId}/refund',
      params: z.object({ cardId: uuid }),
      body: zCreditBody,
      run: ({ control, params, body }) =>
        ok(control.cards.refund(params.cardId!, body as z.infer<typeof zCreditBody>), 201),
    },
    {
      method: 'post',
      path: '/__mock/cards/{cardId}/{action}',
      params: z.object({ cardId: uuid, action: z.enum(['lock', 'unlock']) }),
      run: ({ control, params }) =>
        ok(params.action === 'lock' ? control.cards.lock(params.cardId!) : control.cards.unlock(params.cardId!)),
    },
  ];
}

/** The tenant's whole state: snapshot and restore. */
function stateRoutes(): RouteDef[] {
  return [
    { method: 'get', path: '/__mock/state', run: ({ control }) => ok(control.snapshot()) },
    {
      method: 'put',
      path: '/__mock/state',
      body: zObjectBody,
      run: ({ control, body }) => {
        control.restore(body as Parameters<TenantControl['restore']>[0]);
        return ok({ restored: true, apiKey: control.apiKey });
      },
    },
  ];
}

/** Faults and overrides: add one, list, clear, remove one. */
function faultAndOverrideRoutes(): RouteDef[] {
  return [
    {
      method: 'post',
      path: '/__mock/faults',
      body: zFaultBody,
      run: ({ control, body }) => ok(control.faults.inject(body as z.infer<typeof zFaultBody>), 201),
    },
    ...ruleRoutes('faults', 'fault', (control) => control.faults),
    {
      method: 'post',
      path: '/__mock/overrides',
      body: zObjectBody,
      run: ({ control, body }) => {
        const given = body as { operationId?: unknown };
        return ok(control.override(given.operationId as OperationId, given as OverrideSpec), 201);
      },
    },
    ...ruleRoutes('overrides', 'override', (control) => control.overrides),
  ];
}
