/**
 * Approvals: created ACCEPTED with their card (every status and transition of the document's table, through the
 * lifecycle module), read, listed, cancelled or rejected, and the card details served while DELIVERED.
 * Invariant per corporate: funded = available + reserved + spent.
 * @module
 */
import type { Approval, ApprovalCreate, ApprovalList, CardDetails } from 'card-issuing-sdk';
import { iso } from '../clock';
import { approvalMachine, cardMachine, initialStatus } from '../machines';
import type { ApprovalRecord } from '../store';
import { checkBounds, checkCurrency } from './approval-checks';
import { activeCardDetails, issueCard } from './cards';
import { nowIso, type DomainContext } from './context';
import { conflict, unprocessable } from './errors';
import { allowed, apply, begin, checkFunds } from './lifecycle';
import { approvalsOf, findApproval, findBusinessUser, findCorporate } from './lookups';
import { paginate, type PageQuery } from './pagination';
import { approvalView } from './views';

/**
 * Creates an approval (ACCEPTED) with its card (INACTIVE, not generated until DELIVERED), reserving the budget.
 * Rules in order: the user exists (404), currency, bounds, validity period, available funds (each 422).
 */
export function createApproval(ctx: DomainContext, corporateUuid: string, body: ApprovalCreate): Approval {
  const corporate = findCorporate(ctx, corporateUuid);
  const user = findBusinessUser(ctx, body.userUuid);
  checkCurrency(corporate, body.budget, 'budget');
  checkBounds(body.budget.amount, 'The budget');
  const validFrom = Date.parse(body.validFrom);
  const validTo = Date.parse(body.validTo);
  if (!(validTo > validFrom) || !(validTo > ctx.now)) {
    throw unprocessable(
      'VALIDITY_PERIOD_INVALID',
      `validTo (${body.validTo}) must be after validFrom (${body.validFrom}) and in the future.`,
    );
  }
  checkFunds(corporate, body.budget.amount);

  const approvalUuid = ctx.rng.uuid();
  const card = issueCard(
    ctx,
    {
      userId: user.userUuid,
      type: 'VIRTUAL',
      status: initialStatus(cardMachine, 'createApproval'),
      cardholderName: `${user.name} ${user.lastName}`,
      configId: null,
      visualId: null,
      corporateUuid,
      approvalUuid,
    },
    { generate: false },
  );
  const now = nowIso(ctx);
  const approval: ApprovalRecord = {
    approvalUuid,
    corporateUuid,
    userUuid: user.userUuid,
    status: initialStatus(approvalMachine, 'createApproval'),
    statusReason: null,
    budget: { ...body.budget },
    validFrom: iso(validFrom),
    validTo: iso(validTo),
    previousApprovalUuid: null,
    replacedByApprovalUuid: null,
    change: null,
    expiresAt: null,
    cardId: card.id,
    reserved: 0,
    spent: 0,
    held: 0,
    createdAt: now,
    updatedAt: now,
  };
  begin(ctx, approval, 'createApproval');
  return approvalView(ctx.state, approval);
}

/** One approval instance with its card. */
export function getApproval(ctx: DomainContext, corporateUuid: string, approvalUuid: string): Approval {
  return approvalView(ctx.state, findApproval(ctx, corporateUuid, approvalUuid));
}

/** Every approval instance of a user under a corporate (change requests included), oldest first, one page. */
export function listUserApprovals(
  ctx: DomainContext,
  corporateUuid: string,
  userUuid: string,
  query: PageQuery = {},
): ApprovalList {
  findCorporate(ctx, corporateUuid);
  findBusinessUser(ctx, userUuid);
  return paginate(
    ctx,
    `listUserApprovals/${corporateUuid}/${userUuid}`,
    approvalsOf(ctx, corporateUuid, userUuid),
    (a) => a.approvalUuid,
    query,
    (a) => approvalView(ctx.state, a),
  );
}

/** The plaintext details of an approval's card: only while the approval is DELIVERED and the card ACTIVE. */
export function approvalCardDetails(ctx: DomainContext, corporateUuid: string, approvalUuid: string): CardDetails {
  const approval = findApproval(ctx, corporateUuid, approvalUuid);
  const operation = 'getApprovalCardDetails';
  if (approval.status !== 'DELIVERED') {
    throw conflict(
      'APPROVAL_NOT_DELIVERED',
      `Card details are served only while the approval is DELIVERED; it is ${approval.status}.`,
      approval.status,
      operation,
    );
  }
  return activeCardDetails(ctx.state.cards[approval.cardId]!, operation);
}

/** The corporation cancels an approval or reapproval (control API): from CREATED, ACCEPTED or PREPARED. */
export function cancelApproval(ctx: DomainContext, corporateUuid: string, approvalUuid: string): Approval {
  const approval = findApproval(ctx, corporateUuid, approvalUuid);
  apply(ctx, approval, allowed(ctx, approval, 'cancel', 'cancelApproval'));
  return approvalView(ctx.state, approval);
}

/** The corporation rejects a CREATED reapproval (control API). */
export function rejectApproval(ctx: DomainContext, corporateUuid: string, approvalUuid: string): Approval {
  const approval = findApproval(ctx, corporateUuid, approvalUuid);
  apply(ctx, approval, allowed(ctx, approval, 'reject', 'rejectApproval'));
  return approvalView(ctx.state, approval);
}
