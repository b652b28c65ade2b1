/**
 * Which tenant a control request (`/__mock/...`) acts on (contract section 7): an unsigned request acts on the
 * default tenant only; a request for another tenant is signed with that tenant's key, as API requests are, and
 * `?apiKey=` may then only repeat it, so that naming a tenant never gives its state, or the power to overwrite
 * it. With signatures off (`--no-auth`) nothing is signed, so `?apiKey=` names the tenant.
 * @module
 */
import { ProblemError } from '../domain/errors';
import type { PipelineRequest } from './request';
import type { MockRuntime } from './runtime';
import { verifiedTenant } from './signature';

/** The api key of the tenant the request acts on, or null for the default tenant; throws 401/400 otherwise. */
export async function controlApiKey(
  runtime: MockRuntime,
  request: PipelineRequest,
  queried: string | undefined,
): Promise<string | null> {
  if (!runtime.verifySignatures) return queried ?? null;
  if (request.header('authorization') === undefined) {
    if (queried === undefined || queried === runtime.tenants.default.apiKey) return null;
    throw new ProblemError(
      'AUTH_MISSING',
      `A control request for the tenant ${queried} must be signed with that tenant's key; an unsigned one acts on the default tenant only.`,
    );
  }
  const tenant = await verifiedTenant(runtime, request);
  if (queried !== undefined && queried !== tenant.apiKey) {
    throw new ProblemError('VALIDATION_FAILED', 'apiKey names another tenant than the key that signed the request.', {
      errors: [{ path: 'query.apiKey', message: 'Must be the api key that signed the request' }],
    });
  }
  return tenant.apiKey;
}
