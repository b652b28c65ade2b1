import { HttpResponse } from 'msw';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  createCardIssuingClient,
  generateCardKeyPair,
  type ApiPromise,
  type CardDetails,
  type CardIssuingClient,
  type RequestEvent,
  type ResponseEvent,
  type RetryEvent,
} from 'card-issuing-sdk';
import { encryptCardDetails } from 'card-issuing-sdk/server';
import { API_KEY, API_SECRET, problem, signedServer, specExample, specOperationIds, uuid as u } from './support';

// Every operation through the public client: signed (the handler verifies each request with verifySignature and a
// NonceCache), sent (method, path, query, body as the spec says) and parsed (the spec's example comes back typed
// and validated by the generated zod schema).
const BASE = 'https://client.test';
const api = signedServer(BASE);
beforeAll(() => api.server.listen({ onUnhandledFrame: 'error' }));
/** What the client said it was sending (its onRequest hook): the operation it meant, by the spec's operationId. */
const sent: RequestEvent[] = [];
afterEach(() => {
  api.reset();
  sent.length = 0;
});
afterAll(() => api.server.close());

const client = createCardIssuingClient({
  baseUrl: BASE,
  apiKey: API_KEY,
  apiSecret: API_SECRET,
  retry: { initialDelayMs: 5, maxDelayMs: 20 },
  hooks: { onRequest: (event) => void sent.push(event) },
});
const keyPair = await generateCardKeyPair();
const details: CardDetails = {
  pan: '4000123412344246',
  expiryMonth: 11,
  expiryYear: 2029,
  cvv: '123',
  cardholderName: 'ADA LOVELACE',
};
const money = { amount: 1000, currency: 'EUR' };
const registration = {
  email: 'ada@example.org',
  firstName: 'Ada',
  lastName: 'Lovelace',
  phone: '+447700900123',
  dateOfBirth: '1990-12-10',
  country: 'GB',
};
const verification = { sourceOfFunds: 'SAVINGS' as const, walletType: 'SELF_HOSTED' as const };
const approvalBody = {
  userUuid: u(9),
  budget: money,
  validFrom: '2026-11-21T00:00:00Z',
  validTo: '2026-12-31T00:00:00Z',
};

interface Case {
  op: string;
  method: 'GET' | 'POST';
  path: string;
  query?: Record<string, string>;
  body?: unknown;
  call: (c: CardIssuingClient) => ApiPromise<unknown>;
  /** The card-details operations answer with a JWE to the sent key and return the decrypted details. */
  details?: true;
}

