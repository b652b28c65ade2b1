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
 * @module
 */
import { RESERVING_STATUSES } from '../machines';
import type { ApprovalRecord, AuthorizationRecord, BalanceRecord, CardRecord } from '../store';
import { nowIso, type DomainContext } from './context';
import { findCorporate } from './lookups';

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

/** A Server2Server card's purchase moves its user's balance: available += delta. */
function moveBalance(ctx: DomainContext, auth: AuthorizationRecord, delta: number): void {
  const balance = balanceOf(ctx, auth);
  balance.available += delta;
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
 * A hold of `held` captured for `amount` (an excess over the hold must fit the {@link headroom}): held −= held,
 * spent += amount, reserved −= amount; the corporate's spent += amount. The part of the hold not captured is free again
 * (remaining, or available once the carrier ended).
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
  if (reserving(carrier)) {
    carrier.reserved -= amount;
  } else {
    carrier.reserved -= held;
    corporate.available += held - amount;
  }
  touch(ctx, carrier);
}

/** A refund of a capture: spent −= amount (carrier and corporate); reserved += amount while the carrier reserves, else available. */
export function refund(ctx: DomainContext, auth: AuthorizationRecord, amount: number): void {
  if (auth.approvalUuid === null) {
    moveBalance(ctx, auth, amount);
    return;
  }
  const carrier = carrierOf(ctx, auth)!;
  const corporate = findCorporate(ctx, carrier.corporateUuid);
  carrier.spent -= amount;
  corporate.spent -= amount;
  if (reserving(carrier)) carrier.reserved += amount;
  else corporate.available += amount;
  touch(ctx, carrier);
}

/** The card of an authorization. */
export function cardOf(ctx: DomainContext, auth: AuthorizationRecord): CardRecord {
  const card = ctx.state.cards[auth.cardId];
  if (!card) throw new Error(`Authorization ${auth.id} has no card ${auth.cardId}`);
  return card;
}
