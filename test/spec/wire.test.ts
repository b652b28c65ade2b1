import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient } from '../../sdk/generated/client';
import * as api from '../../sdk/generated/sdk.gen';
import { specExample, specOperations } from '../helpers/spec';

// Every generated function, called in a type-checked way against a trivial MSW handler that records what
// reached the wire and answers with the spec's own success example (so response validation runs too).
const BASE = 'https://wire.test';
const operations = specOperations();
const seen: { method: string; url: URL; body: string }[] = [];

const server = setupServer(
  http.all(`${BASE}/*`, async ({ request }) => {
    const url = new URL(request.url);
    seen.push({ method: request.method, url, body: await request.text() });
    const { status, example } = specExample(request.method, url.pathname);
    return HttpResponse.json(example as Record<string, unknown>, { status });
  }),
);
beforeAll(() => server.listen({ onUnhandledFrame: 'error' }));
afterAll(() => server.close());

const client = createClient({ baseUrl: BASE, throwOnError: true });
const u = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
const money = { amount: 1000, currency: 'EUR' };
const key = 'MIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEAu1SU1LfVLPHCozMxH2Mo4lgOEePzNm0tRgeLezV6ffAt0gunVTLw7onLRnrq0';
const registration = {
  email: 'ada@example.org',
  firstName: 'Ada',
  lastName: 'Lovelace',
  phone: '+447700900123',
  dateOfBirth: '1990-12-10',
  country: 'GB',
};

