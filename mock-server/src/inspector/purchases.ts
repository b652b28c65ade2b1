/**
 * What the inspector shows of a card's purchases (authorizations), and of its number: the last four digits only.
 * @module
 */
import type { TenantState } from '../store';
import type { PurchaseView } from './view-model';

/** The last four digits of a card number, or null before the card is generated. */
export function last4Of(pan: string | null | undefined): string | null {
  return typeof pan === 'string' && pan.length >= 4 ? pan.slice(-4) : null;
}

/**
 * The latest purchases of each card, newest first: at most `perCard`, and every PENDING hold besides (a hold must stay
 * reachable to capture or reverse it, however many purchases came after it).
 */
export function purchasesByCard(state: TenantState, perCard: number): Map<string, PurchaseView[]> {
  const out = new Map<string, PurchaseView[]>();
  for (const a of Object.values(state.authorizations)) {
    const list = out.get(a.cardId) ?? [];
    list.unshift({
      id: a.id,
      at: a.createdAt,
      approved: a.status === 'APPROVED',
      amount: { ...a.amount },
      merchant: a.merchant,
      reason: a.declineReason,
      state: a.state,
      authorized: a.authorized,
      held: a.held,
      captured: a.captured,
      refunded: a.refunded,
      expiresAt: a.expiresAt,
      forced: a.steps.find((s) => s.kind === 'forcedCapture')?.forced ?? null,
      credit: a.steps[0]?.kind === 'credit',
    });
    out.set(a.cardId, list);
  }
  for (const [cardId, list] of out)
    out.set(
      cardId,
      list.filter((p, i) => i < perCard || p.state === 'PENDING'),
    );
  return out;
}
