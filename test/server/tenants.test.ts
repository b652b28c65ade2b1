/**
 * Two tenants on one server (a second api key added with POST /__mock/credentials) never see each other's users,
 * cards or approvals: each resource of one is a 404 for the other, through the API and the control API alike.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMockServer, type MockServer } from '../../mock-server/src/node.js';
import { control, DEFAULT_CREDENTIALS, newUser, signedFetch } from './helpers.js';

const B = { apiKey: 'tenant_b', apiSecret: 'secret_b' };
let server: MockServer;
const as = (credentials: { apiKey: string; apiSecret: string }) => (method: string, path: string, body?: unknown) =>
  signedFetch(server.url, method, path, { body, credentials });
const a = as(DEFAULT_CREDENTIALS);
const b = as(B);

/** A's resources: an s2s user with an active virtual card, a business user with a DELIVERED approval and its card. */
let owned: {
  userId: string;
  cardId: string;
  corporateUuid: string;
  approvalUuid: string;
  businessUserUuid: string;
  approvalCardId: string;
};

beforeAll(async () => {
  server = await startMockServer({ port: 0 });
  expect((await control(server.url, 'POST', '/credentials', B)).status).toBe(201);

  const fixtures = (await control(server.url, 'GET', '/fixtures')).body;
  const user = (await a('POST', '/s2s/users', newUser('tenant-a'))).body;
  for (const consent of user.requiredConsents) await a('POST', `/s2s/users/${user.id}/consents/${consent.id}/sign`);
  await a('POST', `/s2s/users/${user.id}/email/otp`);
  const code = (await control(server.url, 'GET', `/outbox?userId=${user.id}`)).body.items.at(-1).code;
  await a('POST', `/s2s/users/${user.id}/email/confirm`, { code });
  await control(server.url, 'POST', `/kyc/${user.id}`, { status: 'PASSED' });
  const free = fixtures.cardConfigs.find(
    (c: { price: unknown; type: string }) => c.price === null && c.type === 'VIRTUAL',
  );
  for (const consentId of free.consentIds) await a('POST', `/s2s/users/${user.id}/consents/${consentId}/sign`);
  const card = await a('POST', `/s2s/users/${user.id}/cards`, { configId: free.configId, visualId: free.visualIds[0] });
  expect(card.status).toBe(201);

  const corporate = fixtures.corporates[0];
  const businessUser = (
    await a('POST', '/corporates/users', {
      name: 'Grace',
      lastName: 'Hopper',
      email: newUser('grace').email,
      phone: '+12025550143',
    })
  ).body;
  const now = Date.parse((await control(server.url, 'GET', '/clock')).body.now);
  const approval = await a('POST', `/corporates/corporates/${corporate.corporateUuid}/approvals`, {
    userUuid: businessUser.userUuid,
    budget: { amount: 10_000, currency: 'EUR' },
    validFrom: new Date(now - 60_000).toISOString(),
    validTo: new Date(now + 30 * 86_400_000).toISOString(),
  });
  expect(approval.status).toBe(201);
  await control(server.url, 'POST', `/users/${businessUser.userUuid}/complete-registration`);
  owned = {
    userId: user.id,
    cardId: card.body.id,
    corporateUuid: corporate.corporateUuid,
    approvalUuid: approval.body.approvalUuid,
    businessUserUuid: businessUser.userUuid,
    approvalCardId: approval.body.card.id,
  };
});
afterAll(() => server.close());

describe('two tenants on one server', () => {
  it('the owner sees its resources', async () => {
    expect((await a('GET', `/s2s/users/${owned.userId}`)).status).toBe(200);
    expect((await a('GET', `/s2s/cards?userId=${owned.userId}`)).body.items.map((c: { id: string }) => c.id)).toContain(
      owned.cardId,
    );
    expect((await a('GET', `/corporates/${owned.corporateUuid}/approvals/${owned.approvalUuid}`)).body.status).toBe(
      'DELIVERED',
    );
  });

  it("the other tenant gets 404 for the owner's user, cards and approvals", async () => {
    const reads: [string, string][] = [
      ['GET', `/s2s/users/${owned.userId}`],
      ['GET', `/s2s/cards?userId=${owned.userId}`],
      ['GET', `/s2s/balances?userId=${owned.userId}`],
      ['GET', `/s2s/users/${owned.userId}/cards/configs`],
      ['GET', `/corporates/${owned.corporateUuid}/approvals/${owned.approvalUuid}`],
      ['GET', `/corporates/${owned.corporateUuid}/users/${owned.businessUserUuid}/approvals`],
      ['GET', `/corporates/${owned.corporateUuid}/top-ups`],
    ];
    for (const [method, path] of reads) {
      const res = await b(method, path);
      expect([path, res.status, res.body.code]).toEqual([path, 404, 'NOT_FOUND']);
    }
    const writes: [string, string, unknown][] = [
      ['POST', `/s2s/users/${owned.userId}/email/otp`, undefined],
      ['POST', `/s2s/cards/${owned.cardId}/activation`, undefined],
      [
        'POST',
        `/corporates/${owned.corporateUuid}/approvals/${owned.approvalUuid}/increase-budget`,
        { additionalBudget: { amount: 100, currency: 'EUR' } },
      ],
    ];
    for (const [method, path, body] of writes) {
      const res = await b(method, path, body);
      expect([path, res.status, res.body.code]).toEqual([path, 404, 'NOT_FOUND']);
    }
  });

  it("the other tenant's control API cannot reach the owner's records either", async () => {
    const kyc = await control(server.url, 'POST', `/kyc/${owned.userId}`, { status: 'FAILED' }, B);
    expect(kyc.status).toBe(404);
    const lock = await control(server.url, 'POST', `/cards/${owned.approvalCardId}/lock`, undefined, B);
    expect(lock.status).toBe(404);
    expect((await control(server.url, 'GET', `/outbox?apiKey=${B.apiKey}`, undefined, B)).body.items).toEqual([]);
    expect((await a('GET', `/s2s/users/${owned.userId}`)).body.kycStatus).toBe('PASSED');
  });

  it("each tenant's lists hold only its own records, and a reset of one leaves the other alone", async () => {
    const bUser = (await b('POST', '/s2s/users', newUser('tenant-b'))).body;
    expect((await a('GET', `/s2s/users/${bUser.id}`)).status).toBe(404);
    const bFixtures = (await control(server.url, 'GET', '/fixtures', undefined, B)).body;
    const bCorporate = bFixtures.corporates[0].corporateUuid;
    expect((await b('GET', `/corporates/${bCorporate}/users/${owned.businessUserUuid}/approvals`)).status).toBe(404);

    expect((await control(server.url, 'POST', '/reset', undefined, B)).status).toBe(200);
    expect((await b('GET', `/s2s/users/${bUser.id}`)).status).toBe(404);
    expect((await a('GET', `/s2s/users/${owned.userId}`)).status).toBe(200);
  });

  it("a tenant's key with the other's secret is refused", async () => {
    const res = await signedFetch(server.url, 'GET', `/s2s/users/${owned.userId}`, {
      credentials: { apiKey: B.apiKey, apiSecret: DEFAULT_CREDENTIALS.apiSecret },
    });
    expect(res.status).toBe(401);
    expect(res.body.code).toBe('AUTH_SIGNATURE_MISMATCH');
  });
});
