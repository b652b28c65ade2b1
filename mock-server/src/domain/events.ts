/**
 * What the domain tells an observer as it happens: approval status changes (from, to, why), cards generated and
 * authorizations decided. Each is emitted in exactly one place (the lifecycle's `enter`, its card generation, and
 * `authorize`), so an inspector or event log that listens on the context sees every one of them once.
 * @module
 */
import type { ApprovalStatus, ApprovalStatusReason } from 'card-issuing-sdk';
import type { AuthorizationRecord } from '../store';

/** An approval instance entered a status (`from` null: it was created in it). */
export interface ApprovalStatusEvent {
  type: 'approval.status';
  /** RFC 3339: the instant the transition took effect (a due time for time-driven ones). */
  at: string;
  corporateUuid: string;
  approvalUuid: string;
  cardId: string;
  from: ApprovalStatus | null;
  to: ApprovalStatus;
  reason: ApprovalStatusReason | null;
}

/** A card got its number, expiry and CVV (never carried by the event). */
export interface CardGeneratedEvent {
  type: 'card.generated';
  at: string;
  cardId: string;
  approvalUuid: string | null;
}

/** A purchase on a card was approved or declined. */
export interface AuthorizationEvent {
  type: 'authorization';
  at: string;
  authorization: AuthorizationRecord;
}

/** Every domain event. */
export type DomainEvent = ApprovalStatusEvent | CardGeneratedEvent | AuthorizationEvent;

/** Receives domain events; an observer's exception never breaks the operation that emitted the event. */
export type DomainObserver = (event: DomainEvent) => void;
