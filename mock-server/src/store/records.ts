/**
 * The records the mock keeps per tenant. Plain, JSON-serialisable data: a tenant's snapshot is this state,
 * cloned. API shapes (the spec's schemas) are made from these records by `domain/views.ts`; records keep what
 * the API never shows (PAN, CVV, OTP code, reservations) and leave out what is derived (registrationStatus).
 * Collections are objects keyed by id: insertion order is creation order, which gives "oldest first" lists.
 * @module
 */
import type {
  ApprovalChange,
  ApprovalStatus,
  ApprovalStatusReason,
  BusinessUser,
  CardStatus,
  CardType,
  Consent,
  Money,
  RegistrationData,
  User,
  VerificationData,
  Visual,
} from 'card-issuing-sdk';
import type { ClockState } from '../clock';
import type { AuthorizationRecord } from './authorizations';
import type { PrngState } from './prng';

/** A consent of the catalogue (its text); the signature state is per user. */
export interface ConsentRecord {
  id: string;
  kind: Consent['kind'];
  title: string;
  version: string;
  url: string;
}

/** A card product of the catalogue. */
export interface CardConfigRecord {
  id: string;
  name: string;
  type: CardType;
  /** Null when free; a priced config is issued through a draft. */
  price: Money | null;
  visuals: Visual[];
  consentIds: string[];
}

/** A crypto asset that credits a balance, with its rate to the balance currency. */
export interface DepositTypeRecord {
  type: string;
  name: string;
  networks: string[];
  /** Decimal string. */
  minimumAmount: string;
  /** Balance currency per one unit of the asset, decimal string. */
  rate: string;
  currency: string;
  consentIds: string[];
}

/** A pending e-mail one-time code. */
export interface OtpRecord {
  code: string;
  expiresAt: string;
  attemptsRemaining: number;
}

/** A Server2Server (and Wallet App) user. `registrationStatus` is derived from the signed consents. */
export interface UserRecord extends RegistrationData {
  id: string;
  /** consentId → when the user signed it. */
  signedConsents: Record<string, string>;
  emailVerified: boolean;
  kycStatus: User['kycStatus'];
  otp: OtpRecord | null;
  createdAt: string;
}

/** A user's fiat balance. */
export interface BalanceRecord {
  id: string;
  userId: string;
  currency: string;
  /** Minor units; never below zero. */
  available: number;
  /** What forced captures took beyond `available` (minor units, absent: 0); the next credits repay it first. */
  overdraft?: number;
  updatedAt: string;
}

/**
 * A card of a Server2Server user or of a business user (`corporateUuid` set). PAN, CVV and expiry are null until
 * the card is generated: at issue for a Server2Server card, when its approval becomes DELIVERED for a business card.
 */
export interface CardRecord {
  id: string;
  userId: string;
  type: CardType;
  status: CardStatus;
  pan: string | null;
  cvv: string | null;
  expiryMonth: number | null;
  expiryYear: number | null;
  cardholderName: string;
  configId: string | null;
  visualId: string | null;
  createdAt: string;
  generatedAt: string | null;
  /** When a physical card was ordered (its order completes 3 days later on the virtual clock). */
  orderedAt: string | null;
  /** Business cards: the corporate, and the approval instance now in force for the card. */
  corporateUuid: string | null;
  approvalUuid: string | null;
}

/** Draft data: a priced card before it is paid for and completed. Keyed by the card id it will have. */
export interface DraftRecord {
  cardId: string;
  userId: string;
  configId: string;
  visualId: string;
  type: CardType;
  status: 'CREATED' | 'CHARGED' | 'COMPLETED';
  price: Money;
  balanceId: string;
  createdAt: string;
  chargedAt: string | null;
}

/** A deposit address of a user's balance, for one type and network. */
export interface DepositAddressRecord {
  id: string;
  balanceId: string;
  type: string;
  network: string;
  address: string;
  label: string | null;
  createdAt: string;
}

/** An incoming deposit to a user's balance and its verification. */
export interface VerificationRecord {
  id: string;
  userId: string;
  balanceId: string;
  depositAddressId: string;
  type: string;
  network: string;
  amount: string;
  status: 'PENDING_APPROVAL' | 'CREDITED';
  verificationRequired: boolean;
  verificationData: VerificationData | null;
  creditedAmount: Money | null;
  createdAt: string;
  creditedAt: string | null;
}

/** A cardholder of corporate cards: the API shape, and when registration completed (what moves approvals on). */
export interface BusinessUserRecord extends BusinessUser {
  registeredAt: string | null;
}

