/**
 * The control API over HTTP exactly as contract section 7's table, tenants per api key, snapshot/restore,
 * server state export/import, change notifications, and determinism for a seed.
 */
import { describe, expect, it } from 'vitest';
import { createBusinessUser, createUser, getUser, listCards } from '../../sdk/generated/sdk.gen';
import type { User } from '../../sdk/generated/types.gen';
import { ProblemError, createMock, type Fixtures, type TenantSnapshot } from '../../mock-server/src/index';
import { makeApproval, makeBusinessUser, makeUser, registration } from './flows';
import { BASE_URL, DAY, T0, expectError, expectProblem, mockHarness, ok, send, signedClient } from './helpers';

const h = mockHarness();
const control = (method: string, path: string, body?: unknown) =>
  send(method, `/__mock${path}`, { sign: false, ...(body !== undefined ? { body: body as object } : {}) });
/** A control request signed with a tenant's key (what acting on a tenant other than the default takes). */
const signedControl = (
  credentials: { apiKey: string; apiSecret: string },
  method: string,
  path: string,
  body?: unknown,
) => send(method, `/__mock${path}`, { credentials, ...(body !== undefined ? { body: body as object } : {}) });

describe('GET /__mock/fixtures', () => {
  it('gives the seeded ids: credentials, two funded corporates, three card configs with visuals, three deposit types', async () => {
    const response = await control('GET', '/fixtures');
    expect(response.status).toBe(200);
    expect(response.headers.get('x-request-id')).toMatch(/^req_/);
    const fixtures = (await response.json()) as Fixtures;
    // The api key, never a secret: any local process can read the control API.
    expect(fixtures.credentials).toEqual([{ apiKey: 'test_key' }]);
    expect(JSON.stringify(fixtures)).not.toContain('test_secret');
    expect(fixtures.corporates.map((c) => [c.name, c.balance, c.reserved.amount])).toEqual([
      ['Acme Logistics GmbH', { amount: 100_000_000, currency: 'EUR' }, 0],
      ['Globex Studio SARL', { amount: 25_000_000, currency: 'EUR' }, 0],
    ]);
    expect(fixtures.corporates.every((c) => c.depositAddresses.length === 4)).toBe(true);
    expect(
      fixtures.cardConfigs.map((c) => [c.type, c.price?.amount ?? null, c.visualIds.length, c.consentIds.length]),
    ).toEqual([
      ['VIRTUAL', null, 2, 1],
      ['VIRTUAL', 499, 2, 1],
      ['PHYSICAL', 999, 2, 1],
    ]);
    expect(fixtures.depositTypes.map((t) => t.type)).toEqual(['BTC', 'ETH', 'USDC']);
    expect(fixtures.consents.map((c) => c.kind)).toEqual([
      'REGISTRATION',
      'REGISTRATION',
      'CARD',
      'CARD',
      'CARD',
      'DEPOSIT',
    ]);
    expect(fixtures).toEqual({ ...h.mock.fixtures(), credentials: [{ apiKey: 'test_key' }] });
  });
});

describe('POST /__mock/reset', () => {
  it('goes back to the seeded state with the same ids, the clock as configured and no faults', async () => {
    const before = h.mock.fixtures();
    const { user } = await makeUser(h.client, h.mock);
    h.mock.clock.advance(DAY);
    h.mock.faults.inject({ path: '*', status: 500, times: 100 });
    const response = await control('POST', '/reset');
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ ...before, credentials: [{ apiKey: 'test_key' }] });
    expectError(await getUser({ client: h.client, path: { userId: user.id } }), 404, 'NOT_FOUND');
    expect(h.mock.clock.now().toISOString()).toBe(T0);
  });
});

describe('GET /__mock/clock and POST /__mock/clock/advance', () => {
  it('reads and moves the virtual clock; bad bodies are 400 naming the field', async () => {
    expect(await (await control('GET', '/clock')).json()).toEqual({ now: T0, frozen: true });
    expect(await (await control('POST', '/clock/advance', { seconds: 90 })).json()).toEqual({
      now: '2026-11-21T09:01:30.000Z',
      frozen: true,
    });
    for (const body of [{ seconds: -1 }, { seconds: 'ten' }, {}, { seconds: 1, extra: 1 }]) {
      const problem = await expectProblem(await control('POST', '/clock/advance', body), 400, 'VALIDATION_FAILED');
      expect(problem.errors?.[0]?.path).toMatch(/^body\.(seconds|extra)$/);
    }
    await expectProblem(await send('POST', '/__mock/clock/advance', { sign: false, body: '{' }), 400, 'MALFORMED_JSON');
  });

  it('a mock without a clock option ticks with the wall clock plus the advanced offset', () => {
    const mock = createMock();
    expect(mock.clock.frozen()).toBe(false);
    expect(Math.abs(mock.clock.now().getTime() - Date.now())).toBeLessThan(5_000);
    mock.clock.advance(DAY);
    expect(Math.abs(mock.clock.now().getTime() - (Date.now() + DAY * 1000))).toBeLessThan(5_000);
    mock.clock.set(new Date(Date.now() + 2 * DAY * 1000));
    expect(Math.abs(mock.clock.now().getTime() - (Date.now() + 2 * DAY * 1000))).toBeLessThan(5_000);
    expect(() => mock.clock.set('2000-01-01T00:00:00Z')).toThrow(ProblemError);
  });
});

