import { setupServer } from 'msw/node';
import { describe, expect, it } from 'vitest';
import { createMock, type CardIssuingMock } from '../../mock-server/src/index';
import { startMockServer } from '../../mock-server/src/node';
import {
  approveDeposit,
  createCardIssuingClient,
  depositAddress,
  generateCardKeyPair,
  issueCard,
  registerUser,
  type CardIssuingClient,
} from '../../sdk/src/index';
import { sendSigned } from '../helpers/signed-request';
import { repoPath } from '../helpers/spec';
import { recordMswExchanges } from '../../examples/support/recorders';
import {
  createConformanceChecker,
  createRecordingFetch,
  type ConformanceChecker,
} from 'card-issuing-contract/conformance';

// The recorders plugged into the real mock: the SDK drives all 32 operations and a few refusals, and every exchange
// is checked against the raw spec by the independent checker, in-process (MSW events) and over HTTP (fetch wrapper).
// This is the wiring the demo and the contract suite use; it also tells at once whether the mock conforms.

const specPath = repoPath('spec/openapi.yaml');
const credentials = { apiKey: 'test_key', apiSecret: 'test_secret' };
const DAY = 24 * 3600;
const keyPair = await generateCardKeyPair({ bits: 2048 });

/** Drives every operation of the spec through the SDK and its flows. */
async function everyOperation(client: CardIssuingClient, mock: CardIssuingMock): Promise<void> {
  const fixtures = mock.fixtures();
  const accept = () => true;

  // Server2Server: registration, card issuing through a paid physical card, deposits with a verification.
  const { user } = await registerUser(client, {
    registration: {
      email: 'ada@example.org',
      firstName: 'Ada',
      lastName: 'Lovelace',
      phone: '+447700900123',
      dateOfBirth: '1990-12-10',
      country: 'GB',
    },
    acceptConsents: accept,
  });
  const paidPhysical = fixtures.cardConfigs.find((c) => c.type === 'PHYSICAL' && c.price !== null);
  if (!paidPhysical) throw new Error('the fixtures have no paid physical card config');
  const issued = await issueCard(client, {
    userId: user.id,
    configId: paidPhysical.configId,
    getOtpCode: () => mock.outbox(user.id).at(-1)?.code ?? '',
    completeKyc: () => {
      mock.kyc(user.id, 'PASSED');
    },
    acceptConsents: accept,
    topUpBalance: async ({ draft }) => {
      await depositAddress(client, {
        userId: user.id,
        type: 'USDC',
        balanceId: draft.balanceId,
        acceptConsents: accept,
      });
      mock.deposits.incoming({ balanceId: draft.balanceId, type: 'USDC', amount: '1000', requiresVerification: true });
      await approveDeposit(client, {
        userId: user.id,
        getVerificationData: () => ({ sourceOfFunds: 'SAVINGS', walletType: 'SELF_HOSTED' }),
      });
    },
    waitForOrderCompletion: () => {
      mock.clock.advance(4 * DAY);
    },
  });
  await client.s2s.cards.list(user.id);
  await client.s2s.balances.list(user.id);
  await client.s2s.cards.getDetails(issued.card.id, { keyPair });

  // Wallet App: the same user's deposits, with a second asset.
  const appTypes = await client.app.deposits.listTypes(user.id);
  const other = appTypes.items.find((t) => t.type !== 'USDC');
  if (!other) throw new Error('the fixtures have a single deposit type');
  for (const consent of other.requiredConsents) await client.app.consents.sign(user.id, consent.id);
  const { address } = await depositAddress(client, {
    area: 'app',
    userId: user.id,
    type: other.type,
    acceptConsents: accept,
  });
  mock.deposits.incoming({
    balanceId: address.balanceId,
    type: other.type,
    amount: other.minimumAmount,
    requiresVerification: true,
  });
  await approveDeposit(client, {
    area: 'app',
    userId: user.id,
    getVerificationData: () => ({ sourceOfFunds: 'SALARY', walletType: 'EXCHANGE', exchangeName: 'Kraken' }),
  });

  // Business cards: an approval DELIVERED, its details, a reapproval, the corporate's addresses and a top-up.
  const corporate = fixtures.corporates[0]!;
  const businessUser = await client.corporates.users.create({
    name: 'Grace',
    lastName: 'Hopper',
    email: 'grace@corp.example',
    phone: '+12025550143',
  });
  const now = mock.clock.now().getTime();
  const approval = await client.corporates.approvals.create(corporate.corporateUuid, {
    userUuid: businessUser.userUuid,
    budget: { amount: 50_000, currency: corporate.balance.currency },
    validFrom: new Date(now).toISOString(),
    validTo: new Date(now + 30 * DAY * 1000).toISOString(),
  });
  mock.users.completeRegistration(businessUser.userUuid);
  await client.corporates.approvals.get(corporate.corporateUuid, approval.approvalUuid);
  await client.corporates.approvals.getDetails(corporate.corporateUuid, approval.approvalUuid, { keyPair });
  await client.corporates.approvals.increaseBudget(corporate.corporateUuid, approval.approvalUuid, {
    additionalBudget: { amount: 10_000, currency: corporate.balance.currency },
  });
  await client.corporates.approvals.listForUser(corporate.corporateUuid, businessUser.userUuid);
  const addresses = await client.corporates.deposits.list(corporate.corporateUuid);
  const corporateAddress = addresses.items[0];
  if (corporateAddress) {
    const type = fixtures.depositTypes.find((t) => t.type === corporateAddress.type)!;
    mock.deposits.incoming({ balanceId: corporate.balanceId, type: type.type, amount: type.minimumAmount });
  }
  await client.corporates.topUps.list(corporate.corporateUuid);
}

