/**
 * The pipeline's seams: the exchange observer (what the inspector hangs on), the route table compiled from the
 * generated operation table, and the same answers through the msw adapter and the direct node:http front.
 */
import { describe, expect, it } from 'vitest';
import { createUser } from '../../sdk/generated/sdk.gen';
import { operationTable } from '../../sdk/src/internal';
import { Router } from '../../mock-server/src/pipeline/router';
import type { Exchange } from '../../mock-server/src/index';
import { registration } from './flows';
import { mockHarness, ok, send } from './helpers';

const h = mockHarness();

describe('onExchange', () => {
  it('sees each request with its reply, operationId, status, code, request id and tenant; stops when told', async () => {
    const seen: Exchange[] = [];
    const stop = h.mock.onExchange((e) => seen.push(e));
    const body = registration();
    const user = ok(await createUser({ client: h.client, body }));
    await send('GET', '/s2s/users/not-a-uuid');
    await send('GET', '/s2s/nothing', { sign: false });
    await send('GET', '/__mock/clock', { sign: false });
    stop();
    await send('GET', '/__mock/clock', { sign: false });
    expect(seen.map((e) => [e.operationId, e.status, e.code])).toEqual([
      ['createUser', 201, undefined],
      ['getUser', 400, 'VALIDATION_FAILED'],
      [undefined, 404, 'ROUTE_NOT_FOUND'],
      ['control:GET /__mock/clock', 200, undefined],
    ]);
    const [created] = seen;
    expect(created!.apiKey).toBe('test_key');
    expect(created!.request).toMatchObject({ method: 'POST', path: '/s2s/users' });
    expect(JSON.parse(created!.request.body!)).toMatchObject({ email: body.email });
    expect(JSON.parse(created!.response!.body).id).toBe(user.id);
    expect(created!.requestId).toBe(created!.response!.headers['x-request-id']);
    expect(created!.durationMs).toBeGreaterThanOrEqual(0);
  });
});

describe('the route table', () => {
  const router = new Router(operationTable.map((row) => ({ method: row.method, path: row.path, route: row.operationId })), undefined);
  const match = (method: string, path: string) => {
    const found = router.match(method, `http://x${path}`, path);
    return found.kind === 'route' ? [found.match.route, found.match.params] : found.kind;
  };

  it('prefers literal segments to parameters, and decodes parameters', () => {
    expect(match('GET', '/s2s/deposits/verifications')).toEqual(['listDepositVerifications', {}]);
    expect(match('GET', '/s2s/deposits/b%201/types')).toEqual(['listDepositTypes', { balanceId: 'b 1' }]);
    expect(match('GET', '/s2s/deposits/b1/BTC')).toEqual(['listDepositAddresses', { balanceId: 'b1', type: 'BTC' }]);
    expect(match('POST', '/corporates/corporates/c1/approvals')).toEqual(['createApproval', { corporateUuid: 'c1' }]);
    expect(match('GET', '/corporates/c1/approvals/a1')).toEqual(['getApproval', { corporateUuid: 'c1', approvalUuid: 'a1' }]);
  });

  it('is not-found under an area, not-ours elsewhere; a method the path lacks is not-found', () => {
    expect(match('DELETE', '/s2s/users')).toBe('not-found');
    expect(match('GET', '/s2s/users/')).toBe('not-found');
    expect(match('GET', '/assets/app.js')).toBe('not-ours');
  });

  it('with a base URL, only under it (a path prefix too)', () => {
    const prefixed = new Router([{ method: 'GET', path: '/s2s/users/{userId}', route: 'getUser' }], 'http://api.test/v1');
    expect(prefixed.match('GET', 'http://api.test/v1/s2s/users/u1', '/v1/s2s/users/u1')).toMatchObject({ kind: 'route', match: { params: { userId: 'u1' } } });
    expect(prefixed.match('GET', 'http://other.test/v1/s2s/users/u1', '/v1/s2s/users/u1').kind).toBe('not-ours');
    expect(prefixed.match('GET', 'http://api.test/v10/s2s/users/u1', '/v10/s2s/users/u1').kind).toBe('not-ours');
  });
});
