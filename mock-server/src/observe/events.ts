/**
 * The public events of the mock as recorded: the domain's events (`domain/events.ts`, the one vocabulary, in the
 * words of the interface document), stamped by the observer with the tenant, the request and a sequence number and
 * kept in a ring per tenant, for `mock.events(filter)`, `GET /__mock/events`, its event stream and the inspector page.
 * @module
 */
import type { MockEventInput } from '../domain/events';

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