describe('the other control routes of the table', () => {
  it("GET /__mock/outbox lists every message newest last, or one user's", async () => {
    const a = await makeUser(h.client, h.mock);
    const b = await makeUser(h.client, h.mock);
    const all = (await (await control('GET', '/outbox')).json()) as { items: { userId: string }[] };
    expect(all.items.map((m) => m.userId)).toEqual([a.user.id, b.user.id]);
    const one = (await (await control('GET', `/outbox?userId=${b.user.id}`)).json()) as { items: { userId: string }[] };
    expect(one.items.map((m) => m.userId)).toEqual([b.user.id]);
  });

  it('refuses unknown ids with 404 and bad path parameters with 400', async () => {
    await expectProblem(
      await control('POST', '/kyc/3f0b7c52-9d0e-4c6a-9a55-1e2f7b8c9d01', { status: 'PASSED' }),
      404,
      'NOT_FOUND',
    );
    await expectProblem(
      await control('POST', '/users/3f0b7c52-9d0e-4c6a-9a55-1e2f7b8c9d01/complete-registration'),
      404,
      'NOT_FOUND',
    );
    await expectProblem(await control('POST', '/cards/5d7a3c91-0e2b-4f6d-8a4c-2b9e1f7d3a60/lock'), 404, 'NOT_FOUND');
    const corporate = h.mock.fixtures().corporates[0]!.corporateUuid;
    await expectProblem(
      await control('POST', `/corporates/${corporate}/approvals/7e2c9a4b-3d8f-4b1e-8c6a-5f0d2e9b7a14/cancel`),
      404,
      'NOT_FOUND',
    );
    const badAction = await expectProblem(
      await control('POST', `/corporates/${corporate}/approvals/7e2c9a4b-3d8f-4b1e-8c6a-5f0d2e9b7a14/approve`),
      400,
      'VALIDATION_FAILED',
    );
    expect(badAction.errors?.[0]?.path).toBe('path.action');
    const badId = await expectProblem(
      await control('POST', '/kyc/not-a-uuid', { status: 'PASSED' }),
      400,
      'VALIDATION_FAILED',
    );
    expect(badId.errors?.[0]?.path).toBe('path.userId');
  });

  it('programmatic control errors are the same ProblemErrors', () => {
    expect(() => h.mock.kyc('3f0b7c52-9d0e-4c6a-9a55-1e2f7b8c9d01', 'PASSED')).toThrow(
      expect.objectContaining({ status: 404, code: 'NOT_FOUND' }),
    );
    expect(() => h.mock.deposits.incoming({ balanceId: 'x', type: 'USDC', amount: '1' })).toThrow(
      expect.objectContaining({ status: 400, code: 'VALIDATION_FAILED' }),
    );
  });
});

describe('GET and PUT /__mock/state, snapshot and restore', () => {
  it('restores a saved state over HTTP, and refuses something that is not a snapshot', async () => {
    const { user } = await makeUser(h.client, h.mock);
    const saved = (await (await control('GET', '/state')).json()) as TenantSnapshot;
    ok(await createUser({ client: h.client, body: registration() }));
    h.mock.kyc(user.id, 'FAILED');
    const restored = await control('PUT', '/state', saved);
    expect(await restored.json()).toEqual({ restored: true, apiKey: 'test_key' });
    expect(ok(await getUser({ client: h.client, path: { userId: user.id } })).kycStatus).toBe('PASSED');
    expect(h.mock.snapshot()).toEqual(saved);
    await expectProblem(await control('PUT', '/state', { version: 2 }), 400, 'VALIDATION_FAILED');
    await expectProblem(await control('PUT', '/state'), 400, 'VALIDATION_FAILED');
  });

  it('a restored snapshot continues with the same ids (the generator is part of it)', async () => {
    const snapshot = h.mock.snapshot();
    const first = ok(await createUser({ client: h.client, body: registration({ email: 'same@example.org' }) }));
    h.mock.restore(snapshot);
    const again = ok(await createUser({ client: h.client, body: registration({ email: 'same@example.org' }) }));
    expect(again.id).toBe(first.id);
  });

  it('a snapshot is a copy: changing it does not change the mock', () => {
    const snapshot = h.mock.snapshot();
    Object.values(snapshot.corporates)[0]!.available = 0;
    expect(h.mock.fixtures().corporates[0]!.balance.amount).toBe(100_000_000);
  });
});

