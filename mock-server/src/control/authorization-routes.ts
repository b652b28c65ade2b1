/**
 * The `/__mock/` routes of card authorizations (contract section 7): `GET /__mock/authorizations` (`?cardId=`,
 * `?approvalUuid=`, `?status=`) and `POST /__mock/authorizations/{id}/{capture|increment|reverse|refund}` with an
 * optional `{ amount }` (required for increment). Each answers the authorization after the step.
 * @module
 */
import * as z from 'zod';
import type { AuthorizationFilter } from '../domain/authorizations';
import { validateParts } from '../pipeline/validation';
import type { ControlRoute } from '../pipeline/control-route';
import type { TenantControl } from './tenant-control';

type RouteDef = ControlRoute<TenantControl>;
import { zAuthorizationFilter, zAuthorizationIncrementBody, zAuthorizationStepBody } from './schemas';

const zAction = z.enum(['capture', 'increment', 'reverse', 'refund']);

/** The routes of card authorizations. */
export function authorizationRoutes(): RouteDef[] {
  return [
    {
      method: 'get',
      path: '/__mock/authorizations',
      run: ({ control, url }) => {
        // `apiKey` names the tenant (the pipeline reads it); every other parameter is a filter.
        const params = Object.fromEntries([...url.searchParams].filter(([name]) => name !== 'apiKey'));
        const [filter] = validateParts([{ location: 'query', schema: zAuthorizationFilter, value: params }]) as [
          AuthorizationFilter,
        ];
        return { status: 200, body: { items: control.authorizations(filter) } };
      },
    },
    {
      method: 'post',
      path: '/__mock/authorizations/{id}/{action}',
      params: z.object({ id: z.uuid(), action: zAction }),
      body: zAuthorizationStepBody,
      optionalBody: true,
      run: ({ control, params, body }) => {
        const { id, action } = params as { id: string; action: z.infer<typeof zAction> };
        const { amount } = body as { amount?: number };
        if (action === 'increment') {
          validateParts([{ location: 'body', schema: zAuthorizationIncrementBody, value: body }]);
          return { status: 200, body: control.authorizations.increment(id, amount!) };
        }
        return { status: 200, body: control.authorizations[action](id, amount) };
      },
    },
  ];
}
