/**
 * Servers for the tests that check the checkers: the real mock over HTTP with a handler placed before its own, so
 * that one behaviour is deliberately broken (or the control API is hidden, as a real service would have none).
 * Transport is the mock server's own (`serveHandlers`: node:http and msw's getResponse), so nothing but the placed
 * handler differs from `startMockServer`.
 * @module
 */
import { getResponse, http, HttpResponse, type HttpHandler } from 'msw';
import { parseAuthorization } from '../../sdk/src/server';
import { createMock, type CardIssuingMock, type TenantControl } from '../../mock-server/src/index';
import { serveHandlers, type RunningHttpServer } from '../../mock-server/src/node/server';

/** A running mock whose handlers are preceded by `before(mock)`. */
export interface PatchedServer {
  url: string;
  mock: CardIssuingMock;
  close(): Promise<void>;
}

/** Starts the mock over HTTP on a free port, with the handlers `before` makes placed ahead of the mock's own. */
export async function startPatchedMock(before: (mock: CardIssuingMock) => HttpHandler[]): Promise<PatchedServer> {
  const mock = createMock();
  const running: RunningHttpServer = await serveHandlers([...before(mock), ...mock.handlers], {
    port: 0,
    host: '127.0.0.1',
  });
  return { url: running.url, mock, close: () => running.close() };
}

/** The tenant a signed request acts for (its api key), or undefined for an unsigned one. */
function tenantOf(mock: CardIssuingMock, request: Request): TenantControl | undefined {
  const apiKey = parseAuthorization(request.headers.get('authorization') ?? '')?.apiKey;
  return apiKey === undefined ? undefined : mock.tenant(apiKey);
}

const INCREASE_BUDGET = '*/corporates/:corporateUuid/approvals/:approvalUuid/increase-budget';

/**
 * Broken rule: increase-budget is allowed on a CANCELED approval. The placed handler quietly turns the CANCELED
 * instance back into ACCEPTED, then lets the mock's own handler answer: 201 and a reapproval, where the spec says
 * 409 INVALID_TRANSITION.
 */
export const increaseAllowedOnCanceled = (mock: CardIssuingMock): HttpHandler[] => [
  http.post(INCREASE_BUDGET, ({ request, params }) => {
    const tenant = tenantOf(mock, request);
    if (!tenant) return undefined;
    const state = tenant.snapshot();
    const approval = state.approvals[String(params.approvalUuid)];
    if (approval?.status === 'CANCELED') {
      approval.status = 'ACCEPTED';
      tenant.restore(state);
    }
    return undefined; // on to the mock's own handler
  }),
];

/**
 * Broken rule: increase-budget does not mark the old instance REAPPROVED. The placed handler lets the mock answer,
 * then puts the old instance back as it was (status, no replacement).
 */
export const reapprovedSkipped = (mock: CardIssuingMock): HttpHandler[] => [
  http.post(INCREASE_BUDGET, async ({ request, params }) => {
    const tenant = tenantOf(mock, request);
    if (!tenant) return undefined;
    const id = String(params.approvalUuid);
    const before = tenant.snapshot().approvals[id];
    const response = await getResponse(mock.handlers, request);
    if (response?.status === 201 && before) {
      const state = tenant.snapshot();
      const approval = state.approvals[id]!;
      approval.status = before.status;
      approval.replacedByApprovalUuid = null;
      tenant.restore(state);
    }
    return response;
  }),
];

/** No control API, as on a real service: every `/__mock/` route is a 404 problem. */
export const withoutControlApi = (): HttpHandler[] => [
  http.all('*/__mock/*', () =>
    HttpResponse.json(
      {
        type: 'about:blank',
        title: 'Not found',
        status: 404,
        code: 'ROUTE_NOT_FOUND',
        detail: 'This server has no /__mock/ routes.',
      },
      { status: 404, headers: { 'content-type': 'application/problem+json', 'x-request-id': 'req_nocontrol' } },
    ),
  ),
];
