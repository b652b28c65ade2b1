/**
 * Finding a tenant's records: by id (a missing id, or one of another tenant, which this tenant's state never
 * holds, is 404 NOT_FOUND) and through the tenant's indexes for everything else a request looks up, so that no
 * request walks a whole collection.
 * @module
 */
import {
  appendOutbox,
  type ApprovalRecord,
  type BalanceRecord,
  type BusinessUserRecord,
  type CardRecord,
  type CorporateDepositAddressRecord,
  type CorporateRecord,
  type DepositAddressRecord,
  type DepositTypeRecord,
  type OutboxMessage,
  type TenantState,
  type TopUpRecord,
  type UserRecord,
  type VerificationRecord,
} from '../store';
import type { DomainContext } from './context';
import { scheduleApproval } from './due';
import { indexOf } from './indexes';
import { notFound } from './errors';

export { indexOf } from './indexes';

/** A Server2Server user. */
export function findUser(ctx: DomainContext, userId: string): UserRecord {
  return ctx.state.users[userId] ?? throwNotFound('user', userId);
}

/** The Server2Server user with an e-mail (any case), if any. */
export function userByEmail(ctx: DomainContext, email: string): UserRecord | undefined {
  const id = indexOf(ctx.state).userByEmail.get(email.toLowerCase());
  return id === undefined ? undefined : ctx.state.users[id];
}

/** The business user with an e-mail (any case), if any. */
export function businessUserByEmail(ctx: DomainContext, email: string): BusinessUserRecord | undefined {
  const id = indexOf(ctx.state).businessUserByEmail.get(email.toLowerCase());
  return id === undefined ? undefined : ctx.state.businessUsers[id];
}

/** A user's balance. */
export function findBalance(ctx: DomainContext, balanceId: string): BalanceRecord {
  return ctx.state.balances[balanceId] ?? throwNotFound('balance', balanceId);
}

/** The balances of a user, oldest first. */
export function balancesOf(ctx: DomainContext, userId: string): readonly BalanceRecord[] {
  return indexOf(ctx.state).balancesByUser.get(userId);
}

/** The cards of a user (Server2Server or business), oldest first. */
export function cardsOf(ctx: DomainContext, userId: string): readonly CardRecord[] {
  return indexOf(ctx.state).cardsByUser.get(userId);
}

/** A card (not a draft that is not completed yet), of either area: for the control API. */
export function findCard(ctx: DomainContext, cardId: string): CardRecord {
  return ctx.state.cards[cardId] ?? throwNotFound('card', cardId);
}

/** A Server2Server card: a business card (issued with an approval) does not exist in `/s2s` (areas are scoped). */
export function findS2sCard(ctx: DomainContext, cardId: string): CardRecord {
  const card = ctx.state.cards[cardId];
  return card && card.corporateUuid === null ? card : throwNotFound('card', cardId);
}

/** A deposit type offered for a balance. */
export function findDepositType(ctx: DomainContext, type: string): DepositTypeRecord {
  return ctx.state.catalogue.depositTypes.find((t) => t.type === type) ?? throwNotFound('deposit type', type);
}

/** The deposit addresses of a balance and type, oldest first. */
export function depositAddressesOf(
  ctx: DomainContext,
  balanceId: string,
  type: string,
): readonly DepositAddressRecord[] {
  return indexOf(ctx.state).depositAddressesByBalanceType.get(`${balanceId} ${type}`);
}

/** A deposit verification. */
export function findVerification(ctx: DomainContext, id: string): VerificationRecord {
  return ctx.state.verifications[id] ?? throwNotFound('deposit verification', id);
}

/** The verifications of a user, oldest first. */
export function verificationsOfUser(ctx: DomainContext, userId: string): readonly VerificationRecord[] {
  return indexOf(ctx.state).verificationsByUser.get(userId);
}

/** The verifications of a balance, oldest first. */
export function verificationsOfBalance(ctx: DomainContext, balanceId: string): readonly VerificationRecord[] {
  return indexOf(ctx.state).verificationsByBalance.get(balanceId);
}

/** A business user. */
export function findBusinessUser(ctx: DomainContext, userUuid: string): BusinessUserRecord {
  return ctx.state.businessUsers[userUuid] ?? throwNotFound('business user', userUuid);
}

/** A corporate. */
export function findCorporate(ctx: DomainContext, corporateUuid: string): CorporateRecord {
  return ctx.state.corporates[corporateUuid] ?? throwNotFound('corporate', corporateUuid);
}

/** The corporate whose master balance has this id, if any. */
export function corporateByBalanceId(ctx: DomainContext, balanceId: string): CorporateRecord | undefined {
  return indexOf(ctx.state).corporateByBalanceId.get(balanceId);
}

/** A corporate's deposit addresses. */
export function corporateDepositAddressesOf(
  ctx: DomainContext,
  corporateUuid: string,
): readonly CorporateDepositAddressRecord[] {
  return indexOf(ctx.state).corporateDepositAddressesByCorporate.get(corporateUuid);
}

/** A corporate's top-ups, oldest first. */
export function topUpsOf(ctx: DomainContext, corporateUuid: string): readonly TopUpRecord[] {
  return indexOf(ctx.state).topUpsByCorporate.get(corporateUuid);
}

/** An approval instance of a corporate (one of another corporate is not found under this one). */
export function findApproval(ctx: DomainContext, corporateUuid: string, approvalUuid: string): ApprovalRecord {
  findCorporate(ctx, corporateUuid);
  const approval = ctx.state.approvals[approvalUuid];
  if (!approval || approval.corporateUuid !== corporateUuid) return throwNotFound('approval', approvalUuid);
  return approval;
}

/** The approval instances of a user under a corporate, oldest first. */
export function approvalsOf(ctx: DomainContext, corporateUuid: string, userUuid: string): readonly ApprovalRecord[] {
  return indexOf(ctx.state).approvalsByCorporateUser.get(`${corporateUuid} ${userUuid}`);
}

/** The approval instances on a card (an approval and its reapprovals), oldest first. */
export function approvalsOnCard(ctx: DomainContext, cardId: string): readonly ApprovalRecord[] {
  return indexOf(ctx.state).approvalsByCard.get(cardId);
}

/**
 * A business user's registration completed: their ACCEPTED approvals are rescheduled at the instant the table's
 * registration rows now give (settle moves them to PREPARED or DELIVERED).
 */
export function registrationCompleted(ctx: DomainContext, userUuid: string): void {
  const index = indexOf(ctx.state);
  for (const a of index.approvalsByUser.get(userUuid))
    if (a.status === 'ACCEPTED') scheduleApproval(index, ctx.state, a);
}

/** The CREATED change request pending on an approval instance, if any (at most one; it is on the same card). */
export function pendingChangeOf(ctx: DomainContext, approval: ApprovalRecord): ApprovalRecord | undefined {
  return approvalsOnCard(ctx, approval.cardId).find(
    (a) => a.status === 'CREATED' && a.previousApprovalUuid === approval.approvalUuid,
  );
}

/** Sends a message to a user's outbox (at most the newest `MAX_OUTBOX_PER_USER` are kept per user). */
export function sendMessage(ctx: DomainContext, message: OutboxMessage): void {
  appendOutbox(ctx.state, indexOf(ctx.state), message);
}

/** A user's outbox messages, newest last. */
export function outboxOf(state: TenantState, userId: string): readonly OutboxMessage[] {
  return indexOf(state).outboxByUser.get(userId);
}

function throwNotFound(what: string, id: string): never {
  throw notFound(what, id);
}
