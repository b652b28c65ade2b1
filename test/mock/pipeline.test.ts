/**
 * The pipeline's seams: the exchange observer (what the inspector hangs on), the route table compiled from the
 * generated operation table, and the same answers through the msw adapter and the direct node:http front.
 */
import { describe, expect, it } from 'vitest';
import { confirmEmail, createUser, getApproval } from '../../sdk/generated/sdk.gen';
import { operationTable } from '../../sdk/src/server';
import { Router } from '../../mock-server/src/pipeline/router';
import { createMock, type Exchange } from '../../mock-server/src/index';
import { mockInternals } from '../../mock-server/src/mock/internals';
import { fund, makeApproval, makeBusinessUser, makeUser, registration } from './flows';
import { BASE_URL, DAY, T0, expectError, mockHarness, ok, send } from './helpers';

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
  const router = new Router(
    operationTable.map((row) => ({ method: row.method, path: row.path, route: row.operationId })),
    undefined,
  );
  const match = (method: string, path: string) => {
    const found = router.match(method, `http://x${path}`, path);
    return found.kind === 'route' ? [found.match.route, found.match.params] : found.kind;
  };

  it('prefers literal segments to parameters, and decodes parameters', () => {
    expect(match('GET', '/s2s/deposits/verifications')).toEqual(['listDepositVerifications', {}]);
    expect(match('GET', '/s2s/deposits/b%201/types')).toEqual(['listDepositTypes', { balanceId: 'b 1' }]);
    expect(match('GET', '/s2s/deposits/b1/BTC')).toEqual(['listDepositAddresses', { balanceId: 'b1', type: 'BTC' }]);
    expect(match('POST', '/corporates/corporates/c1/approvals')).toEqual(['createApproval', { corporateUuid: 'c1' }]);
    expect(match('GET', '/corporates/c1/approvals/a1')).toEqual([
      'getApproval',
      { corporateUuid: 'c1', approvalUuid: 'a1' },
    ]);
  });

  it('is not-found under an area, not-ours elsewhere; a method the path lacks is not-found', () => {
    expect(match('DELETE', '/s2s/users')).toBe('not-found');
    expect(match('GET', '/s2s/users/')).toBe('not-found');
    expect(match('GET', '/assets/app.js')).toBe('not-ours');
  });

  it('with a base URL, only under it (a path prefix too)', () => {
    const prefixed = new Router(
      [{ method: 'GET', path: '/s2s/users/{userId}', route: 'getUser' }],
      'http://api.test/v1',
    );
    expect(prefixed.match('GET', 'http://api.test/v1/s2s/users/u1', '/v1/s2s/users/u1')).toMatchObject({
      kind: 'route',
      match: { params: { userId: 'u1' } },
    });
    expect(prefixed.match('GET', 'http://other.test/v1/s2s/users/u1', '/v1/s2s/users/u1').kind).toBe('not-ours');
    expect(prefixed.match('GET', 'http://api.test/v10/s2s/users/u1', '/v10/s2s/users/u1').kind).toBe('not-ours');
  });
});

