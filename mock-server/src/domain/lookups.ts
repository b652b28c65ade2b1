/**
 * Finding a tenant's records by id: a missing id, or one of another tenant (which this tenant's state never
 * holds), is 404 NOT_FOUND.
 * @module
 */
import type {
  ApprovalRecord, BalanceRecord, BusinessUserRecord, CardRecord, CorporateRecord, DepositTypeRecord, UserRecord, VerificationRecord,
} from '../store';
import type { DomainContext } from './context';
import { notFound } from './errors';

/** A Server2Server user. */
export function findUser(ctx: DomainContext, userId: string): UserRecord {
  return ctx.state.users[userId] ?? throwNotFound('user', userId);
}

/** A user's balance. */
export function findBalance(ctx: DomainContext, balanceId: string): BalanceRecord {
  return ctx.state.balances[balanceId] ?? throwNotFound('balance', balanceId);
}

/** The balances of a user, oldest first. */
export function balancesOf(ctx: DomainContext, userId: string): BalanceRecord[] {
  return Object.values(ctx.state.balances).filter((b) => b.userId === userId);
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

/** A deposit verification. */
export function findVerification(ctx: DomainContext, id: string): VerificationRecord {
  return ctx.state.verifications[id] ?? throwNotFound('deposit verification', id);
}

/** A business user. */
export function findBusinessUser(ctx: DomainContext, userUuid: string): BusinessUserRecord {
  return ctx.state.businessUsers[userUuid] ?? throwNotFound('business user', userUuid);
}

/** A corporate. */
export function findCorporate(ctx: DomainContext, corporateUuid: string): CorporateRecord {
  return ctx.state.corporates[corporateUuid] ?? throwNotFound('corporate', corporateUuid);
}

/** An approval instance of a corporate (one of another corporate is not found under this one). */
export function findApproval(ctx: DomainContext, corporateUuid: string, approvalUuid: string): ApprovalRecord {
  findCorporate(ctx, corporateUuid);
  const approval = ctx.state.approvals[approvalUuid];
  if (!approval || approval.corporateUuid !== corporateUuid) return throwNotFound('approval', approvalUuid);
  return approval;
}

/** The CREATED change request pending on an approval instance, if any (at most one). */
export function pendingChangeOf(ctx: DomainContext, approvalUuid: string): ApprovalRecord | undefined {
  for (const a of Object.values(ctx.state.approvals)) if (a.status === 'CREATED' && a.previousApprovalUuid === approvalUuid) return a;
  return undefined;
}

function throwNotFound(what: string, id: string): never {
  throw notFound(what, id);
}
