/**
 * The people and things contract tests start from: a registered user, one whose e-mail is verified and KYC passed
 * (through the mock's control API), a funded balance, a business user with an approval. Each is made through the
 * API the suite checks, so each is also checked.
 * @module
 */
import { depositAddress, type Approval, type BusinessUser, type User } from 'card-issuing-sdk';
import { newRegistration, type MockControl } from 'card-issuing-mock/control';
import { newBusinessUser, type Contract } from './harness';

const DAY_MS = 24 * 3600 * 1000;

/** A user whose registration consents are all signed (registration COMPLETED). */
export async function registeredUser(contract: Contract): Promise<User> {
  const { client } = contract;
  const user = await client.s2s.users.create(newRegistration());
  for (const consent of user.requiredConsents) await client.s2s.consents.sign(user.id, consent.id);
  return client.s2s.users.get(user.id);
}

/** A registered user whose e-mail is verified with the code read from the mock's outbox. */
export async function verifiedUser(contract: Contract, control: MockControl): Promise<User> {
  const user = await registeredUser(contract);
  await contract.client.s2s.email.requestOtp(user.id);
  return contract.client.s2s.email.confirm(user.id, { code: await control.latestOtpCode(user.id) });
}

/** A verified user who passed KYC and signed the card consents of every config: ready to be issued any card. */
export async function cardReadyUser(contract: Contract, control: MockControl): Promise<User> {
  const user = await verifiedUser(contract, control);
  await control.kyc(user.id, 'PASSED');
  const configs = await contract.client.s2s.cards.listConfigs(user.id);
  for (const config of configs.items)
    for (const consent of config.requiredConsents) await contract.client.s2s.consents.sign(user.id, consent.id);
  return contract.client.s2s.users.get(user.id);
}

/** Credits a user's balance with a USDC deposit (no verification); returns the balance id. */
export async function fundBalance(
  contract: Contract,
  control: MockControl,
  userId: string,
  amount = '100',
): Promise<string> {
  const { address } = await depositAddress(contract.client, { userId, type: 'USDC', acceptConsents: () => true });
  await control.incomingDeposit({ balanceId: address.balanceId, type: 'USDC', amount, network: address.network });
  return address.balanceId;
}

/** An instant `days` from `from` (RFC 3339). */
export const daysFrom = (from: number, days: number): string => new Date(from + days * DAY_MS).toISOString();

/** A business user and an approval for them (ACCEPTED), valid from now (or `startInDays`) for 30 days, on the server's clock. */
export async function businessApproval(
  contract: Contract,
  corporate: { corporateUuid: string; currency: string },
  options: { budget?: number; startInDays?: number; user?: BusinessUser } = {},
): Promise<{ user: BusinessUser; approval: Approval; start: number }> {
  const user = options.user ?? (await contract.client.corporates.users.create(newBusinessUser()));
  const start = await contract.now();
  const approval = await contract.client.corporates.approvals.create(corporate.corporateUuid, {
    userUuid: user.userUuid,
    budget: { amount: options.budget ?? 50_000, currency: corporate.currency },
    validFrom: daysFrom(start, options.startInDays ?? 0),
    validTo: daysFrom(start, (options.startInDays ?? 0) + 30),
  });
  return { user, approval, start };
}
