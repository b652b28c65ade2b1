/**
 * The control API over real HTTP, route by route as contract section 7's table, each checked by its effect on the
 * public API (signed requests through the standalone server).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMockServer, type MockServer } from '../../mock-server/src/node.js';
import { control, newUser, signedFetch } from './helpers.js';

let server: MockServer;
const api = (method: string, path: string, body?: unknown) => signedFetch(server.url, method, path, { body });
const ctl = (method: string, path: string, body?: unknown) => control(server.url, method, path, body);

beforeAll(async () => {
  server = await startMockServer({ port: 0 });
});
afterAll(() => server.close());

/**
 * A business user with an approval of the first corporate, valid from a minute ago for 30 days: ACCEPTED, or
 * DELIVERED once the user completes registration.
 */
async function approval(deliver: boolean) {
  const corporate = (await ctl('GET', '/fixtures')).body.corporates[0];
  const user = await api('POST', '/corporates/users', {
    name: 'Grace',
    lastName: 'Hopper',
    email: newUser('grace').email,
    phone: '+12025550143',
  });
  expect(user.status).toBe(201);
  const now = Date.parse((await ctl('GET', '/clock')).body.now);
  const created = await api('POST', `/corporates/corporates/${corporate.corporateUuid}/approvals`, {
    userUuid: user.body.userUuid,
    budget: { amount: 10_000, currency: 'EUR' },
    validFrom: new Date(now - 60_000).toISOString(),
    validTo: new Date(now + 30 * 86_400_000).toISOString(),
  });
  expect(created.status).toBe(201);
  if (!deliver) return { corporateUuid: corporate.corporateUuid as string, approval: created.body };
  expect((await ctl('POST', `/users/${user.body.userUuid}/complete-registration`)).status).toBe(200);
  const delivered = await api('GET', `/corporates/${corporate.corporateUuid}/approvals/${created.body.approvalUuid}`);
  return { corporateUuid: corporate.corporateUuid as string, approval: delivered.body };
}

