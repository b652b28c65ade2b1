/**
 * When a record's next time-driven transition may be due, for the due-time queue: a physical card's order
 * completion, and the approval rows settle evaluates (PREPARED until validFrom, CREATED until expiresAt, DELIVERED
 * after validTo, and an ACCEPTED approval whose user has completed registration at once). Settle still checks the
 * table's condition when the key comes up; the queue only decides when to look.
 * @module
 */
import { ORDER_COMPLETION_MS } from '../machines';
import type { ApprovalRecord, CardRecord, IndexedCollection, TenantIndex, TenantState } from '../store';

/** The queue key of a card. */
export const cardKey = (id: string): string => `card:${id}`;
/** The queue key of an approval instance. */
export const approvalKey = (id: string): string => `approval:${id}`;

/** When a card's order completes (ORDERED cards only). */
export function cardDueAt(card: CardRecord): number | undefined {
  return card.status === 'ORDERED' && card.orderedAt !== null ? Date.parse(card.orderedAt) + ORDER_COMPLETION_MS : undefined;
}

/** When an approval may move on its own (-Infinity: at the next settle). */
export function approvalDueAt(state: TenantState, a: ApprovalRecord): number | undefined {
  switch (a.status) {
    case 'ACCEPTED':
      return state.businessUsers[a.userUuid]?.registrationStatus === 'COMPLETED' ? Number.NEGATIVE_INFINITY : undefined;
    case 'PREPARED':
      return Date.parse(a.validFrom);
    case 'CREATED':
      return a.expiresAt === null ? undefined : Date.parse(a.expiresAt);
    case 'DELIVERED':
      // The row's condition is now > validTo; instants are whole milliseconds.
      return Date.parse(a.validTo) + 1;
    default:
      return undefined;
  }
}

/** Schedules (or unschedules) an approval at its due instant. */
export function scheduleApproval(index: TenantIndex, state: TenantState, a: ApprovalRecord): void {
  const at = approvalDueAt(state, a);
  if (at === undefined) index.due.cancel(approvalKey(a.approvalUuid));
  else index.due.schedule(approvalKey(a.approvalUuid), at);
}

/** The index's insert hook: every stored card and approval is scheduled when it has a due instant. */
export function scheduleOnInsert(collection: IndexedCollection, record: unknown, index: TenantIndex, state: TenantState): void {
  if (collection === 'cards') {
    const card = record as CardRecord;
    const at = cardDueAt(card);
    if (at !== undefined) index.due.schedule(cardKey(card.id), at);
  } else if (collection === 'approvals') {
    scheduleApproval(index, state, record as ApprovalRecord);
  }
}
