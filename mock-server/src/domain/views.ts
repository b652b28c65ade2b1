/**
 * Records → API shapes (the spec's schemas, as the generated types name them). The only place that knows both.
 * @module
 */
import type {
  Approval,
  Balance,
  BusinessUser,
  Card,
  CardConfig,
  Consent,
  CorporateDepositAddress,
  DepositAddress,
  DepositType,
  DepositVerification,
  Draft,
  TopUp,
  User,
} from 'card-issuing-sdk';
import type {
  ApprovalRecord,
  BalanceRecord,
  BusinessUserRecord,
  CardConfigRecord,
  CardRecord,
  ConsentRecord,
  CorporateDepositAddressRecord,
  DepositAddressRecord,
  DepositTypeRecord,
  DraftRecord,
  TenantState,
  TopUpRecord,
  UserRecord,
  VerificationRecord,
} from '../store';
import { overspentOf, remainingOf } from './holds';

/** The registration consents of the catalogue. */
export function registrationConsents(state: TenantState): ConsentRecord[] {
  return state.catalogue.consents.filter((c) => c.kind === 'REGISTRATION');
}

/** COMPLETED once the user has signed every registration consent. */
export function registrationStatus(state: TenantState, user: UserRecord): User['registrationStatus'] {
  return registrationConsents(state).every((c) => user.signedConsents[c.id] !== undefined)
    ? 'COMPLETED'
    : 'PENDING_CONSENTS';
}

/** A consent with a user's signature state (unsigned when no user is given). */
export function consentView(consent: ConsentRecord, user?: UserRecord): Consent {
  const signedAt = user?.signedConsents[consent.id] ?? null;
  return {
    id: consent.id,
    kind: consent.kind,
    title: consent.title,
    version: consent.version,
    url: consent.url,
    signed: signedAt !== null,
    signedAt,
  };
}

/** The consents of `ids`, with the user's signature state. */
export function consentsView(state: TenantState, ids: readonly string[], user: UserRecord): Consent[] {
  return ids
    .map((id) => state.catalogue.consents.find((c) => c.id === id))
    .filter((c) => c !== undefined)
    .map((c) => consentView(c, user));
}

/** A Server2Server user. */
export function userView(state: TenantState, user: UserRecord): User {
  return {
    id: user.id,
    email: user.email,
    firstName: user.firstName,
    lastName: user.lastName,
    phone: user.phone,
    dateOfBirth: user.dateOfBirth,
    country: user.country,
    registrationStatus: registrationStatus(state, user),
    requiredConsents: registrationConsents(state).map((c) => consentView(c, user)),
    emailVerified: user.emailVerified,
    kycStatus: user.kycStatus,
    createdAt: user.createdAt,
  };
}

/** A card config with the user's consent state. */
export function cardConfigView(state: TenantState, config: CardConfigRecord, user: UserRecord): CardConfig {
  return {
    id: config.id,
    name: config.name,
    type: config.type,
    price: config.price ? { ...config.price } : null,
    visuals: config.visuals.map((v) => ({ ...v })),
    requiredConsents: consentsView(state, config.consentIds, user),
  };
}

/** A card (never its PAN or CVV); number and expiry null until it is generated. */
export function cardView(card: CardRecord): Card {
  return {
    object: 'card',
    id: card.id,
    userId: card.userId,
    type: card.type,
    status: card.status,
    last4: card.pan?.slice(-4) ?? null,
    expiryMonth: card.expiryMonth,
    expiryYear: card.expiryYear,
    cardholderName: card.cardholderName,
    configId: card.configId,
    visualId: card.visualId,
    createdAt: card.createdAt,
    generatedAt: card.generatedAt,
  };
}

/** Draft data. */
export function draftView(draft: DraftRecord): Draft {
  return {
    object: 'draft',
    cardId: draft.cardId,
    userId: draft.userId,
    configId: draft.configId,
    visualId: draft.visualId,
    type: draft.type,
    status: draft.status,
    price: { ...draft.price },
    balanceId: draft.balanceId,
    createdAt: draft.createdAt,
    chargedAt: draft.chargedAt,
  };
}