/**
 * A corporate and its master balance. Invariant: `funded` (seed + top-ups + merchant credits) + `overdraft` =
 * `available` + the reservations of its approvals + `spent` (captured card authorizations on its cards).
 */
export interface CorporateRecord {
  corporateUuid: string;
  name: string;
  currency: string;
  balanceId: string;
  available: number;
  funded: number;
  spent: number;
  /**
   * What forced captures took beyond the approvals' reservations and the available balance (absent: 0): a negative
   * balance shown as a debt, repaid first by the next top-up or credit.
   */
  overdraft?: number;
  createdAt: string;
}

/**
 * An approval instance. `reserved` is what this instance holds of the corporate balance now (budget − spent while
 * it reserves; once ended, only its pending holds, `held`; else 0); `spent` what captured authorizations took under
 * it and the instances it replaced, less refunds.
 */
export interface ApprovalRecord {
  approvalUuid: string;
  corporateUuid: string;
  userUuid: string;
  status: ApprovalStatus;
  statusReason: ApprovalStatusReason | null;
  budget: Money;
  validFrom: string;
  validTo: string;
  previousApprovalUuid: string | null;
  replacedByApprovalUuid: string | null;
  change: ApprovalChange | null;
  expiresAt: string | null;
  cardId: string;
  reserved: number;
  spent: number;
  /** Pending card holds it carries (part of `reserved`); `remaining` = budget − spent − held while it reserves. */
  held: number;
  createdAt: string;
  updatedAt: string;
}

/** A deposit address of a corporate (seeded). */
export interface CorporateDepositAddressRecord {
  id: string;
  corporateUuid: string;
  type: string;
  network: string;
  address: string;
  createdAt: string;
}

/** A credit of a corporate balance from a deposit to one of its addresses. */
export interface TopUpRecord {
  id: string;
  corporateUuid: string;
  depositAddressId: string;
  type: string;
  network: string;
  cryptoAmount: string;
  amount: Money;
  status: 'COMPLETED';
  createdAt: string;
}

export { AUTHORIZATION_STATES, AUTHORIZATION_STEP_KINDS, DECLINE_REASONS, FORCED_REASONS } from './authorizations';
export type {
  AuthorizationRecord,
  AuthorizationState,
  AuthorizationStep,
  AuthorizationStepKind,
  DeclineReason,
  ForcedReason,
} from './authorizations';

/** A message the service sent to a user (the e-mail OTP), as the control API's outbox shows it. */
export interface OutboxMessage {
  userId: string;
  to: string;
  subject: string;
  /** The one-time code, for messages that carry one. */
  code?: string;
  sentAt: string;
}

/** The first response to a request with an `Idempotency-Key`, replayed for a repeat. */
export interface IdempotencyRecord {
  fingerprint: string;
  status: number;
  headers: Record<string, string>;
  body: string;
  /** Epoch ms (virtual clock); kept 24 hours. */
  storedAt: number;
  /** Epoch ms of the wall clock (bounds memory when the virtual clock stands still); absent in older snapshots. */
  storedAtWall?: number;
}

/** Everything a tenant (one api key) has. Its JSON is the tenant's snapshot. */
export interface TenantState {
  /** 2: authorizations have a life (holds); a version 1 snapshot is migrated on restore (`store/migrate.ts`). */
  version: 2;
  apiKey: string;
  seed: string;
  rng: PrngState;
  clock: ClockState;
  catalogue: {
    consents: ConsentRecord[];
    cardConfigs: CardConfigRecord[];
    depositTypes: DepositTypeRecord[];
  };
  users: Record<string, UserRecord>;
  balances: Record<string, BalanceRecord>;
  cards: Record<string, CardRecord>;
  drafts: Record<string, DraftRecord>;
  depositAddresses: Record<string, DepositAddressRecord>;
  verifications: Record<string, VerificationRecord>;
  businessUsers: Record<string, BusinessUserRecord>;
  corporates: Record<string, CorporateRecord>;
  approvals: Record<string, ApprovalRecord>;
  corporateDepositAddresses: Record<string, CorporateDepositAddressRecord>;
  topUps: Record<string, TopUpRecord>;
  authorizations: Record<string, AuthorizationRecord>;
  outbox: OutboxMessage[];
  idempotency: Record<string, IdempotencyRecord>;
}

/** A tenant's state as handed out by `snapshot()` and taken back by `restore()`. */
export type TenantSnapshot = TenantState;