/** Refusals the spec documents: each must be a problem+json of a documented status. */
async function refusals(client: CardIssuingClient, send: typeof fetch, baseUrl: string): Promise<void> {
  const settle = (p: Promise<unknown>) =>
    p.then(
      () => 'resolved',
      () => 'rejected',
    );
  const unknownId = '00000000-0000-4000-8000-000000000000';
  expect(await settle(client.s2s.users.get(unknownId))).toBe('rejected'); // 404 NOT_FOUND
  expect(await settle(client.corporates.approvals.get(unknownId, unknownId))).toBe('rejected'); // 404
  // Unsigned (401), malformed body (400), unknown route (404 ROUTE_NOT_FOUND): raw requests the SDK would never send.
  await send(`${baseUrl}/s2s/users/${unknownId}`);
  const url = `${baseUrl}/s2s/users`;
  const body = '{"email":"not-an-email"}';
  await sendSigned({ method: 'POST', url, body, credentials }, send);
  await sendSigned({ method: 'GET', url: `${baseUrl}/s2s/nothing-here`, credentials }, send);
}

function expectConformant(checker: ConformanceChecker): void {
  expect(checker.findings(), checker.report()).toEqual([]);
  expect(checker.coverage(), checker.report()).toMatchObject({ covered: 32, total: 32, missing: [] });
}

describe('the mock, checked against the spec by the independent checker', () => {
  it('in-process: every exchange MSW answers, recorded from its life-cycle events', async () => {
    const mock = createMock({ seed: 'conformance', clock: { now: '2026-11-21T09:00:00Z' } });
    const server = setupServer(...mock.handlers);
    const checker = createConformanceChecker({ specPath });
    const recorder = recordMswExchanges(server, checker);
    server.listen({ onUnhandledFrame: 'error' });
    try {
      const baseUrl = 'http://mock.test';
      const client = createCardIssuingClient({ baseUrl, ...credentials, retry: false });
      await everyOperation(client, mock);
      await refusals(client, fetch, baseUrl);
      await recorder.settled();
    } finally {
      recorder.stop();
      server.close();
    }
    expectConformant(checker);
    expect(checker.checked()).toBeGreaterThan(40);
  });

  it('over HTTP: every exchange with startMockServer, recorded by a fetch wrapper passed to the SDK', async () => {
    const running = await startMockServer({ port: 0, seed: 'conformance', log: () => {} });
    const checker = createConformanceChecker({ specPath });
    const recordingFetch = createRecordingFetch(checker);
    try {
      const client = createCardIssuingClient({
        baseUrl: running.url,
        ...credentials,
        retry: false,
        fetch: recordingFetch,
      });
      await everyOperation(client, running.mock);
      await refusals(client, recordingFetch, running.url);
    } finally {
      await running.close();
    }
    expectConformant(checker);
  });
});