/** A balance. */
export function balanceView(balance: BalanceRecord): Balance {
  return {
    id: balance.id,
    userId: balance.userId,
    currency: balance.currency,
    available: balance.available,
    updatedAt: balance.updatedAt,
  };
}

/** A deposit type of one balance, with the user's consent state. */
export function depositTypeView(
  state: TenantState,
  type: DepositTypeRecord,
  balance: BalanceRecord,
  user: UserRecord,
): DepositType {
  return {
    type: type.type,
    name: type.name,
    balanceId: balance.id,
    networks: [...type.networks],
    minimumAmount: type.minimumAmount,
    exchangeRate: { currency: type.currency, rate: type.rate },
    requiredConsents: consentsView(state, type.consentIds, user),
  };
}

/** A deposit address of a user's balance. */
export function depositAddressView(a: DepositAddressRecord): DepositAddress {
  return {
    id: a.id,
    balanceId: a.balanceId,
    type: a.type,
    network: a.network,
    address: a.address,
    label: a.label,
    createdAt: a.createdAt,
  };
}

/** A deposit verification. */
export function verificationView(v: VerificationRecord): DepositVerification {
  return {
    id: v.id,
    userId: v.userId,
    balanceId: v.balanceId,
    type: v.type,
    network: v.network,
    amount: v.amount,
    status: v.status,
    verificationRequired: v.verificationRequired,
    creditedAmount: v.creditedAmount ? { ...v.creditedAmount } : null,
    createdAt: v.createdAt,
    creditedAt: v.creditedAt,
  };
}

/** A business user. */
export function businessUserView(u: BusinessUserRecord): BusinessUser {
  return {
    userUuid: u.userUuid,
    name: u.name,
    lastName: u.lastName,
    email: u.email,
    phone: u.phone,
    registrationStatus: u.registrationStatus,
    createdAt: u.createdAt,
  };
}

/** An approval instance with its card. */
export function approvalView(state: TenantState, a: ApprovalRecord): Approval {
  const card = state.cards[a.cardId];
  if (!card) throw new Error(`Approval ${a.approvalUuid} has no card ${a.cardId}`);
  const currency = a.budget.currency;
  return {
    approvalUuid: a.approvalUuid,
    corporateUuid: a.corporateUuid,
    userUuid: a.userUuid,
    status: a.status,
    statusReason: a.statusReason,
    budget: { ...a.budget },
    spent: { amount: a.spent, currency },
    held: { amount: a.held, currency },
    remaining: { amount: remainingOf(a), currency },
    overspent: { amount: overspentOf(a), currency },
    validFrom: a.validFrom,
    validTo: a.validTo,
    previousApprovalUuid: a.previousApprovalUuid,
    replacedByApprovalUuid: a.replacedByApprovalUuid,
    change:
      a.change === null ? null : { additionalBudget: { ...a.change.additionalBudget }, pinUpdate: a.change.pinUpdate },
    expiresAt: a.expiresAt,
    card: cardView(card),
    createdAt: a.createdAt,
    updatedAt: a.updatedAt,
  };
}

/** A corporate deposit address. */
export function corporateDepositAddressView(a: CorporateDepositAddressRecord): CorporateDepositAddress {
  return {
    id: a.id,
    corporateUuid: a.corporateUuid,
    type: a.type,
    network: a.network,
    address: a.address,
    createdAt: a.createdAt,
  };
}

/** A top-up. */
export function topUpView(t: TopUpRecord): TopUp {
  return {
    id: t.id,
    corporateUuid: t.corporateUuid,
    depositAddressId: t.depositAddressId,
    type: t.type,
    network: t.network,
    cryptoAmount: t.cryptoAmount,
    amount: { ...t.amount },
    status: t.status,
    createdAt: t.createdAt,
  };
}
