/**
 * The record of a card authorization (control API): a purchase the card network asked to authorize, and what
 * happened to it since (`machines/authorization.ts`). Amounts are minor units in the currency of `amount`.
 * @module
 */
import type { Money } from 'card-issuing-sdk';

/** Every reason the mock's card network declines an authorization, in the order `authorize` checks them. */
export const DECLINE_REASONS = [
  'APPROVAL_NOT_DELIVERED',
  'CARD_LOCKED',
  'CARD_NOT_ACTIVE',
  'CURRENCY_MISMATCH',
  'BUDGET_EXCEEDED',
  'INSUFFICIENT_FUNDS',
] as const;
/** Why the mock's card network declined an authorization. */
export type DeclineReason = (typeof DECLINE_REASONS)[number];

/** Where an authorization is in its life: a hold (PENDING), captured (CLEARED), released (REVERSED, EXPIRED), refunded whole, or declined. */
export const AUTHORIZATION_STATES = ['PENDING', 'CLEARED', 'REVERSED', 'EXPIRED', 'REFUNDED', 'DECLINED'] as const;
/** Where an authorization is in its life. */
export type AuthorizationState = (typeof AUTHORIZATION_STATES)[number];

/** The steps of an authorization's life. */
export const AUTHORIZATION_STEP_KINDS = [
  'authorize',
  'increment',
  'capture',
  'forcedCapture',
  'reverse',
  'expire',
  'refund',
  'credit',
] as const;
/** One step of an authorization's life. */
export type AuthorizationStepKind = (typeof AUTHORIZATION_STEP_KINDS)[number];

/** One step: what the network or the test asked, for how much, and (authorize, increment) why it was declined. */
/**
 * Why the network forced a capture on the issuer (a `forcedCapture` step): above the hold + 15 %, above what remained
 * of the budget or balance, after the hold was reversed, after it expired. Card networks do not ask the issuer.
 */
export const FORCED_REASONS = ['ABOVE_TOLERANCE', 'ABOVE_REMAINING', 'AFTER_REVERSAL', 'AFTER_EXPIRY'] as const;
export type ForcedReason = (typeof FORCED_REASONS)[number];

export interface AuthorizationStep {
  kind: AuthorizationStepKind;
  /** A `forcedCapture` step: why the network forced it. */
  forced?: ForcedReason;
  /** Minor units. */
  amount: number;
  /** A declined authorization or increment: why; else null. */
  declineReason: DeclineReason | null;
  at: string;
}

/** A purchase on a card (control API) and its life. */
export interface AuthorizationRecord {
  id: string;
  cardId: string;
  /** Business cards: the approval instance in force when it was made; else null. Its hold moves with reapprovals. */
  approvalUuid: string | null;
  /** Server2Server cards: the balance it was taken from (or would have been); else null. */
  balanceId: string | null;
  /** The purchase as first asked. */
  amount: Money;
  merchant: string;
  /** The network's answer to the purchase: never changes. */
  status: 'APPROVED' | 'DECLINED';
  declineReason: DeclineReason | null;
  /** Where it is now. */
  state: AuthorizationState;
  /** The amount plus approved increments. */
  authorized: number;
  /** The hold now: authorized − reversed while PENDING, else 0. */
  held: number;
  /** What the capture took (0 until CLEARED). */
  captured: number;
  /** What was refunded of the capture. */
  refunded: number;
  /** PENDING: when the hold expires on the virtual clock; else null. */
  expiresAt: string | null;
  /** Oldest first. */
  steps: AuthorizationStep[];
  createdAt: string;
  updatedAt: string;
}