describe('tenants: POST /__mock/credentials and ?apiKey=', () => {
  it('adds a tenant with its own seeded state; the same credentials again change nothing; another secret is 409', async () => {
    const created = await control('POST', '/credentials', { apiKey: 'team_b', apiSecret: 'secret_b' });
    expect(created.status).toBe(201);
    const fixtures = (await created.json()) as Fixtures;
    expect(fixtures.credentials).toEqual([{ apiKey: 'team_b' }]);
    expect(fixtures.corporates[0]!.corporateUuid).not.toBe(h.mock.fixtures().corporates[0]!.corporateUuid);
    expect((await control('POST', '/credentials', { apiKey: 'team_b', apiSecret: 'secret_b' })).status).toBe(200);
    await expectProblem(
      await control('POST', '/credentials', { apiKey: 'team_b', apiSecret: 'other' }),
      409,
      'API_KEY_EXISTS',
    );
    const bad = await expectProblem(
      await control('POST', '/credentials', { apiKey: 'a:b', apiSecret: '' }),
      400,
      'VALIDATION_FAILED',
    );
    expect(bad.errors?.map((e) => e.path).sort()).toEqual(['body.apiKey', 'body.apiSecret']);
  });

  it("an unsigned control request acts on the default tenant only; another tenant's takes its signature", async () => {
    const teamB = { apiKey: 'team_b', apiSecret: 'secret_b' };
    h.mock.addCredentials(teamB);
    const b = signedClient(teamB);
    const businessUser = ok(
      await createBusinessUser({
        client: b,
        body: { name: 'Ada', lastName: 'B', email: 'b@corp.example', phone: '+12025550143' },
      }),
    );
    await expectProblem(
      await control('POST', `/users/${businessUser.userUuid}/complete-registration`),
      404,
      'NOT_FOUND',
    );
    // ?apiKey= alone no longer picks a tenant: it took nothing but the key's name to read or overwrite its state.
    await expectProblem(
      await control('POST', `/users/${businessUser.userUuid}/complete-registration?apiKey=team_b`),
      401,
      'AUTH_MISSING',
    );
    await expectProblem(await control('GET', '/state?apiKey=team_b'), 401, 'AUTH_MISSING');
    // Signed by another tenant's key: refused as any forged request is.
    await expectProblem(
      await signedControl({ apiKey: 'team_b', apiSecret: 'not_b' }, 'POST', '/clock/advance', { seconds: 1 }),
      401,
      'AUTH_SIGNATURE_MISMATCH',
    );
    expect((await signedControl(teamB, 'POST', `/users/${businessUser.userUuid}/complete-registration`)).status).toBe(
      200,
    );
    expect((await signedControl(teamB, 'POST', '/clock/advance?apiKey=team_b', { seconds: 3600 })).status).toBe(200);
    expect(h.mock.tenant('team_b').clock.now().toISOString()).toBe('2026-11-21T10:00:00.000Z');
    expect(h.mock.clock.now().toISOString()).toBe(T0);
    // Signed by one tenant, naming another: refused.
    const named = await expectProblem(
      await signedControl(teamB, 'GET', '/fixtures?apiKey=test_key'),
      400,
      'VALIDATION_FAILED',
    );
    expect(named.errors?.map((e) => e.path)).toEqual(['query.apiKey']);
    // The default tenant may be named unsigned.
    expect((await control('GET', '/fixtures?apiKey=test_key')).status).toBe(200);
    await expectProblem(
      await signedControl({ apiKey: 'nobody', apiSecret: 'x' }, 'GET', '/fixtures'),
      401,
      'AUTH_UNKNOWN_KEY',
    );
    expect(() => h.mock.tenant('nobody')).toThrow(ProblemError);
  });

  it("tenants of one mock never see each other's users, cards or approvals", async () => {
    const a = await makeUser(h.client, h.mock);
    const aBusiness = await makeBusinessUser(h.client, h.mock, true);
    await makeApproval(h.client, h.mock, aBusiness.userUuid);
    const bControl = h.mock.addCredentials({ apiKey: 'team_b', apiSecret: 'secret_b' });
    const b = signedClient({ apiKey: 'team_b', apiSecret: 'secret_b' });
    const bUser = ok(await createUser({ client: b, body: registration({ email: a.user.email }) }));
    expect(bUser.id).not.toBe(a.user.id);
    expectError(await listCards({ client: b, query: { userId: aBusiness.userUuid } }), 404, 'NOT_FOUND');
    expect(bControl.outbox()).toEqual([]);
    expect(bControl.fixtures().corporates.every((c) => c.reserved.amount === 0)).toBe(true);
    expect(h.mock.fixtures().corporates[0]!.reserved.amount).toBe(50_000);
  });
});