describe('the /__mock/ routes over HTTP', () => {
  it('GET /__mock/fixtures: seeded corporates, card configs with visuals, deposit types, credentials', async () => {
    const { status, body } = await ctl('GET', '/fixtures');
    expect(status).toBe(200);
    expect(body.credentials).toEqual([{ apiKey: 'test_key' }]); // never a secret
    expect(body.corporates.length).toBeGreaterThanOrEqual(2);
    expect(body.cardConfigs.map((c: { type: string }) => c.type).sort()).toEqual(['PHYSICAL', 'VIRTUAL', 'VIRTUAL']);
    expect(body.cardConfigs.every((c: { visualIds: string[] }) => c.visualIds.length > 0)).toBe(true);
    expect(body.depositTypes.length).toBeGreaterThanOrEqual(3);
  });

  it('GET /__mock/clock and POST /__mock/clock/advance move the virtual clock', async () => {
    const before = Date.parse((await ctl('GET', '/clock')).body.now);
    const advanced = await ctl('POST', '/clock/advance', { seconds: 7200 });
    expect(advanced.status).toBe(200);
    const after = Date.parse((await ctl('GET', '/clock')).body.now);
    expect(after - before).toBeGreaterThanOrEqual(7_200_000);
    expect(after - before).toBeLessThan(7_260_000);
    expect((await ctl('POST', '/clock/advance', { seconds: -1 })).body.code).toBe('VALIDATION_FAILED');
  });

  it('GET /__mock/outbox?userId= shows the e-mail OTP code, which confirms the e-mail', async () => {
    const user = (await api('POST', '/s2s/users', newUser('otp'))).body;
    expect((await api('POST', `/s2s/users/${user.id}/email/otp`)).status).toBe(200);
    const outbox = await ctl('GET', `/outbox?userId=${user.id}`);
    expect(outbox.status).toBe(200);
    const code = outbox.body.items.at(-1).code;
    expect(code).toMatch(/^\d{6}$/);
    const confirmed = await api('POST', `/s2s/users/${user.id}/email/confirm`, { code });
    expect(confirmed.status).toBe(200);
    expect(confirmed.body.emailVerified).toBe(true);
  });

  it('POST /__mock/kyc/{userId} sets the KYC result', async () => {
    const user = (await api('POST', '/s2s/users', newUser('kyc'))).body;
    expect((await ctl('POST', `/kyc/${user.id}`, { status: 'PASSED' })).status).toBe(200);
    expect((await api('GET', `/s2s/users/${user.id}`)).body.kycStatus).toBe('PASSED');
    expect((await ctl('POST', `/kyc/${user.id}`, { status: 'MAYBE' })).status).toBe(400);
  });

  it('POST /__mock/deposits/incoming to a corporate balance is a top-up', async () => {
    const corporate = (await ctl('GET', '/fixtures')).body.corporates[1];
    const incoming = await ctl('POST', '/deposits/incoming', {
      balanceId: corporate.balanceId,
      type: 'USDC',
      amount: '250',
      requiresVerification: false,
    });
    expect(incoming.status).toBe(201);
    expect(incoming.body.kind).toBe('topUp');
    const topUps = await api('GET', `/corporates/${corporate.corporateUuid}/top-ups`);
    expect(topUps.body.items.map((t: { id: string }) => t.id)).toContain(incoming.body.topUp.id);
    const after = (await ctl('GET', '/fixtures')).body.corporates[1];
    expect(after.balance.amount).toBeGreaterThan(corporate.balance.amount);
  });

  it('POST /__mock/users/{userUuid}/complete-registration delivers the ACCEPTED approval', async () => {
    const { corporateUuid, approval: created } = await approval(false);
    expect(created.status).toBe('ACCEPTED');
    const completed = await ctl('POST', `/users/${created.userUuid}/complete-registration`);
    expect(completed.body.registrationStatus).toBe('COMPLETED');
    expect((await api('GET', `/corporates/${corporateUuid}/approvals/${created.approvalUuid}`)).body.status).toBe(
      'DELIVERED',
    );
  });

  it('POST /__mock/cards/{cardId}/lock and /unlock, while the approval is DELIVERED', async () => {
    const { approval: created } = await approval(true);
    expect(created.status).toBe('DELIVERED');
    const locked = await ctl('POST', `/cards/${created.card.id}/lock`);
    expect(locked.status).toBe(200);
    expect(locked.body.status).toBe('LOCKED');
    expect((await ctl('POST', `/cards/${created.card.id}/unlock`)).body.status).toBe('ACTIVE');
  });

  it('POST /__mock/corporates/{c}/approvals/{a}/request-change, then /reject, then /cancel of another', async () => {
    const { corporateUuid, approval: delivered } = await approval(true);
    const change = await ctl(
      'POST',
      `/corporates/${corporateUuid}/approvals/${delivered.approvalUuid}/request-change`,
      {
        additionalBudget: { amount: 500, currency: 'EUR' },
      },
    );
    expect(change.status).toBe(201);
    expect(change.body.status).toBe('CREATED');
    expect(change.body.card.id).toBe(delivered.card.id);
    const rejected = await ctl('POST', `/corporates/${corporateUuid}/approvals/${change.body.approvalUuid}/reject`);
    expect(rejected.body.status).toBe('REJECTED');
    expect((await api('GET', `/corporates/${corporateUuid}/approvals/${change.body.approvalUuid}`)).body.status).toBe(
      'REJECTED',
    );

    const { approval: accepted } = await approval(false);
    const canceled = await ctl('POST', `/corporates/${corporateUuid}/approvals/${accepted.approvalUuid}/cancel`);
    expect(canceled.body.status).toBe('CANCELED');
    const again = await ctl('POST', `/corporates/${corporateUuid}/approvals/${accepted.approvalUuid}/cancel`);
    expect(again.status).toBe(409);
    expect(again.body.code).toBe('INVALID_TRANSITION');
  });

  it('GET /__mock/state and PUT /__mock/state save and restore the whole tenant state', async () => {
    const saved = await ctl('GET', '/state');
    expect(saved.status).toBe(200);
    const user = (await api('POST', '/s2s/users', newUser('state'))).body;
    expect((await api('GET', `/s2s/users/${user.id}`)).status).toBe(200);
    expect((await ctl('PUT', '/state', saved.body)).status).toBe(200);
    expect((await api('GET', `/s2s/users/${user.id}`)).status).toBe(404);
  });

  it('POST /__mock/faults answers the next matching requests with the fault, a network fault drops the connection', async () => {
    const user = (await api('POST', '/s2s/users', newUser('fault'))).body;
    expect(
      (await ctl('POST', '/faults', { method: 'GET', path: '/s2s/users/{userId}', status: 503, times: 2 })).status,
    ).toBe(201);
    expect((await api('GET', `/s2s/users/${user.id}`)).status).toBe(503);
    expect((await api('GET', `/s2s/users/${user.id}`)).status).toBe(503);
    expect((await api('GET', `/s2s/users/${user.id}`)).status).toBe(200);
    await ctl('POST', '/faults', { path: '/s2s/users/*', status: 0 });
    await expect(api('GET', `/s2s/users/${user.id}`)).rejects.toThrow(/fetch failed/);
    expect((await api('GET', `/s2s/users/${user.id}`)).status).toBe(200);
  });

  it('POST /__mock/reset goes back to the seeded state', async () => {
    const seeded = (await ctl('GET', '/fixtures')).body;
    const user = (await api('POST', '/s2s/users', newUser('reset'))).body;
    const reset = await ctl('POST', '/reset');
    expect(reset.status).toBe(200);
    expect((await api('GET', `/s2s/users/${user.id}`)).status).toBe(404);
    expect(reset.body.corporates.map((c: { corporateUuid: string }) => c.corporateUuid)).toEqual(
      seeded.corporates.map((c: { corporateUuid: string }) => c.corporateUuid),
    );
  });

  it('POST /__mock/credentials adds a tenant; signed with its key, a control request acts on it; unsigned, ?apiKey= is refused', async () => {
    const added = await ctl('POST', '/credentials', { apiKey: 'ctl_tenant', apiSecret: 'ctl_secret' });
    expect(added.status).toBe(201);
    expect(added.body.credentials).toEqual([{ apiKey: 'ctl_tenant' }]);
    const signed = await control(server.url, 'GET', '/fixtures', undefined, {
      apiKey: 'ctl_tenant',
      apiSecret: 'ctl_secret',
    });
    expect(signed.body.credentials[0].apiKey).toBe('ctl_tenant');
    const unsigned = await ctl('GET', '/fixtures?apiKey=ctl_tenant');
    expect(unsigned.status).toBe(401);
    expect(unsigned.body.code).toBe('AUTH_MISSING');
    expect((await ctl('GET', '/no-such-route')).body.code).toBe('ROUTE_NOT_FOUND');
  });
});