describe('commands and the write-ahead log seam', () => {
  it('each change is logged once, in order, and replaying the log into a fresh mock gives the same state, byte for byte', async () => {
    const commands: unknown[] = [];
    mockInternals(h.mock).attachWal({
      record: (c) => commands.push(structuredClone(c)),
      head: () => commands.length,
      durable: async () => undefined,
    });
    const { user, balanceId } = await makeUser(h.client, h.mock);
    await fund(h.client, h.mock, user.id, balanceId, '50');
    await confirmEmail({ client: h.client, path: { userId: user.id }, body: { code: '000000' } }); // fails, changes nothing
    const again = { client: h.client, body: registration(), headers: { 'Idempotency-Key': 'key-1' } };
    ok(await createUser(again));
    ok(await createUser(again)); // an Idempotency-Key replay: logged once
    const business = await makeBusinessUser(h.client, h.mock, true);
    const approval = await makeApproval(h.client, h.mock, business.userUuid, { fromDays: 2, toDays: 5 });
    h.mock.clock.advance(3 * DAY);
    ok(
      await getApproval({
        client: h.client,
        path: { corporateUuid: approval.corporateUuid, approvalUuid: approval.approvalUuid },
      }),
    );
    h.mock.cards.authorize(approval.card.id, { amount: 1_000, currency: 'EUR', merchant: 'Corner Cafe' });
    const change = h.mock.approvals.requestChange(approval.corporateUuid, approval.approvalUuid);
    h.mock.approvals.accept(change.corporateUuid, change.approvalUuid);
    h.mock.approvals.requestChange(change.corporateUuid, change.approvalUuid);
    h.mock.clock.advance(10 * DAY);
    h.mock.addCredentials({ apiKey: 'other', apiSecret: 'other_secret' });
    h.mock.tenant('other').clock.advance(60);

    // Every change in the order it happened; not the Idempotency-Key replay, nor the reads (getApproval, exportState).
    const logged = commands.map((c) => {
      const { kind, operationId, action, apiKey } = c as {
        kind: string;
        operationId?: string;
        action?: string;
        apiKey?: string;
      };
      return `${kind} ${operationId ?? action} ${apiKey ?? '*'}`;
    });
    expect(logged).toEqual([
      // makeUser: registration, consents, e-mail, KYC, the deposit consents; fund: an address and a deposit
      'api createUser test_key',
      'api signUserConsent test_key',
      'api signUserConsent test_key',
      'api requestEmailOtp test_key',
      'api confirmEmail test_key',
      'control kyc test_key',
      'api signUserConsent test_key',
      'api signUserConsent test_key',
      'api signUserConsent test_key',
      'api signUserConsent test_key',
      'api createDepositAddress test_key',
      'control deposits.incoming test_key',
      // every POST is logged, a refused one too (it may have used up an e-mail code's try); one key's createUser once
      'api confirmEmail test_key',
      'api createUser test_key',
      'api createBusinessUser test_key',
      'control users.completeRegistration test_key',
      'api createApproval test_key',
      'control clock.advance test_key',
      'control cards.authorize test_key',
      'control approvals.requestChange test_key',
      'control approvals.accept test_key',
      'control approvals.requestChange test_key',
      'control clock.advance test_key',
      'mock addCredentials *',
      'control clock.advance other',
    ]);

    const fresh = createMock({ baseUrl: BASE_URL, clock: { now: T0 }, seed: 'tests' });
    expect(JSON.stringify(fresh.exportState())).not.toBe(JSON.stringify(h.mock.exportState()));
    for (const command of commands) mockInternals(fresh).replay(command as never);
    expect(JSON.stringify(fresh.exportState())).toBe(JSON.stringify(h.mock.exportState()));
  });

  it('a change that could not be made durable is answered 503 STATE_NOT_SAVED; a read that changes nothing is not held', async () => {
    let changes = 0;
    mockInternals(h.mock).attachWal({
      record: () => ++changes,
      head: () => changes,
      durable: () => Promise.reject(new Error('ENOSPC')),
    });
    expectError(await createUser({ client: h.client, body: registration() }), 503, 'STATE_NOT_SAVED');
    expect((await send('GET', '/s2s/users/3f0b7c52-9d0e-4c6a-9a55-1e2f7b8c9d01')).status).toBe(404);
  });

  it('after a delay-only fault, a change still waits for the disk (503 STATE_NOT_SAVED when it cannot be written)', async () => {
    let changes = 0;
    mockInternals(h.mock).attachWal({
      record: () => ++changes,
      head: () => changes,
      durable: () => Promise.reject(new Error('ENOSPC')),
    });
    h.mock.faults.inject({ operationId: 'createUser', delayMs: 1 });
    expectError(await createUser({ client: h.client, body: registration() }), 503, 'STATE_NOT_SAVED');
    expect(h.mock.faults.list()).toEqual([]);
  });
});