describe('a mock without baseUrl (any origin, as the standalone server and the browser use it)', () => {
  it('serves the API, and control routes whose paths look like API paths', async () => {
    const mock = createMock({ clock: { now: T0 } });
    h.server.resetHandlers(...mock.handlers);
    const client = signedClient({ apiKey: 'test_key', apiSecret: 'test_secret' }, 'http://any-origin.test:8080');
    const user = await makeBusinessUser(client, mock);
    const approval = await makeApproval(client, mock, user.userUuid);
    const canceled = await send(
      'POST',
      `http://other.test/__mock/corporates/${approval.corporateUuid}/approvals/${approval.approvalUuid}/cancel`,
      { sign: false },
    );
    expect(((await canceled.json()) as { status: string }).status).toBe('CANCELED');
    await expectProblem(
      await send('GET', 'http://any-origin.test:8080/corporates/nothing', { sign: false }),
      404,
      'ROUTE_NOT_FOUND',
    );
  });
});

describe('server state, change notifications', () => {
  it('exports every tenant and imports it into another mock', async () => {
    const { user } = await makeUser(h.client, h.mock);
    h.mock.addCredentials({ apiKey: 'team_b', apiSecret: 'secret_b' });
    const state = JSON.parse(JSON.stringify(h.mock.exportState())) as ReturnType<typeof h.mock.exportState>;
    expect(state.tenants.map((t) => t.apiKey)).toEqual(['test_key', 'team_b']);
    const other = createMock({ seed: 'something else', baseUrl: BASE_URL });
    other.importState(state);
    expect(other.fixtures()).toEqual(h.mock.fixtures());
    expect(other.tenant('team_b').fixtures()).toEqual(h.mock.tenant('team_b').fixtures());
    h.server.resetHandlers(...other.handlers);
    expect(ok(await getUser({ client: h.client, path: { userId: user.id } })).id).toBe(user.id);
    expect(() => other.importState({ ...state, tenants: [] })).toThrow(
      expect.objectContaining({ code: 'VALIDATION_FAILED' }),
    );
    expect(() => other.importState({ ...state, defaultApiKey: 'nobody' })).toThrow(ProblemError);
  });

  it('tells listeners after every change, until they unsubscribe', async () => {
    let calls = 0;
    const stop = h.mock.onChange(() => calls++);
    ok(await createUser({ client: h.client, body: registration() }));
    expect(calls).toBe(1);
    h.mock.clock.advance(1);
    expect(calls).toBe(2);
    await control('POST', '/reset');
    expect(calls).toBe(3);
    stop();
    ok(await createUser({ client: h.client, body: registration() }));
    expect(calls).toBe(3);
  });
});

describe('determinism for a seed', () => {
  /** The same operations against a fresh mock of `seed`; returns its snapshot. */
  async function run(seed: string, apiKey = 'test_key'): Promise<{ snapshot: TenantSnapshot; user: User }> {
    const mock = h.start({ seed, credentials: [{ apiKey, apiSecret: 's' }] });
    const { user } = await makeUser(h.client, mock);
    const businessUser = await makeBusinessUser(h.client, mock, true);
    await makeApproval(h.client, mock, businessUser.userUuid);
    mock.clock.advance(DAY);
    return { snapshot: mock.snapshot(), user };
  }

  it('two mocks of one seed and frozen clock end in identical state; another seed or api key gives other ids', async () => {
    const a = await run('seed-1');
    const b = await run('seed-1');
    // The flows number their e-mails across the file, so the two runs differ there only: compare without them.
    const scrub = (s: TenantSnapshot) => JSON.stringify(s).replace(/"[a-z]+\.\d+@example\.org"/g, '"e-mail"');
    expect(scrub(b.snapshot)).toBe(scrub(a.snapshot));
    const c = await run('seed-2');
    expect(c.user.id).not.toBe(a.user.id);
    const d = await run('seed-1', 'another_key');
    expect(d.user.id).not.toBe(a.user.id);
    expect(createMock({ seed: 7 }).fixtures().corporates[0]!.corporateUuid).toBe(
      createMock({ seed: '7' }).fixtures().corporates[0]!.corporateUuid,
    );
  });
});
