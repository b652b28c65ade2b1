/**
 * Reapprovals on the same card: a budget increase (at once), and a change request the user makes and the
 * corporation accepts, which replaces the instance it changes (REAPPROVED).
 * @module
 */
import type { Approval, Money } from 'card-issuing-sdk';
import { iso } from '../clock';
import { REAPPROVAL_TTL_MS, approvalMachine, initialStatus, transition } from '../machines';
import type { ApprovalRecord } from '../store';
import { checkBounds, checkCurrency } from './approval-checks';
import { nowIso, type DomainContext } from './context';
import { ProblemError, conflict, unprocessable } from './errors';
import { allowed, apply, begin, checkFunds } from './lifecycle';
import { findApproval, findCorporate, pendingChangeOf } from './lookups';
import { approvalView } from './views';

/** A new instance that will replace `old` on the same card (its status and reservation come from the lifecycle). */
function successorOf(
  ctx: DomainContext,
  old: ApprovalRecord,
  additional: Money,
  pinUpdate: boolean,
  status: ApprovalRecord['status'],
): ApprovalRecord {
  const now = nowIso(ctx);
  return {
    approvalUuid: ctx.rng.uuid(),
    corporateUuid: old.corporateUuid,
    userUuid: old.userUuid,
    status,
    statusReason: null,
    budget: { amount: old.budget.amount + additional.amount, currency: old.budget.currency },
    validFrom: old.validFrom,
    validTo: old.validTo,
    previousApprovalUuid: old.approvalUuid,
    replacedByApprovalUuid: null,
    change: { additionalBudget: { ...additional }, pinUpdate },
    expiresAt: null,
    cardId: old.cardId,
    reserved: 0,
    spent: 0,
    held: 0,
    createdAt: now,
    updatedAt: now,
  };
}

/**
 * Increases the budget: a new instance on the same card takes over the old one's status, reservation and spending,
 * and reserves the additional amount; the old one becomes REAPPROVED (its pending change, if any, CANCELED). Only
 * from ACCEPTED or DELIVERED (409 otherwise).
 */
export function increaseBudget(
  ctx: DomainContext,
  corporateUuid: string,
  approvalUuid: string,
  additional: Money,
): Approval {
  const corporate = findCorporate(ctx, corporateUuid);
  const old = findApproval(ctx, corporateUuid, approvalUuid);
  const replaced = allowed(ctx, old, 'increaseApprovalBudget', 'increaseApprovalBudget');
  checkCurrency(corporate, additional, 'additionalBudget');
  if (additional.amount < 1)
    throw unprocessable('BUDGET_OUT_OF_BOUNDS', 'additionalBudget must be at least 1 minor unit.');
  checkBounds(old.budget.amount + additional.amount, 'The new budget');
  checkFunds(corporate, additional.amount);

  const reapproval = successorOf(ctx, old, additional, false, old.status);
  ctx.state.approvals[reapproval.approvalUuid] = reapproval;
  apply(ctx, old, replaced, { successor: reapproval });
  begin(ctx, reapproval, 'increaseApprovalBudget');
  return approvalView(ctx.state, reapproval);
}

/** What a user asks to change (control API): a budget added, a PIN update, or both. */
export interface ChangeRequest {
  additionalBudget?: Money;
  pinUpdate?: boolean;
}

/**
 * The user requests a change to an ACCEPTED or DELIVERED approval (control API): a new CREATED reapproval on
 * the same card, with the requested budget (the current one plus `additionalBudget`) and PIN update, awaiting the
 * corporation until `expiresAt` (now + 72 h). Nothing is reserved for it; the instance it would replace stays in
 * force. At most one change is pending per approval (409 CHANGE_ALREADY_PENDING).
 */
export function requestChange(
  ctx: DomainContext,
  corporateUuid: string,
  approvalUuid: string,
  change: ChangeRequest = {},
): Approval {
  const corporate = findCorporate(ctx, corporateUuid);
  const current = findApproval(ctx, corporateUuid, approvalUuid);
  const operation = 'requestApprovalChange';
  allowed(ctx, current, 'requestChange', operation);
  const pending = pendingChangeOf(ctx, current);
  if (pending) {
    throw conflict(
      'CHANGE_ALREADY_PENDING',
      `Approval ${current.approvalUuid} already has a pending change (${pending.approvalUuid}); accept, reject or cancel it first.`,
      pending.status,
      operation,
    );
  }
  const additional = change.additionalBudget ?? { amount: 0, currency: corporate.currency };
  checkCurrency(corporate, additional, 'additionalBudget');
  checkBounds(current.budget.amount + additional.amount, 'The requested budget');
  const reapproval = successorOf(
    ctx,
    current,
    additional,
    change.pinUpdate ?? false,
    initialStatus(approvalMachine, 'requestChange'),
  );
  reapproval.expiresAt = iso(ctx.now + REAPPROVAL_TTL_MS);
  begin(ctx, reapproval, 'requestChange');
  return approvalView(ctx.state, reapproval);
}

/**
 * The corporation accepts a CREATED change request (control API): it takes over the status (ACCEPTED or DELIVERED),
 * card, reservation and spending of the instance it changes, reserving the budget it adds (422 INSUFFICIENT_FUNDS
 * when the corporate balance cannot), and that instance becomes REAPPROVED. A change whose approval is PREPARED
 * waits for it to be DELIVERED (409 naming PREPARED).
 */
export function acceptChange(ctx: DomainContext, corporateUuid: string, approvalUuid: string): Approval {
  const corporate = findCorporate(ctx, corporateUuid);
  const change = findApproval(ctx, corporateUuid, approvalUuid);
  const operation = 'acceptApprovalChange';
  if (change.status !== 'CREATED' || change.previousApprovalUuid === null) {
    transition(approvalMachine, change.status, 'accept', { operation });
    throw new ProblemError('INVALID_TRANSITION', `Approval ${change.approvalUuid} is not a change request.`, {
      currentStatus: change.status,
      operation,
    });
  }
  const changed = findApproval(ctx, corporateUuid, change.previousApprovalUuid);
  const replaced = allowed(ctx, changed, 'changeAccepted', operation);
  const accepted = allowed(ctx, change, 'accept', operation);
  checkFunds(corporate, change.budget.amount - changed.budget.amount);
  apply(ctx, changed, replaced, { successor: change });
  apply(ctx, change, accepted);
  return approvalView(ctx.state, change);
}
