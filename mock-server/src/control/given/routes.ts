/**
 * The builders and scenarios over HTTP: `POST /__mock/given/{kind}` with the builder's options as the JSON body, and
 * `POST /__mock/scenario` with a scenario. Both answer 201 with what was made; bad input is 400 VALIDATION_FAILED
 * naming each bad field (a builder's `body.status`; a scenario's `given.2.user`, as for a scenario file), and
 * nothing is applied.
 * @module
 */
import * as z from 'zod';
import type { ControlRoute } from '../../pipeline/control-route';
import { zObjectBody } from '../schemas';
import type { TenantControl } from '../tenant-control';
import { GIVEN_KINDS, type GivenKind, type Scenario } from './options';

/** The routes of the builders and of scenarios. */
export function givenRoutes(): ControlRoute<TenantControl>[] {
  return [
    {
      method: 'post',
      path: '/__mock/given/{kind}',
      params: z.object({ kind: z.enum(GIVEN_KINDS as [GivenKind, ...GivenKind[]]) }),
      body: zObjectBody,
      optionalBody: true,
      run: ({ control, params, body }) => {
        const build = control.given[params.kind as GivenKind] as (options: unknown) => unknown;
        return { status: 201, body: build(body) };
      },
    },
    {
      method: 'post',
      path: '/__mock/scenario',
      body: zObjectBody,
      run: ({ control, body }) => ({ status: 201, body: control.loadScenario(body as Scenario) }),
    },
  ];
}