const cases: Case[] = [
  {
    op: 'createUser',
    method: 'POST',
    path: '/s2s/users',
    body: registration,
    call: (c) => c.s2s.users.create(registration),
  },
  { op: 'getUser', method: 'GET', path: `/s2s/users/${u(1)}`, call: (c) => c.s2s.users.get(u(1)) },
  {
    op: 'signUserConsent',
    method: 'POST',
    path: `/s2s/users/${u(1)}/consents/${u(2)}/sign`,
    call: (c) => c.s2s.consents.sign(u(1), u(2)),
  },
  {
    op: 'requestEmailOtp',
    method: 'POST',
    path: `/s2s/users/${u(1)}/email/otp`,
    call: (c) => c.s2s.email.requestOtp(u(1)),
  },
  {
    op: 'confirmEmail',
    method: 'POST',
    path: `/s2s/users/${u(1)}/email/confirm`,
    body: { code: '123456' },
    call: (c) => c.s2s.email.confirm(u(1), { code: '123456' }),
  },
  {
    op: 'listCardConfigs',
    method: 'GET',
    path: `/s2s/users/${u(1)}/cards/configs`,
    call: (c) => c.s2s.cards.listConfigs(u(1)),
  },
  {
    op: 'createCard',
    method: 'POST',
    path: `/s2s/users/${u(1)}/cards`,
    body: { configId: u(3), visualId: u(4) },
    call: (c) => c.s2s.cards.create(u(1), { configId: u(3), visualId: u(4) }),
  },
  {
    op: 'chargeDraft',
    method: 'POST',
    path: `/s2s/cards/${u(5)}/charge-draft`,
    call: (c) => c.s2s.cards.chargeDraft(u(5)),
  },
  {
    op: 'completeDraft',
    method: 'POST',
    path: `/s2s/cards/${u(5)}/complete-draft`,
    call: (c) => c.s2s.cards.completeDraft(u(5)),
  },
  {
    op: 'activateCard',
    method: 'POST',
    path: `/s2s/cards/${u(5)}/activation`,
    call: (c) => c.s2s.cards.activate(u(5)),
  },
  { op: 'listCards', method: 'GET', path: '/s2s/cards', query: { userId: u(1) }, call: (c) => c.s2s.cards.list(u(1)) },
  {
    op: 'getCardDetails',
    method: 'GET',
    path: `/s2s/cards/${u(5)}/details`,
    details: true,
    call: (c) => c.s2s.cards.getDetails(u(5), { keyPair }),
  },
  {
    op: 'listBalances',
    method: 'GET',
    path: '/s2s/balances',
    query: { userId: u(1) },
    call: (c) => c.s2s.balances.list(u(1)),
  },
  {
    op: 'listDepositTypes',
    method: 'GET',
    path: `/s2s/deposits/${u(6)}/types`,
    call: (c) => c.s2s.deposits.listTypes(u(6)),
  },
  {
    op: 'listDepositAddresses',
    method: 'GET',
    path: `/s2s/deposits/${u(6)}/USDC`,
    call: (c) => c.s2s.deposits.listAddresses(u(6), 'USDC'),
  },
  {
    op: 'createDepositAddress',
    method: 'POST',
    path: `/s2s/deposits/${u(6)}/USDC`,
    body: { network: 'ETHEREUM' },
    call: (c) => c.s2s.deposits.createAddress(u(6), 'USDC', { network: 'ETHEREUM' }),
  },
  {
    op: 'listDepositVerifications',
    method: 'GET',
    path: '/s2s/deposits/verifications',
    query: { userId: u(1) },
    call: (c) => c.s2s.deposits.listVerifications({ userId: u(1) }),
  },
  {
    op: 'approveDepositVerification',
    method: 'POST',
    path: `/s2s/deposits/verifications/${u(7)}/approval`,
    body: verification,
    call: (c) => c.s2s.deposits.approveVerification(u(7), verification),
  },
  {
    op: 'listAppDepositTypes',
    method: 'GET',
    path: '/app/deposits/types',
    query: { userUuid: u(1) },
    call: (c) => c.app.deposits.listTypes(u(1)),
  },
  {
    op: 'signAppConsent',
    method: 'POST',
    path: `/app/deposits/consents/${u(2)}/sign`,
    query: { userUuid: u(1) },
    call: (c) => c.app.consents.sign(u(1), u(2)),
  },
  {
    op: 'listAppDepositAddresses',
    method: 'GET',
    path: `/app/deposits/${u(6)}/BTC`,
    call: (c) => c.app.deposits.listAddresses(u(6), 'BTC'),
  },
  {
    op: 'createAppDepositAddress',
    method: 'POST',
    path: `/app/deposits/${u(6)}/BTC`,
    body: { network: 'BITCOIN', label: 'x' },
    call: (c) => c.app.deposits.createAddress(u(6), 'BTC', { network: 'BITCOIN', label: 'x' }),
  },
  {
    op: 'listAppDepositVerifications',
    method: 'GET',
    path: '/app/deposits/verifications',
    query: { userUuid: u(1) },
    call: (c) => c.app.deposits.listVerifications(u(1)),
  },
  {
    op: 'approveAppDepositVerification',
    method: 'POST',
    path: `/app/deposits/verifications/${u(7)}/approval`,
    body: verification,
    call: (c) => c.app.deposits.approveVerification(u(7), verification),
  },
  {
    op: 'createBusinessUser',
    method: 'POST',
    path: '/corporates/users',
    body: { name: 'Grace', lastName: 'Hopper', email: 'g@corp.example', phone: '+12025550143' },
    call: (c) =>
      c.corporates.users.create({ name: 'Grace', lastName: 'Hopper', email: 'g@corp.example', phone: '+12025550143' }),
  },
  {
    op: 'createApproval',
    method: 'POST',
    path: `/corporates/corporates/${u(8)}/approvals`,
    body: approvalBody,
    call: (c) => c.corporates.approvals.create(u(8), approvalBody),
  },
  {
    op: 'getApproval',
    method: 'GET',
    path: `/corporates/${u(8)}/approvals/${u(10)}`,
    call: (c) => c.corporates.approvals.get(u(8), u(10)),
  },
  {
    op: 'listUserApprovals',
    method: 'GET',
    path: `/corporates/${u(8)}/users/${u(9)}/approvals`,
    call: (c) => c.corporates.approvals.listForUser(u(8), u(9)),
  },
  {
    op: 'getApprovalCardDetails',
    method: 'GET',
    path: `/corporates/${u(8)}/approvals/${u(10)}/details`,
    details: true,
    call: (c) => c.corporates.approvals.getDetails(u(8), u(10), { keyPair }),
  },
  {
    op: 'increaseApprovalBudget',
    method: 'POST',
    path: `/corporates/${u(8)}/approvals/${u(10)}/increase-budget`,
    body: { additionalBudget: money },
    call: (c) => c.corporates.approvals.increaseBudget(u(8), u(10), { additionalBudget: money }),
  },
  {
    op: 'listCorporateDepositAddresses',
    method: 'GET',
    path: `/corporates/${u(8)}/deposits`,
    call: (c) => c.corporates.deposits.list(u(8)),
  },
  { op: 'listTopUps', method: 'GET', path: `/corporates/${u(8)}/top-ups`, call: (c) => c.corporates.topUps.list(u(8)) },
];

