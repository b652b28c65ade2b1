/**
 * The builders of the Server2Server area: a user at any step of registration, e-mail verification and KYC, with a
 * balance; a card at any step of card issuing (virtual, physical ordered or active, a draft created or charged,
 * locked); a balance credited, a deposit address, a deposit waiting for verification. Each step is the domain's
 * own operation, in the order the interface document's flows give; a physical card that is ACTIVE was ordered more
 * than 3 days back, so its order completed in the past.
 * @module
 */
import type { Balance, Card, DepositAddress, DepositVerification, Draft, User } from 'card-issuing-sdk';
import { cards, deposits, settle, users, type DomainContext } from '../../domain';
import { balancesOf, findUser } from '../../domain/lookups';
import { balanceView, cardView, draftView, registrationStatus, userView } from '../../domain/views';
import { ORDER_COMPLETION_MS } from '../../machines';
import type { CardConfigRecord, DepositTypeRecord, UserRecord } from '../../store';
import { emailTag } from './business';
import { MINUTE, USER_HISTORY_MS, at, bad, notBefore, resolveUser, type BuildContext } from './context';
import { depositFor, smallestDeposit } from './money';
import type {
  GivenBalanceOptions,
  GivenCardOptions,
  GivenDepositAddressOptions,
  GivenUserOptions,
  GivenVerificationOptions,
} from './options';

/** What `given.user` and `given.balance` made. */
export interface GivenUser {
  user: User;
  balance: Balance;
}

/** What `given.card` made: the card, or the draft it still is. */
export interface GivenCard {
  user: User;
  /** Null while the card is a draft. */
  card: Card | null;
  /** The draft it was (or still is) issued through; null for a free card. */
  draft: Draft | null;
  balance: Balance;
}

/** What `given.depositAddress` made. */
export interface GivenDepositAddress extends GivenUser {
  address: DepositAddress;
}

/** What `given.verification` made. */
export interface GivenVerification extends GivenUser {
  verification: DepositVerification;
}

/** A user made `USER_HISTORY_MS` back, through the steps asked for; the balance credited now. */
export function givenUser(b: BuildContext, o: GivenUserOptions): GivenUser {
  const user = newUser(b, o);
  if ((o.balance ?? 0) > 0) credit(b, user, o.balance!, 'balance');
  return userResult(b, user);
}

function newUser(b: BuildContext, o: GivenUserOptions): UserRecord {
  const made = b.now - USER_HISTORY_MS;
  const id = at(b, made, (ctx) =>
    users.createUser(ctx, {
      email: o.email ?? `user.${emailTag(ctx)}@example.org`,
      firstName: o.firstName ?? 'Ada',
      lastName: o.lastName ?? 'Lovelace',
      phone: o.phone ?? '+447700900123',
      dateOfBirth: o.dateOfBirth ?? '1990-12-10',
      country: o.country ?? 'GB',
    }),
  ).id;
  const user = findUser(b.ctx, id);
  if (o.registered ?? true) signAll(b, user, registrationConsents(b.ctx), made + MINUTE);
  if (o.emailVerified) verifyEmail(b, user, made + 2 * MINUTE);
  if (o.kyc !== undefined && o.kyc !== 'NOT_STARTED')
    at(b, made + 3 * MINUTE, (ctx) => users.setKycStatus(ctx, id, o.kyc as 'PASSED' | 'FAILED'));
  return user;
}

function registrationConsents(ctx: DomainContext): string[] {
  return ctx.state.catalogue.consents.filter((c) => c.kind === 'REGISTRATION').map((c) => c.id);
}

function signAll(b: BuildContext, user: UserRecord, consentIds: readonly string[], when: number): void {
  for (const id of consentIds)
    if (user.signedConsents[id] === undefined) at(b, when, (ctx) => users.signConsent(ctx, user.id, id));
}

