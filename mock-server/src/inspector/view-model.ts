/**
 * The inspector page's model of one tenant: the shapes the page reads from `GET /__inspector/api/...` and draws.
 * @module
 */
import type { ApprovalStatus, DepositVerification, Money } from 'card-issuing-sdk';
import type { FaultRule, OverrideRule } from '../store';

/** One status change of an approval instance. */
export interface StatusChange {
  from: ApprovalStatus | null;
  to: ApprovalStatus;
  /** On the virtual clock. */
  at: string;
  trigger: string | null;
}

/** An approval instance as the page shows it. */
export interface InstanceView {
  approvalUuid: string;
  status: ApprovalStatus;
  budget: Money;
  reserved: number;
  spent: number;
  /** Pending card holds it carries (part of `reserved`). */
  held: number;
  /** What can still be authorized: budget − spent − held while in force, else 0. */
  remaining: number;
  /** How far spent + held exceed the budget after captures the network forced (0: not overspent). */
  overspent: number;
  validFrom: string;
  validTo: string;
  expiresAt: string | null;
  createdAt: string;
  updatedAt: string;
  previousApprovalUuid: string | null;
  /** Why it left the live statuses (`VALIDITY_ENDED`, `REPLACED`, ...), or null. */
  statusReason: string | null;
  /** Oldest first. Complete when the event log still holds the instance's whole life, else what the record tells. */
  history: StatusChange[];
  historyComplete: boolean;
}

/** The instances of one card, oldest first: an approval and the reapprovals that changed it. */
export interface ChainView {
  corporateUuid: string;
  corporateName: string;
  userUuid: string;
  userName: string;
  cardId: string;
  last4: string | null;
  cardStatus: string | null;
  instances: InstanceView[];
  /** The card's latest purchases (authorizations), newest first. */
  authorizations: PurchaseView[];
}

/** A purchase on a card (an authorization), approved or declined with its reason, and where it is in its life. */
export interface PurchaseView {
  id: string;
  at: string;
  approved: boolean;
  amount: Money;
  merchant: string;
  reason: string | null;
  /** PENDING, CLEARED, REVERSED, EXPIRED, REFUNDED or DECLINED. */
  state: string;
  /** Minor units. */
  authorized: number;
  held: number;
  captured: number;
  refunded: number;
  expiresAt: string | null;
  /** Why the network forced its capture (`ABOVE_TOLERANCE`, `AFTER_REVERSAL`, ...), when it did. */
  forced: string | null;
  /** A merchant's credit without a purchase (an unlinked refund). */
  credit: boolean;
}

/** Something the virtual clock will make happen. */
export interface DueView {
  at: string;
  what: string;
  id: string;
}

/** The whole page model of one tenant. */
export interface InspectorView {
  tenant: string;
  /** The tenants the page can show: the default one, or every one when the mock does not check signatures. */
  tenants: string[];
  clock: { now: string; frozen: boolean };
  upcoming: DueView[];
  users: {
    id: string;
    name: string;
    email: string;
    registrationStatus: string;
    emailVerified: boolean;
    kycStatus: string;
    createdAt: string;
    balances: { id: string; currency: string; available: number }[];
  }[];
  businessUsers: { userUuid: string; name: string; email: string; registrationStatus: string; createdAt: string }[];
  cards: {
    id: string;
    userId: string;
    holder: string;
    type: string;
    status: string;
    last4: string | null;
    area: 's2s' | 'business';
    approvalUuid: string | null;
    createdAt: string;
    currency: string;
    purchases: PurchaseView[];
  }[];
  drafts: { cardId: string; userId: string; type: string; status: string; price: Money }[];
  corporates: {
    corporateUuid: string;
    name: string;
    currency: string;
    balanceId: string;
    funded: number;
    available: number;
    reserved: number;
    held: number;
    spent: number;
  }[];
  chains: ChainView[];
  outbox: { userId: string; to: string; subject: string; code: string | null; sentAt: string }[];
  /** As the API shows them (listDepositVerifications). */
  verifications: DepositVerification[];
  topUps: { id: string; corporateUuid: string; type: string; cryptoAmount: string; amount: Money; createdAt: string }[];
  depositTargets: { balanceId: string; label: string; types: string[] }[];
  depositTypes: { type: string; name: string; minimumAmount: string }[];
  /** The faults waiting, in the order they are tried (as `GET /__mock/faults` lists them). */
  faults: FaultRule[];
  /** The overrides, oldest first (as `GET /__mock/overrides` lists them); the latest of an operation answers. */
  overrides: OverrideRule[];
}