describe('every operation through the client', () => {
  it('covers all 32 operations of the spec', () => {
    expect(cases.map((c) => c.op).sort()).toEqual([...specOperationIds].sort());
  });

  it.each(cases)(
    '$op: signed, sent as $method $path, parsed',
    async ({ op, method, path, query, body, call, details: isDetails }) => {
      if (isDetails) {
        api.respond(async (request) => {
          const publicKey = request.url.searchParams.get('publicKey')!;
          return HttpResponse.json(
            { encryptedDetails: await encryptCardDetails(details, publicKey) },
            { headers: { 'x-request-id': 'req_details' } },
          );
        });
      }
      const result = await call(client).withResponse();
      expect(api.seen).toHaveLength(1);
      const [request] = api.seen;
      expect(request!.signatureOk).toBe(true);
      expect(request!.authorization).toMatch(
        new RegExp(`^HMAC-SHA256 ${API_KEY}:[A-Za-z0-9+/]+=*:[0-9a-f]{32}:[0-9]+$`),
      );
      expect(request!.method).toBe(method);
      expect(request!.url.pathname).toBe(path);
      if (isDetails) {
        // The public key travels in the signed query: exactly the exported key of the pair.
        expect([...request!.url.searchParams.keys()]).toEqual(['publicKey']);
        expect(result.data).toEqual(details);
      } else {
        expect(Object.fromEntries(request!.url.searchParams)).toEqual(query ?? {});
        const { status, example } = specExample(method, path);
        expect(result.status).toBe(status);
        expect(result.data).toEqual(example);
      }
      if (body === undefined) expect(request!.body).toBe('');
      else expect(JSON.parse(request!.body)).toEqual(body);
      // Every POST carries an Idempotency-Key (retries are on); no GET does.
      if (method === 'POST') expect(request!.headers.get('idempotency-key')).toMatch(/^[0-9a-f-]{36}$/);
      else expect(request!.headers.get('idempotency-key')).toBeNull();
      expect(result.requestId).toMatch(/^req_/);
      expect(result.headers.get('x-request-id')).toBe(result.requestId);
      // The method and path that went out are those the spec gives `op` (not only the table's), and the client
      // named that operation in its hook event.
      expect(specExample(request!.method, request!.url.pathname).operationId).toBe(op);
      expect(sent.map((event) => event.operation)).toEqual([op]);
    },
  );

  it('returns the parsed body when awaited directly, and withResponse() shares the same request', async () => {
    const promise = client.s2s.users.get(u(1));
    const [data, full] = await Promise.all([promise, promise.withResponse()]);
    expect(api.seen).toHaveLength(1);
    expect(data).toEqual(specExample('GET', `/s2s/users/${u(1)}`).example);
    expect(full.data).toBe(data);
    expect(full.status).toBe(200);
    expect(promise).toBeInstanceOf(Promise);
  });

  it('sends listDepositVerifications without a query when no user is given', async () => {
    await client.s2s.deposits.listVerifications();
    expect(api.seen[0]!.url.search).toBe('');
  });

  it('uses the caller’s idempotency key, and none with idempotencyKey: false', async () => {
    await client.s2s.cards.chargeDraft(u(5), { idempotencyKey: 'order-42-charge' });
    await client.s2s.cards.chargeDraft(u(5), { idempotencyKey: false });
    expect(api.seen.map((r) => r.headers.get('idempotency-key'))).toEqual(['order-42-charge', null]);
  });

  it('sends no automatic idempotency key when retries are off (nothing to make safe)', async () => {
    await client.s2s.cards.chargeDraft(u(5), { retry: false });
    const noRetry = createCardIssuingClient({ baseUrl: BASE, apiKey: API_KEY, apiSecret: API_SECRET, retry: false });
    await noRetry.s2s.cards.chargeDraft(u(5));
    await noRetry.s2s.cards.chargeDraft(u(5), { idempotencyKey: 'mine' });
    expect(api.seen.map((r) => r.headers.get('idempotency-key'))).toEqual([null, null, 'mine']);
  });

  it('calls the hooks for every attempt, without the Authorization header', async () => {
    const events: { kind: string; event: RequestEvent & Partial<ResponseEvent & RetryEvent> }[] = [];
    const observed = createCardIssuingClient({
      baseUrl: BASE,
      apiKey: API_KEY,
      apiSecret: API_SECRET,
      retry: { initialDelayMs: 1 },
      hooks: {
        onRequest: (event) => events.push({ kind: 'request', event }),
        onResponse: (event) => events.push({ kind: 'response', event }),
        onRetry: (event) => events.push({ kind: 'retry', event }),
      },
    });
    api.respond((_, i) => (i === 0 ? problem(503, 'UNAVAILABLE', 'Try again.') : undefined));
    await observed.s2s.users.get(u(1));
    expect(events.map((e) => `${e.kind}:${e.event.attempt}`)).toEqual([
      'request:1',
      'response:1',
      'retry:2',
      'request:2',
      'response:2',
    ]);
    expect(events.every((e) => e.event.operation === 'getUser' && e.event.method === 'GET')).toBe(true);
    expect(events[1]!.event.status).toBe(503);
    expect(events[2]!.event.error!.name).toBe('ServerError');
    const serialized = JSON.stringify(events);
    for (const request of api.seen) expect(serialized).not.toContain(request.authorization!);
    expect(serialized).not.toContain(API_SECRET);
  });

  it('ignores an exception thrown by a hook', async () => {
    const noisy = createCardIssuingClient({
      baseUrl: BASE,
      apiKey: API_KEY,
      apiSecret: API_SECRET,
      hooks: {
        onRequest: () => {
          throw new Error('logger down');
        },
      },
    });
    await expect(noisy.s2s.users.get(u(1))).resolves.toMatchObject({ id: expect.any(String) });
  });

  it('refuses bad construction options without echoing the secret', () => {
    expect(() => createCardIssuingClient({ baseUrl: 'not a url', apiKey: API_KEY, apiSecret: API_SECRET })).toThrow(
      /absolute URL/,
    );
    expect(() => createCardIssuingClient({ baseUrl: 'ftp://x.test', apiKey: API_KEY, apiSecret: API_SECRET })).toThrow(
      /http or https/,
    );
    expect(() => createCardIssuingClient({ baseUrl: BASE, apiKey: '', apiSecret: API_SECRET })).toThrow(/apiKey/);
    expect(() => createCardIssuingClient({ baseUrl: BASE, apiKey: API_KEY, apiSecret: '' })).toThrow(/apiSecret/);
  });

  it('works under a base URL with a path prefix', async () => {
    const prefixed = signedServer('https://prefixed.test');
    // Same handlers; only the origin differs. The prefix is part of the signed URL.
    api.server.use(...prefixed.server.listHandlers());
    const c = createCardIssuingClient({ baseUrl: 'https://prefixed.test/v1/', apiKey: API_KEY, apiSecret: API_SECRET });
    prefixed.respond(() =>
      HttpResponse.json(specExample('GET', `/s2s/users/${u(1)}`).example as Record<string, unknown>),
    );
    await c.s2s.users.get(u(1));
    expect(prefixed.seen[0]!.url.pathname).toBe(`/v1/s2s/users/${u(1)}`);
    expect(prefixed.seen[0]!.signatureOk).toBe(true);
    api.server.resetHandlers();
  });
});