/** The e-mail verified as the user does it: a code requested, read from the e-mail, entered. */
function verifyEmail(b: BuildContext, user: UserRecord, when: number): void {
  at(b, when, (ctx) => users.requestEmailOtp(ctx, user.id));
  at(b, when, (ctx) => users.confirmEmail(ctx, user.id, user.otp!.code));
}

function userResult(b: BuildContext, user: UserRecord): GivenUser {
  settle(b.ctx);
  return { user: userView(b.ctx.state, user), balance: balanceView(balancesOf(b.ctx, user.id)[0]!) };
}

/** The given user (by id or name), or a new one: registered, e-mail verified and KYC passed when `ready`. */
function userOf(b: BuildContext, ref: string | undefined, ready: boolean): UserRecord {
  if (ref === undefined) return newUser(b, ready ? { emailVerified: true, kyc: 'PASSED' } : {});
  return findUser(b.ctx, resolveUser(b, ref, 's2s'));
}

/** Credits exactly `minor` units to the user's balance by a deposit, at `when` (default now). */
function credit(b: BuildContext, user: UserRecord, minor: number, option: string, when = b.now): void {
  const { type, amount } = depositFor(b, minor, option);
  const balance = balancesOf(b.ctx, user.id)[0]!;
  ensureAddress(b, user, type, undefined, when);
  at(b, when, (ctx) => deposits.incomingDeposit(ctx, { balanceId: balance.id, type: type.type, amount }));
}

/** The balance's address of `type` (made, with the type's consents signed, when there is none). */
function ensureAddress(
  b: BuildContext,
  user: UserRecord,
  type: DepositTypeRecord,
  network: string | undefined,
  when: number,
): DepositAddress | undefined {
  const balance = balancesOf(b.ctx, user.id)[0]!;
  const existing = Object.values(b.ctx.state.depositAddresses).find(
    (a) => a.balanceId === balance.id && a.type === type.type,
  );
  if (existing) return undefined;
  signAll(b, user, type.consentIds, when);
  return at(b, when, (ctx) =>
    deposits.createDepositAddress(ctx, balance.id, type.type, { network: network ?? type.networks[0]! }),
  );
}

/** A user's balance credited with `amount` minor units by a deposit, now. */
export function givenBalance(b: BuildContext, o: GivenBalanceOptions): GivenUser {
  const user = userOf(b, o.user, false);
  credit(b, user, o.amount, 'amount');
  return userResult(b, user);
}

function depositType(b: BuildContext, type: string | undefined): DepositTypeRecord {
  const code = type ?? 'USDC';
  const found = b.ctx.state.catalogue.depositTypes.find((t) => t.type === code);
  return (
    found ??
    bad(b, 'type', `No deposit type ${code} (${b.ctx.state.catalogue.depositTypes.map((t) => t.type).join(', ')})`)
  );
}

/** A deposit address of the user's balance, made now (409 DEPOSIT_ADDRESS_EXISTS when it has one of the type). */
export function givenDepositAddress(b: BuildContext, o: GivenDepositAddressOptions): GivenDepositAddress {
  const user = userOf(b, o.user, false);
  const type = depositType(b, o.type);
  const balance = balancesOf(b.ctx, user.id)[0]!;
  signAll(b, user, type.consentIds, b.now);
  const address = at(b, b.now, (ctx) =>
    deposits.createDepositAddress(ctx, balance.id, type.type, { network: o.network ?? type.networks[0]! }),
  );
  return { ...userResult(b, user), address };
}

/** A deposit that arrived now at the user's address (made if missing): waiting for verification data, or credited. */
export function givenVerification(b: BuildContext, o: GivenVerificationOptions): GivenVerification {
  const user = userOf(b, o.user, false);
  const type = depositType(b, o.type);
  const balance = balancesOf(b.ctx, user.id)[0]!;
  ensureAddress(b, user, type, undefined, b.now);
  const result = at(b, b.now, (ctx) =>
    deposits.incomingDeposit(ctx, {
      balanceId: balance.id,
      type: type.type,
      amount: o.amount ?? type.minimumAmount,
      requiresVerification: (o.status ?? 'PENDING_APPROVAL') === 'PENDING_APPROVAL',
    }),
  );
  if (result.kind !== 'verification') throw new Error("A deposit to a user's balance is a verification.");
  return { ...userResult(b, user), verification: result.verification };
}