type Call = {
  op: string;
  call: () => Promise<unknown>;
  method: string;
  path: string;
  query?: Record<string, string>;
  body?: unknown;
};
const calls: Call[] = [
  {
    op: 'createUser',
    method: 'POST',
    path: '/s2s/users',
    body: registration,
    call: () => api.createUser({ client, body: registration }),
  },
  {
    op: 'getUser',
    method: 'GET',
    path: `/s2s/users/${u(1)}`,
    call: () => api.getUser({ client, path: { userId: u(1) } }),
  },
  {
    op: 'signUserConsent',
    method: 'POST',
    path: `/s2s/users/${u(1)}/consents/${u(2)}/sign`,
    call: () => api.signUserConsent({ client, path: { userId: u(1), consentId: u(2) } }),
  },
  {
    op: 'listCardConfigs',
    method: 'GET',
    path: `/s2s/users/${u(1)}/cards/configs`,
    call: () => api.listCardConfigs({ client, path: { userId: u(1) } }),
  },
  {
    op: 'requestEmailOtp',
    method: 'POST',
    path: `/s2s/users/${u(1)}/email/otp`,
    call: () => api.requestEmailOtp({ client, path: { userId: u(1) } }),
  },
  {
    op: 'confirmEmail',
    method: 'POST',
    path: `/s2s/users/${u(1)}/email/confirm`,
    body: { code: '123456' },
    call: () => api.confirmEmail({ client, path: { userId: u(1) }, body: { code: '123456' } }),
  },
  {
    op: 'createCard',
    method: 'POST',
    path: `/s2s/users/${u(1)}/cards`,
    body: { configId: u(3), visualId: u(4) },
    call: () => api.createCard({ client, path: { userId: u(1) }, body: { configId: u(3), visualId: u(4) } }),
  },
  {
    op: 'chargeDraft',
    method: 'POST',
    path: `/s2s/cards/${u(5)}/charge-draft`,
    call: () => api.chargeDraft({ client, path: { cardId: u(5) } }),
  },
  {
    op: 'completeDraft',
    method: 'POST',
    path: `/s2s/cards/${u(5)}/complete-draft`,
    call: () => api.completeDraft({ client, path: { cardId: u(5) } }),
  },
  {
    op: 'activateCard',
    method: 'POST',
    path: `/s2s/cards/${u(5)}/activation`,
    call: () => api.activateCard({ client, path: { cardId: u(5) } }),
  },
  {
    op: 'listBalances',
    method: 'GET',
    path: '/s2s/balances',
    query: { userId: u(1) },
    call: () => api.listBalances({ client, query: { userId: u(1) } }),
  },
  {
    op: 'listCards',
    method: 'GET',
    path: '/s2s/cards',
    query: { userId: u(1) },
    call: () => api.listCards({ client, query: { userId: u(1) } }),
  },
  {
    op: 'getCardDetails',
    method: 'GET',
    path: `/s2s/cards/${u(5)}/details`,
    query: { publicKey: key },
    call: () => api.getCardDetails({ client, path: { cardId: u(5) }, query: { publicKey: key } }),
  },
  {
    op: 'listDepositTypes',
    method: 'GET',
    path: `/s2s/deposits/${u(6)}/types`,
    call: () => api.listDepositTypes({ client, path: { balanceId: u(6) } }),
  },
  {
    op: 'listDepositAddresses',
    method: 'GET',
    path: `/s2s/deposits/${u(6)}/USDC`,
    call: () => api.listDepositAddresses({ client, path: { balanceId: u(6), type: 'USDC' } }),
  },
  {
    op: 'createDepositAddress',
    method: 'POST',
    path: `/s2s/deposits/${u(6)}/USDC`,
    body: { network: 'ETHEREUM' },
    call: () =>
      api.createDepositAddress({ client, path: { balanceId: u(6), type: 'USDC' }, body: { network: 'ETHEREUM' } }),
  },
  {
    op: 'listDepositVerifications',
    method: 'GET',
    path: '/s2s/deposits/verifications',
    call: () => api.listDepositVerifications({ client }),
  },
  {
    op: 'approveDepositVerification',
    method: 'POST',
    path: `/s2s/deposits/verifications/${u(7)}/approval`,
    body: { sourceOfFunds: 'SAVINGS', walletType: 'SELF_HOSTED' },
    call: () =>
      api.approveDepositVerification({
        client,
        path: { id: u(7) },
        body: { sourceOfFunds: 'SAVINGS', walletType: 'SELF_HOSTED' },
      }),
  },
  {
    op: 'listAppDepositTypes',
    method: 'GET',
    path: '/app/deposits/types',
    query: { userUuid: u(1) },
    call: () => api.listAppDepositTypes({ client, query: { userUuid: u(1) } }),
  },
  {
    op: 'signAppConsent',
    method: 'POST',
    path: `/app/deposits/consents/${u(2)}/sign`,
    query: { userUuid: u(1) },
    call: () => api.signAppConsent({ client, path: { consentUuid: u(2) }, query: { userUuid: u(1) } }),
  },
  {
    op: 'listAppDepositAddresses',
    method: 'GET',
    path: `/app/deposits/${u(6)}/BTC`,
    call: () => api.listAppDepositAddresses({ client, path: { balanceUuid: u(6), type: 'BTC' } }),
  },
  {
    op: 'createAppDepositAddress',
    method: 'POST',
    path: `/app/deposits/${u(6)}/BTC`,
    body: { network: 'BITCOIN', label: 'x' },
    call: () =>
      api.createAppDepositAddress({
        client,
        path: { balanceUuid: u(6), type: 'BTC' },
        body: { network: 'BITCOIN', label: 'x' },
      }),
  },
  {
    op: 'listAppDepositVerifications',
    method: 'GET',
    path: '/app/deposits/verifications',
    query: { userUuid: u(1) },
    call: () => api.listAppDepositVerifications({ client, query: { userUuid: u(1) } }),
  },
  {
    op: 'approveAppDepositVerification',
    method: 'POST',
    path: `/app/deposits/verifications/${u(7)}/approval`,
    body: { sourceOfFunds: 'OTHER', walletType: 'EXCHANGE', exchangeName: 'Kraken' },
    call: () =>
      api.approveAppDepositVerification({
        client,
        path: { id: u(7) },
        body: { sourceOfFunds: 'OTHER', walletType: 'EXCHANGE', exchangeName: 'Kraken' },
      }),
  },
  {
    op: 'createBusinessUser',
    method: 'POST',
    path: '/corporates/users',
    body: { name: 'Grace', lastName: 'Hopper', email: 'g@corp.example', phone: '+12025550143' },
    call: () =>
      api.createBusinessUser({
        client,
        body: { name: 'Grace', lastName: 'Hopper', email: 'g@corp.example', phone: '+12025550143' },
      }),
  },
  {
    op: 'createApproval',
    method: 'POST',
    path: `/corporates/corporates/${u(8)}/approvals`,
    body: { userUuid: u(9), budget: money, validFrom: '2026-11-21T00:00:00Z', validTo: '2026-12-31T00:00:00Z' },
    call: () =>
      api.createApproval({
        client,
        path: { corporateUuid: u(8) },
        body: { userUuid: u(9), budget: money, validFrom: '2026-11-21T00:00:00Z', validTo: '2026-12-31T00:00:00Z' },
      }),
  },
  {
    op: 'getApproval',
    method: 'GET',
    path: `/corporates/${u(8)}/approvals/${u(10)}`,
    call: () => api.getApproval({ client, path: { corporateUuid: u(8), approvalUuid: u(10) } }),
  },
  {
    op: 'listUserApprovals',
    method: 'GET',
    path: `/corporates/${u(8)}/users/${u(9)}/approvals`,
    call: () => api.listUserApprovals({ client, path: { corporateUuid: u(8), userUuid: u(9) } }),
  },
  {
    op: 'getApprovalCardDetails',
    method: 'GET',
    path: `/corporates/${u(8)}/approvals/${u(10)}/details`,
    query: { publicKey: key },
    call: () =>
      api.getApprovalCardDetails({
        client,
        path: { corporateUuid: u(8), approvalUuid: u(10) },
        query: { publicKey: key },
      }),
  },
  {
    op: 'listCorporateDepositAddresses',
    method: 'GET',
    path: `/corporates/${u(8)}/deposits`,
    call: () => api.listCorporateDepositAddresses({ client, path: { corporateUuid: u(8) } }),
  },
  {
    op: 'listTopUps',
    method: 'GET',
    path: `/corporates/${u(8)}/top-ups`,
    call: () => api.listTopUps({ client, path: { corporateUuid: u(8) } }),
  },
  {
    op: 'increaseApprovalBudget',
    method: 'POST',
    path: `/corporates/${u(8)}/approvals/${u(10)}/increase-budget`,
    body: { additionalBudget: money },
    call: () =>
      api.increaseApprovalBudget({
        client,
        path: { corporateUuid: u(8), approvalUuid: u(10) },
        body: { additionalBudget: money },
      }),
  },
];

describe('generated client on the wire', () => {
  it('covers all 32 operations of the spec', () => {
    expect(calls.map((c) => c.op).sort()).toEqual(operations.map((o) => o.operationId).sort());
  });

  it.each(calls)('$op sends $method $path and parses the response', async ({ call, method, path, query, body }) => {
    seen.length = 0;
    const result = (await call()) as { data: unknown; response: Response };
    expect(seen).toHaveLength(1);
    const [request] = seen;
    expect(request!.method).toBe(method);
    expect(request!.url.pathname).toBe(path);
    expect(Object.fromEntries(request!.url.searchParams)).toEqual(query ?? {});
    if (body === undefined) expect(request!.body).toBe('');
    else expect(JSON.parse(request!.body)).toEqual(body);
    expect(result.response.ok).toBe(true);
    expect(result.data).toBeTypeOf('object');
  });
});
