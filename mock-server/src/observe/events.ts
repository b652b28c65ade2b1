/**
 * The public events of the mock: what changed in a tenant's world, in the words of the interface document. The
 * domain tells its observer (`domain/events.ts`); the observer names them as here, stamps them and keeps the latest
 * in a ring per tenant, for `mock.events(filter)`, `GET /__mock/events`, its event stream and the inspector page.
 * @module
 */
import type { ApprovalStatus, CardStatus, CardType, Money } from 'card-issuing-sdk';
import type { DomainEvent } from '../domain/events';

/** Which API area a user belongs to. */
export type UserArea = 's2s' | 'business';

/** A domain event as the domain emits it (before the observer stamps it). */
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
const STEP_EVENT = {
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
  | (typeof STEP_EVENT)[keyof typeof STEP_EVENT]
  | 'authorization.incrementDeclined';

/** Every event type. */
export type MockEventType = MockEventInput['type'];

/** A recorded event: the domain's input plus where and when it happened. */
export type MockEvent = MockEventInput & {
  /** Increasing over the whole mock (all tenants): the order events happened in. */
  seq: number;
  /** The tenant's api key. */
  tenant: string;
  /** When it happened on the tenant's virtual clock (for a time-driven change: the instant it was due). */
  at: string;
  /** When it was recorded, on the wall clock. */
  recordedAt: string;
  /** The request during which it happened, when it happened during one. */
  requestId: string | null;
};

/** A domain event by its public name, and the instant it happened (epoch ms of the virtual clock). */
export function publicEvent(event: DomainEvent): { input: MockEventInput; at: number } {
  const at = Date.parse(event.at);
  switch (event.type) {
    case 'approval.status': {
      const { type: _type, at: _at, ...rest } = event;
      return { at, input: { type: 'approval.statusChanged', ...rest } };
    }
    case 'card.status':
      return { at, input: { type: 'card.statusChanged', cardId: event.cardId, from: event.from, to: event.to } };
    case 'authorization': {
      const a = event.authorization;
      return {
        at,
        input: {
          type: a.status === 'APPROVED' ? 'authorization.approved' : 'authorization.declined',
          authorizationId: a.id,
          cardId: a.cardId,
          approvalUuid: a.approvalUuid,
          amount: { ...a.amount },
          merchant: a.merchant,
          reason: a.declineReason,
        },
      };
    }
    case 'authorization.step': {
      const a = event.authorization;
      const type =
        event.kind === 'increment' && event.declineReason !== null
          ? 'authorization.incrementDeclined'
          : STEP_EVENT[event.kind];
      return {
        at,
        input: {
          type,
          authorizationId: a.id,
          cardId: a.cardId,
          approvalUuid: a.approvalUuid,
          merchant: a.merchant,
          amount: { amount: event.amount, currency: a.amount.currency },
          from: event.from,
          to: event.to,
          reason: event.declineReason,
          ...(event.forced ? { forced: event.forced } : {}),
          held: a.held,
          captured: a.captured,
          refunded: a.refunded,
        },
      };
    }
    default: {
      // The other domain events are public as they are.
      const { at: _at, ...input } = event;
      return { at, input };
    }
  }
}

/** What `events(filter)` and `GET /__mock/events` select by. Every given field must match. */
export interface EventFilter {
  /** One type, or a prefix ending in `.` (`approval.`), or several. */
  type?: string | string[];
  /** Events that name this id anywhere (user, card, approval, corporate, balance, verification, top-up). */
  id?: string;
  /** Events during this request. */
  requestId?: string;
  /** Only events after this sequence number (for polling). */
  after?: number;
  /** At most this many (the newest of those that match). */
  limit?: number;
}

const ID_FIELDS = [
  'authorizationId',
  'userId',
  'cardId',
  'approvalUuid',
  'corporateUuid',
  'balanceId',
  'verificationId',
  'topUpId',
  'previousApprovalUuid',
] as const;

/** Whether an event matches a filter. */
export function eventMatches(event: MockEvent, filter: EventFilter): boolean {
  if (filter.type !== undefined) {
    const types = Array.isArray(filter.type) ? filter.type : [filter.type];
    if (!types.some((t) => (t.endsWith('.') ? event.type.startsWith(t) : event.type === t))) return false;
  }
  if (filter.id !== undefined) {
    const record = event as unknown as Record<string, unknown>;
    if (!ID_FIELDS.some((field) => record[field] === filter.id)) return false;
  }
  if (filter.requestId !== undefined && event.requestId !== filter.requestId) return false;
  if (filter.after !== undefined && !(event.seq > filter.after)) return false;
  return true;
}