/** The config a card of this kind is issued from: free virtual, priced virtual (a draft), physical (always priced). */
function configFor(b: BuildContext, type: 'VIRTUAL' | 'PHYSICAL', draft: boolean): CardConfigRecord {
  const configs = b.ctx.state.catalogue.cardConfigs;
  const found = configs.find((c) => c.type === type && (type === 'PHYSICAL' || (c.price !== null) === draft));
  if (!found) throw new Error(`No ${type} card config in the catalogue.`);
  return found;
}

/** A card at the step asked for, issued through the document's card-issuing flow. */
export function givenCard(b: BuildContext, o: GivenCardOptions): GivenCard {
  const type = o.type ?? 'VIRTUAL';
  const status = o.status ?? (o.draft === undefined ? 'ACTIVE' : undefined);
  const config = configFor(b, type, o.draft !== undefined);
  // A physical card in use was ordered more than 3 days back: its order completed in the past.
  const start =
    type === 'PHYSICAL' && status !== undefined && status !== 'ORDERED' ? b.now - ORDER_COMPLETION_MS - MINUTE : b.now;
  const user = userOf(b, o.user, true);
  notBefore(b, 'user', start, user.createdAt, `user ${user.id} was created`);
  if (user.kycStatus === 'FAILED') bad(b, 'user', `User ${user.id} failed KYC: no card is issued to them`);
  readyForCard(b, user, config, start);
  const made = at(b, start, (ctx) =>
    cards.createCard(ctx, user.id, { configId: config.id, visualId: config.visuals[0]!.id }),
  );
  const cardId = 'cardId' in made ? made.cardId : made.id;
  if (config.price !== null && o.draft !== 'CREATED') payDraft(b, user, config.price.amount, cardId, o.draft, start);
  if (type === 'PHYSICAL' && (status === 'ACTIVE' || status === 'LOCKED'))
    at(b, b.now, (ctx) => cards.activateCard(ctx, cardId));
  if (status === 'LOCKED') at(b, b.now, (ctx) => cards.setCardLock(ctx, cardId, 'lock'));
  const { user: userNow, balance } = userResult(b, user);
  const card = b.ctx.state.cards[cardId];
  const draft = b.ctx.state.drafts[cardId];
  return { user: userNow, card: card ? cardView(card) : null, draft: draft ? draftView(draft) : null, balance };
}

/** The flow's order before a card: registration consents, e-mail, KYC, the config's consents. */
function readyForCard(b: BuildContext, user: UserRecord, config: CardConfigRecord, start: number): void {
  signAll(b, user, registrationConsents(b.ctx), start);
  if (registrationStatus(b.ctx.state, user) !== 'COMPLETED') throw new Error('Registration did not complete.');
  if (!user.emailVerified) verifyEmail(b, user, start);
  if (user.kycStatus !== 'PASSED') at(b, start, (ctx) => users.setKycStatus(ctx, user.id, 'PASSED'));
  signAll(b, user, config.consentIds, start);
}

/** A priced card's draft charged (topped up first when the balance falls short), completed unless a draft is asked. */
function payDraft(
  b: BuildContext,
  user: UserRecord,
  price: number,
  cardId: string,
  draft: GivenCardOptions['draft'],
  start: number,
): void {
  const balance = balancesOf(b.ctx, user.id)[0]!;
  const missing = price - balance.available;
  if (missing > 0) {
    // Topped up by a deposit worth at least the smallest one.
    credit(b, user, Math.max(missing, smallestDeposit(b)), 'draft', start);
  }
  at(b, start, (ctx) => cards.chargeDraft(ctx, cardId));
  if (draft === undefined) at(b, start, (ctx) => cards.completeDraft(ctx, cardId));
}
