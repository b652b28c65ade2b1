/**
 * Where an authorization's money sits, and the moves of each step. Decided (written into the spec's Approval):
 *
 * - The corporate ledger keeps funded = available + reserved + spent. A business card's hold is part of its approval
 *   instance's reservation (`held` ≤ `reserved`): a hold moves nothing in the ledger and lowers the approval's
 *   `remaining` (= budget − spent − held) at once; a capture moves its amount from reserved to spent; a refund moves
 *   it back (to reserved while the instance reserves, to available once it ended). Nothing ever goes below zero.
 * - Money in flight when an approval ends: a reapproval (REAPPROVED) hands its pending holds to its successor with
 *   its reservation and spending (`held` moves; the authorization keeps the instance it was made under, its hold is
 *   carried by the instance that replaced it, see {@link carrierOf}). FINISHED (and CANCELED or EXPIRED, which a
 *   DELIVERED instance never enters) releases what is neither spent nor held; its pending holds stay reserved and
 *   capturable against the ended instance, for up to their amount (no excess: nothing remains), and what a capture,
 *   reversal or expiry frees goes back to the corporate's available balance, as does a later refund.
 * - A Server2Server card's hold is taken from its user's balance at once (available −= hold); a capture takes or gives
 *   back the difference, a reversal or expiry gives the hold back, a refund credits the balance.
 * - Captures the network forces (above the tolerance or the remaining budget, after a reversal or an expiry) move the
 *   money as any capture does; what exceeds the approval's reservation comes out of the corporate's available balance,
 *   and beyond it becomes the corporate's `overdraft` (a negative balance, shown as a debt and repaid first by the
 *   next top-up or credit), as an issuer's program balance goes negative on Stripe Issuing. The ledger then keeps
 *   funded + overdraft = available + reserved + spent. A Server2Server balance has an overdraft the same way. A refund
 *   of an overspent approval pays the excess back before it restores the reservation.
 * @module
 */
import { RESERVING_STATUSES } from '../machines';
import type { ApprovalRecord, AuthorizationRecord, BalanceRecord, CardRecord } from '../store';
import { nowIso, type DomainContext } from './context';
import { findCorporate } from './lookups';
import { payIn, payOut } from './money';

/**
 * The approval instance that carries an authorization's hold and spending now: the one it was made under, or the
 * instance that replaced it, and so on (undefined for a Server2Server card).
 */
export function carrierOf(
  ctx: DomainContext,
  auth: Pick<AuthorizationRecord, 'approvalUuid'>,
): ApprovalRecord | undefined {
  let approval = auth.approvalUuid === null ? undefined : ctx.state.approvals[auth.approvalUuid];
  // Bounded: a restored state's references resolve, but could loop.
  for (let hops = 0; approval?.replacedByApprovalUuid && hops < 10_000; hops++) {
    const next = ctx.state.approvals[approval.replacedByApprovalUuid];
    if (!next) break;
    approval = next;
  }
  return approval;
}

/** Whether the instance holds a reservation of the corporate balance (ACCEPTED, PREPARED, DELIVERED). */
export function reserving(approval: ApprovalRecord): boolean {
  return RESERVING_STATUSES.includes(approval.status);
}

/** What can still be spent under an instance: budget − spent − held while it reserves (its reservation less its holds), else 0. */
export function remainingOf(approval: ApprovalRecord): number {
  return reserving(approval) ? approval.reserved - approval.held : 0;
}

/** The user balance a Server2Server authorization holds on. */
function balanceOf(ctx: DomainContext, auth: AuthorizationRecord): BalanceRecord {
  const balance = auth.balanceId === null ? undefined : ctx.state.balances[auth.balanceId];
  if (!balance) throw new Error(`Authorization ${auth.id} has no balance`);
  return balance;
}

/** What a capture above the hold, or an increment, can take at most: the carrier's remaining budget, or the balance. */
export function headroom(ctx: DomainContext, auth: AuthorizationRecord): number {
  if (auth.approvalUuid === null) return balanceOf(ctx, auth).available;
  const carrier = carrierOf(ctx, auth);
  return carrier ? remainingOf(carrier) : 0;
}

function touch(ctx: DomainContext, record: { updatedAt: string }): void {
  record.updatedAt = nowIso(ctx);
}

