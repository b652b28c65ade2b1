/**
 * What the domain tells an observer as it happens, each in exactly one place and in one vocabulary, the public one
 * of `mock.events()` (the interface document's words): approval status changes (from, to, what moved it and why: the
 * lifecycle's `enter`), cards generated (`generateCard`) and their status changes, authorizations decided
 * (`authorize`) and each later step of their life, users registered and their e-mail, OTP and KYC, balances credited
 * and debited, deposits waiting for verification, corporate top-ups. The inspector's observer (`observe/`) stamps
 * them with the tenant and request and keeps them.
 * @module
 */
import type { ApprovalStatus, CardStatus, CardType, Money } from 'card-issuing-sdk';

/** Which API area a user belongs to. */
export type UserArea = 's2s' | 'business';

/** An event of the mock, as the domain emits it: what happened (the observer adds where and when it was recorded). */
export type MockEventInput =
  | { type: 'user.registered'; userId: string; area: UserArea }
  | { type: 'user.registrationCompleted'; userId: string; area: UserArea }
  | { type: 'email.otpSent'; userId: string }
  | { type: 'email.verified'; userId: string }
  | { type: 'kyc.changed'; userId: string; status: string }
  | {
      type: 'card.generated';
      cardId: string;
      userId: string;
      cardType: CardType;
      last4: string;
      approvalUuid: string | null;
    }
  | { type: 'card.statusChanged'; cardId: string; from: CardStatus | null; to: CardStatus }
  | {
      type: 'approval.statusChanged';
      corporateUuid: string;
      approvalUuid: string;
      userUuid: string;
      cardId: string;
      /** null: the instance was created in `to`. */
      from: ApprovalStatus | null;
      to: ApprovalStatus;
      /** What moved it: an operation id, a control action, `time` or `registrationCompleted`. */
      trigger: string | null;
      /** Why an instance left the live statuses (`VALIDITY_ENDED`, `REPLACED`, ...), as the approval shows it. */
      reason: string | null;
      /** The instance this one changes or replaces, when it is a reapproval. */
      previousApprovalUuid: string | null;
    }
  | { type: 'balance.credited'; balanceId: string; userId: string; amount: Money; verificationId: string }
  | { type: 'balance.debited'; balanceId: string; userId: string; amount: Money; cardId: string }
  | { type: 'deposit.verificationPending'; verificationId: string; balanceId: string; userId: string }
  | { type: 'topUp.completed'; corporateUuid: string; topUpId: string; amount: Money }
  | {
      type: 'authorization.approved' | 'authorization.declined';
      authorizationId: string;
      cardId: string;
      approvalUuid: string | null;
      amount: Money;
      merchant: string;
      /** Why it was declined (`BUDGET_EXCEEDED`, `CARD_LOCKED`, ...); null when approved. */
      reason: string | null;
    }
  | {
      type: AuthorizationStepEventType;
      authorizationId: string;
      cardId: string;
      approvalUuid: string | null;
      merchant: string;
      /** The step's amount (an increment, a capture, a reversal or expiry, a refund). */
      amount: Money;
      from: string;
      to: string;
      /** A declined increment: why; else null. */
      reason: string | null;
      /** A forced capture (`authorization.forceCaptured`): why the network forced it. */
      forced?: string;
      /** The authorization's amounts after the step (minor units). */
      held: number;
      captured: number;
      refunded: number;
    }
  | { type: 'clock.advanced'; from: string; to: string }
  | { type: 'mock.reset' }
  | { type: 'mock.restored' };

/** The events of an authorization's later steps, by step. */
export const AUTHORIZATION_STEP_EVENTS = {
  increment: 'authorization.incremented',
  capture: 'authorization.captured',
  forcedCapture: 'authorization.forceCaptured',
  credit: 'authorization.credited',
  reverse: 'authorization.reversed',
  expire: 'authorization.expired',
  refund: 'authorization.refunded',
} as const;
/** An event of an authorization's later step (`authorization.incrementDeclined`: the network declined an increment). */
export type AuthorizationStepEventType =
  | (typeof AUTHORIZATION_STEP_EVENTS)[keyof typeof AUTHORIZATION_STEP_EVENTS]
  | 'authorization.incrementDeclined';

/** An event as the domain emits it: the public event and the instant it happened (RFC 3339, the virtual clock's). */
export type DomainEvent = MockEventInput & { at: string };

/** Receives domain events; an observer's exception never breaks the operation that emitted the event. */
export type DomainObserver = (event: DomainEvent) => void;
