/**
 * What the domain tells an observer as it happens, each in exactly one place: approval status changes (from, to,
 * what moved it and why: the lifecycle's `enter`), cards generated (`generateCard`) and their status changes,
 * authorizations decided (`authorize`) and each later step of their life, users registered and their e-mail, OTP and KYC, balances credited and
 * debited, deposits waiting for verification, corporate top-ups. The inspector's observer (`observe/`) keeps them,
 * stamped with the tenant and request, as the public events of `mock.events()`.
 * @module
 */
import type { ApprovalStatus, ApprovalStatusReason, CardStatus, CardType, Money } from 'card-issuing-sdk';
import type {
  AuthorizationRecord,
  AuthorizationState,
  AuthorizationStepKind,
  DeclineReason,
  ForcedReason,
} from '../store';

/** An approval instance entered a status (`from` null: it was created in it). */
export interface ApprovalStatusEvent {
  type: 'approval.status';
  /** RFC 3339: the instant the transition took effect (a due time for time-driven ones). */
  at: string;
  corporateUuid: string;
  approvalUuid: string;
  userUuid: string;
  cardId: string;
  from: ApprovalStatus | null;
  to: ApprovalStatus;
  /** The row's trigger: an operation (`createApproval`), a control action (`accept`), `time` or `registrationCompleted`. */
  trigger: string | null;
  reason: ApprovalStatusReason | null;
  /** The instance this one changes or replaces, when it is a reapproval. */
  previousApprovalUuid: string | null;
}

/** A card got its number, expiry and CVV (the event carries the last four digits only). */
export interface CardGeneratedEvent {
  type: 'card.generated';
  at: string;
  cardId: string;
  userId: string;
  cardType: CardType;
  last4: string;
  approvalUuid: string | null;
}

/** A card entered a status (`from` null: it was created in it). */
export interface CardStatusEvent {
  type: 'card.status';
  at: string;
  cardId: string;
  from: CardStatus | null;
  to: CardStatus;
}

/** A purchase on a card was approved or declined. */
export interface AuthorizationEvent {
  type: 'authorization';
  at: string;
  authorization: AuthorizationRecord;
}

/** A step of an authorization's life after it was decided: an increment, a capture, a reversal, an expiry, a refund. */
export interface AuthorizationStepEvent {
  type: 'authorization.step';
  at: string;
  kind: Exclude<AuthorizationStepKind, 'authorize'>;
  from: AuthorizationState;
  to: AuthorizationState;
  /** Minor units. */
  amount: number;
  /** A declined increment: why. */
  declineReason: DeclineReason | null;
  /** A forced capture: why the network forced it. */
  forced?: ForcedReason | undefined;
  authorization: AuthorizationRecord;
}

/** A user was created (`s2s`: Server2Server or Wallet App; `business`: a cardholder of corporate cards). */
export interface UserRegisteredEvent {
  type: 'user.registered' | 'user.registrationCompleted';
  at: string;
  userId: string;
  area: 's2s' | 'business';
}

/** An e-mail one-time code was sent, or the e-mail verified with one. */
export interface EmailEvent {
  type: 'email.otpSent' | 'email.verified';
  at: string;
  userId: string;
}

/** The KYC provider's result for a user. */
export interface KycEvent {
  type: 'kyc.changed';
  at: string;
  userId: string;
  status: string;
}

/** A user's balance was credited by a deposit. */
export interface BalanceCreditedEvent {
  type: 'balance.credited';
  at: string;
  balanceId: string;
  userId: string;
  amount: Money;
  verificationId: string;
}

/** A user's balance paid for a card draft. */
export interface BalanceDebitedEvent {
  type: 'balance.debited';
  at: string;
  balanceId: string;
  userId: string;
  amount: Money;
  cardId: string;
}

/** A deposit waits for the integrator's verification data before it is credited. */
export interface VerificationPendingEvent {
  type: 'deposit.verificationPending';
  at: string;
  verificationId: string;
  balanceId: string;
  userId: string;
}

/** A deposit to a corporate's address raised its balance. */
export interface TopUpEvent {
  type: 'topUp.completed';
  at: string;
  corporateUuid: string;
  topUpId: string;
  amount: Money;
}

/** Every domain event. */
export type DomainEvent =
  | ApprovalStatusEvent
  | CardGeneratedEvent
  | CardStatusEvent
  | AuthorizationEvent
  | AuthorizationStepEvent
  | UserRegisteredEvent
  | EmailEvent
  | KycEvent
  | BalanceCreditedEvent
  | BalanceDebitedEvent
  | VerificationPendingEvent
  | TopUpEvent;

/** Receives domain events; an observer's exception never breaks the operation that emitted the event. */
export type DomainObserver = (event: DomainEvent) => void;
