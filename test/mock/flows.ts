/**
 * Reusable flows over the generated functions, so each test file states only what it tests.
 */
import { expect } from 'vitest';
import type { Client } from '../../sdk/generated/client';
import {
  confirmEmail,
  createApproval,
  createBusinessUser,
  createCard,
  createDepositAddress,
  createUser,
  getApproval,
  listBalances,
  requestEmailOtp,
  signUserConsent,
} from '../../sdk/generated/sdk.gen';
import type { Approval, BusinessUser, Card, User } from '../../sdk/generated/types.gen';
import type { CardIssuingMock } from '../../mock-server/src/index';
import { DAY, ok } from './helpers';

let counter = 0;
/** A unique e-mail for this test run. */
export const email = (name = 'user') => `${name}.${++counter}@example.org`;

/** Registration data of a new user. */
export const registration = (overrides: Partial<Parameters<typeof createUser>[0]['body']> = {}) => ({
  email: email('ada'),
  firstName: 'Ada',
  lastName: 'Lovelace',
  phone: '+447700900123',
  dateOfBirth: '1990-12-10',
  country: 'GB',
  ...overrides,
});

/** Creates a user and, as asked, completes each card prerequisite. */
export async function makeUser(
  client: Client,
  mock: CardIssuingMock,
  steps: {
    register?: boolean;
    verifyEmail?: boolean;
    kyc?: boolean;
    cardConsents?: boolean;
    depositConsents?: boolean;
  } = {},
): Promise<{ user: User; balanceId: string }> {
  let user = ok(await createUser({ client, body: registration() }));
  const fixtures = mock.fixtures();
  if (steps.register ?? true) {
    for (const consent of user.requiredConsents)
      ok(await signUserConsent({ client, path: { userId: user.id, consentId: consent.id } }));
  }
  if (steps.verifyEmail ?? true) {
    ok(await requestEmailOtp({ client, path: { userId: user.id } }));
    const code = mock.outbox(user.id).at(-1)!.code!;
    user = ok(await confirmEmail({ client, path: { userId: user.id }, body: { code } }));
  }
  if (steps.kyc ?? true) mock.kyc(user.id, 'PASSED');
  if (steps.cardConsents ?? true) {
    for (const config of fixtures.cardConfigs) {
      for (const consentId of config.consentIds)
        ok(await signUserConsent({ client, path: { userId: user.id, consentId } }));
    }
  }
  if (steps.depositConsents ?? false) {
    for (const consentId of fixtures.depositTypes[0]!.consentIds)
      ok(await signUserConsent({ client, path: { userId: user.id, consentId } }));
  }
  const balanceId = ok(await listBalances({ client, query: { userId: user.id } })).items[0]!.id;
  return { user, balanceId };
}

/** Credits a user's EUR balance with `eur` euros through a USDC deposit (address created, consents signed). */
export async function fund(
  client: Client,
  mock: CardIssuingMock,
  userId: string,
  balanceId: string,
  usdc: string,
): Promise<number> {
  const consents = mock.fixtures().depositTypes.find((t) => t.type === 'USDC')!.consentIds;
  for (const consentId of consents) ok(await signUserConsent({ client, path: { userId, consentId } }));
  const existing = await createDepositAddress({
    client,
    path: { balanceId, type: 'USDC' },
    body: { network: 'POLYGON' },
  });
  if (existing.error && (existing.error as { code?: string }).code !== 'DEPOSIT_ADDRESS_EXISTS')
    throw new Error(JSON.stringify(existing.error));
  const result = mock.deposits.incoming({ balanceId, type: 'USDC', amount: usdc });
  if (result.kind !== 'verification') throw new Error('expected a verification');
  return result.verification.creditedAmount!.amount;
}

/** A business user, optionally with registration completed. */
export async function makeBusinessUser(
  client: Client,
  mock: CardIssuingMock,
  registered = false,
): Promise<BusinessUser> {
  const user = ok(
    await createBusinessUser({
      client,
      body: { name: 'Grace', lastName: 'Hopper', email: email('grace'), phone: '+12025550143' },
    }),
  );
  if (registered) mock.users.completeRegistration(user.userUuid);
  return user;
}

/** An approval of `budget` minor units from the first corporate, valid from `fromDays` to `toDays` days after now. */
export async function makeApproval(
  client: Client,
  mock: CardIssuingMock,
  userUuid: string,
  options: { budget?: number; fromDays?: number; toDays?: number; corporate?: number } = {},
): Promise<Approval> {
  const corporate = mock.fixtures().corporates[options.corporate ?? 0]!;
  const now = mock.clock.now().getTime();
  return ok(
    await createApproval({
      client,
      path: { corporateUuid: corporate.corporateUuid },
      body: {
        userUuid,
        budget: { amount: options.budget ?? 50_000, currency: 'EUR' },
        validFrom: new Date(now + (options.fromDays ?? 0) * DAY * 1000).toISOString(),
        validTo: new Date(now + (options.toDays ?? 30) * DAY * 1000).toISOString(),
      },
    }),
  );
}

/**
 * Where a Server2Server purchase starts: a user with every card prerequisite and the deposit consents, holding an
 * ACTIVE free virtual card (its balance still empty: {@link fund} it). `available()` reads the balance through the API.
 */
export async function makeS2sCard(
  client: Client,
  mock: CardIssuingMock,
): Promise<{ user: User; balanceId: string; card: Card; available: () => Promise<number> }> {
  const { user, balanceId } = await makeUser(client, mock, { depositConsents: true });
  const config = mock.fixtures().cardConfigs.find((c) => c.type === 'VIRTUAL' && c.price === null)!;
  const card = ok(
    await createCard({
      client,
      path: { userId: user.id },
      body: { configId: config.configId, visualId: config.visualIds[0]! },
    }),
  );
  if (card.object !== 'card') throw new Error('expected a card');
  const available = async () => ok(await listBalances({ client, query: { userId: user.id } })).items[0]!.available;
  return { user, balanceId, card, available };
}

/**
 * Where a business card's purchase starts: an approval of a registered business user, read back DELIVERED (its card
 * generated, the budget reserved on the corporate's balance). Options as {@link makeApproval}'s.
 */
export async function makeDeliveredApproval(
  client: Client,
  mock: CardIssuingMock,
  options: { budget?: number; toDays?: number; corporate?: number } = {},
): Promise<Approval> {
  const user = await makeBusinessUser(client, mock, true);
  const approval = await makeApproval(client, mock, user.userUuid, options);
  const now = ok(
    await getApproval({
      client,
      path: { corporateUuid: approval.corporateUuid, approvalUuid: approval.approvalUuid },
    }),
  );
  expect(now.status).toBe('DELIVERED');
  return now;
}