/** A Server2Server card's purchase moves its user's balance: available += delta (an overdraft below zero). */
function moveBalance(ctx: DomainContext, auth: AuthorizationRecord, delta: number): void {
  const balance = balanceOf(ctx, auth);
  if (delta >= 0) payIn(balance, delta);
  else payOut(balance, -delta);
  touch(ctx, balance);
}

/** A new hold, or an approved increment: held += amount (business), or the balance −= amount. Check {@link headroom} first. */
export function hold(ctx: DomainContext, auth: AuthorizationRecord, amount: number): void {
  if (auth.approvalUuid === null) {
    moveBalance(ctx, auth, -amount);
    return;
  }
  const carrier = carrierOf(ctx, auth)!;
  carrier.held += amount;
  touch(ctx, carrier);
}

/** A hold released (reversal, expiry): held −= amount; once the carrier ended, the amount leaves its reservation for available. */
export function release(ctx: DomainContext, auth: AuthorizationRecord, amount: number): void {
  if (auth.approvalUuid === null) {
    moveBalance(ctx, auth, amount);
    return;
  }
  const carrier = carrierOf(ctx, auth)!;
  carrier.held -= amount;
  if (!reserving(carrier)) {
    carrier.reserved -= amount;
    findCorporate(ctx, carrier.corporateUuid).available += amount;
  }
  touch(ctx, carrier);
}

/**
 * A hold of `held` (0 after a reversal or an expiry) captured for `amount`: held −= held, spent += amount, and the
 * amount comes out of the carrier's reservation as far as it goes (what its other holds keep stays), the rest out of
 * the corporate's available balance, then its overdraft (a forced capture); the corporate's spent += amount. The part
 * of the hold not captured is free again (remaining, or available once the carrier ended).
 */
export function capture(ctx: DomainContext, auth: AuthorizationRecord, held: number, amount: number): void {
  if (auth.approvalUuid === null) {
    moveBalance(ctx, auth, held - amount);
    return;
  }
  const carrier = carrierOf(ctx, auth)!;
  const corporate = findCorporate(ctx, carrier.corporateUuid);
  carrier.held -= held;
  carrier.spent += amount;
  corporate.spent += amount;
  // Once ended, an instance reserves only its holds: this hold's part of the reservation is all it can give.
  const fromReservation = reserving(carrier)
    ? Math.min(amount, carrier.reserved - carrier.held)
    : Math.min(amount, held);
  carrier.reserved -= reserving(carrier) ? fromReservation : held;
  if (!reserving(carrier)) payIn(corporate, held - fromReservation);
  if (amount > fromReservation) payOut(corporate, amount - fromReservation);
  touch(ctx, carrier);
}

/**
 * A refund of a capture: spent −= amount (carrier and corporate); while the carrier reserves, what it had spent beyond
 * its budget goes back to the corporate's balance first (repaying an overdraft) and the rest to its reservation; once it
 * ended, all of it to the corporate's balance.
 */
export function refund(ctx: DomainContext, auth: AuthorizationRecord, amount: number): void {
  if (auth.approvalUuid === null) {
    moveBalance(ctx, auth, amount);
    return;
  }
  const carrier = carrierOf(ctx, auth)!;
  const corporate = findCorporate(ctx, carrier.corporateUuid);
  const beyondBudget = reserving(carrier) ? overspentOf(carrier) : amount;
  const back = Math.min(amount, beyondBudget);
  carrier.spent -= amount;
  corporate.spent -= amount;
  carrier.reserved += amount - back;
  payIn(corporate, back);
  touch(ctx, carrier);
}

/** A merchant's credit without a purchase (an unlinked refund): money in, to the corporate's balance or the user's. */
export function merchantCredit(ctx: DomainContext, auth: AuthorizationRecord, amount: number): void {
  if (auth.approvalUuid === null) {
    moveBalance(ctx, auth, amount);
    return;
  }
  const corporate = findCorporate(ctx, carrierOf(ctx, auth)!.corporateUuid);
  corporate.funded += amount;
  payIn(corporate, amount);
}

/** How far an approval instance's spending and holds exceed its budget (after forced captures), minor units. */
export function overspentOf(approval: ApprovalRecord): number {
  return Math.max(0, approval.spent + approval.held - approval.budget.amount);
}

/** The card of an authorization. */
export function cardOf(ctx: DomainContext, auth: AuthorizationRecord): CardRecord {
  const card = ctx.state.cards[auth.cardId];
  if (!card) throw new Error(`Authorization ${auth.id} has no card ${auth.cardId}`);
  return card;
}
