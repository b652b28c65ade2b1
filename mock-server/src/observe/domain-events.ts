/**
 * The domain's one-line hooks for the events whose fields come from a record: an approval's or a card's status
 * moving. Kept here so that each place that moves a status adds one call, not an object literal.
 * @module
 */
import type { ApprovalStatus, CardStatus } from 'card-issuing-sdk';
import type { DomainContext } from '../domain/context';
import type { ApprovalRecord, CardRecord } from '../store';

/** Tells the observer an approval instance entered `approval.status` from `from` (null: it was created). */
export function approvalStatusChanged(ctx: DomainContext, approval: ApprovalRecord, from: ApprovalStatus | null, trigger: string, at?: number): void {
  if (from === approval.status) return;
  ctx.emit({
    type: 'approval.statusChanged', corporateUuid: approval.corporateUuid, approvalUuid: approval.approvalUuid, userUuid: approval.userUuid,
    cardId: approval.cardId, from, to: approval.status, trigger, previousApprovalUuid: approval.previousApprovalUuid,
  }, at);
}

/** Tells the observer a card entered `card.status` from `from`. */
export function cardStatusChanged(ctx: DomainContext, card: CardRecord, from: CardStatus | null, at?: number): void {
  if (from === card.status) return;
  ctx.emit({ type: 'card.statusChanged', cardId: card.id, from, to: card.status }, at);
}

/** Tells the observer a card got its number (last four digits only: the event log never holds a card number). */
export function cardGenerated(ctx: DomainContext, card: CardRecord): void {
  ctx.emit({
    type: 'card.generated', cardId: card.id, userId: card.userId, cardType: card.type, last4: card.pan.slice(-4), approvalUuid: card.approvalUuid,
  });
}
