/**
 * Card transactions (control API: the card network asks to authorize a purchase). The answer is an authorization,
 * APPROVED (the amount is taken at once, as a captured purchase) or DECLINED with one reason, checked in this order:
 *
 * Business card (its approval instance in force):
 * 1. `APPROVAL_NOT_DELIVERED` the approval is not DELIVERED (not yet, or no longer: the card is then CLOSED);
 * 2. `CARD_LOCKED` the card is LOCKED;
 * 3. `CURRENCY_MISMATCH` the purchase is not in the budget's currency;
 * 4. `BUDGET_EXCEEDED` the amount is above the approval's remaining budget.
 * Approved: the approval's `spent` grows and its reservation shrinks by the amount; the corporate's `spent` grows,
 * so funded = available + reserved + spent holds.
 *
 * Server2Server card:
 * 1. `CARD_LOCKED` the card is LOCKED; `CARD_NOT_ACTIVE` any other status but ACTIVE;
 * 2. `CURRENCY_MISMATCH` the user has no balance in the purchase's currency;
 * 3. `INSUFFICIENT_FUNDS` the balance does not cover the amount.
 * Approved: the balance is debited.
 * @module
 */
import type { Money } from 'card-issuing-sdk';
import type { AuthorizationRecord, CardRecord, DeclineReason } from '../store';
import { emit, nowIso, type DomainContext } from './context';
import { balancesOf, findCard, findCorporate } from './lookups';

export { DECLINE_REASONS } from '../store';

/** A purchase to authorize. */
export interface Purchase {
  /** Minor units, at least 1. */
  amount: number;
  /** ISO 4217. */
  currency: string;
  /** The merchant's name, as the card network gives it. */
  merchant: string;
}

/** Decides a purchase on a card (404 for an unknown card); records and returns the authorization, approved or declined. */
export function authorize(ctx: DomainContext, cardId: string, purchase: Purchase): AuthorizationRecord {
  const card = findCard(ctx, cardId);
  const amount: Money = { amount: purchase.amount, currency: purchase.currency };
  const decided = card.corporateUuid === null ? s2sPurchase(ctx, card, amount) : businessPurchase(ctx, card, amount);
  const authorization: AuthorizationRecord = {
    id: ctx.rng.uuid(), cardId: card.id, approvalUuid: card.approvalUuid, balanceId: decided.balanceId, amount, merchant: purchase.merchant,
    status: decided.declineReason === null ? 'APPROVED' : 'DECLINED', declineReason: decided.declineReason, createdAt: nowIso(ctx),
  };
  ctx.state.authorizations[authorization.id] = authorization;
  emit(ctx, { type: 'authorization', at: authorization.createdAt, authorization: { ...authorization, amount: { ...amount } } });
  return authorization;
}

interface Decision {
  declineReason: DeclineReason | null;
  balanceId: string | null;
}

function businessPurchase(ctx: DomainContext, card: CardRecord, amount: Money): Decision {
  const approval = card.approvalUuid === null ? undefined : ctx.state.approvals[card.approvalUuid];
  const decline = (declineReason: DeclineReason): Decision => ({ declineReason, balanceId: null });
  if (!approval || approval.status !== 'DELIVERED') return decline('APPROVAL_NOT_DELIVERED');
  if (card.status === 'LOCKED') return decline('CARD_LOCKED');
  if (card.status !== 'ACTIVE') return decline('CARD_NOT_ACTIVE');
  if (amount.currency !== approval.budget.currency) return decline('CURRENCY_MISMATCH');
  if (amount.amount > approval.reserved) return decline('BUDGET_EXCEEDED');
  approval.reserved -= amount.amount;
  approval.spent += amount.amount;
  approval.updatedAt = nowIso(ctx);
  findCorporate(ctx, approval.corporateUuid).spent += amount.amount;
  return { declineReason: null, balanceId: null };
}

function s2sPurchase(ctx: DomainContext, card: CardRecord, amount: Money): Decision {
  const balance = balancesOf(ctx, card.userId).find((b) => b.currency === amount.currency);
  const decline = (declineReason: DeclineReason): Decision => ({ declineReason, balanceId: balance?.id ?? null });
  if (card.status === 'LOCKED') return decline('CARD_LOCKED');
  if (card.status !== 'ACTIVE') return decline('CARD_NOT_ACTIVE');
  if (!balance) return decline('CURRENCY_MISMATCH');
  if (amount.amount > balance.available) return decline('INSUFFICIENT_FUNDS');
  balance.available -= amount.amount;
  balance.updatedAt = nowIso(ctx);
  return { declineReason: null, balanceId: balance.id };
}
