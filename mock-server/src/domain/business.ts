/**
 * Business cards: business users, approvals (every status and transition of the document's table, through the
 * lifecycle module), change requests and their acceptance, reapprovals on the same card, corporate deposit
 * addresses and top-ups. Invariant per corporate: funded = available + reserved + spent.
 * @module
 */
import type {
  Approval,
  ApprovalCreate,
  ApprovalList,
  BusinessUser,
  BusinessUserCreate,
  CardDetails,
  CorporateDepositAddressList,
  Money,
  TopUpList,
} from 'card-issuing-sdk';
import { iso } from '../clock';
import {
  REAPPROVAL_TTL_MS,
  approvalMachine,
  businessUserMachine,
  cardMachine,
  initialStatus,
  transition,
} from '../machines';
import type { ApprovalRecord, BusinessUserRecord, CorporateRecord } from '../store';
import { emit, nowIso, type DomainContext } from './context';
import { ProblemError, conflict, unprocessable } from './errors';
import { activeCardDetails, issueCard } from './cards';
import { allowed, apply, begin, checkFunds } from './lifecycle';
import {
  approvalsOf,
  businessUserByEmail,
  corporateDepositAddressesOf,
  findApproval,
  findBusinessUser,
  findCorporate,
  pendingChangeOf,
  registrationCompleted,
  topUpsOf,
} from './lookups';
import { paginate, type PageQuery } from './pagination';
import { approvalView, businessUserView, corporateDepositAddressView, topUpView } from './views';

/** Budget bounds (decided): 1.00 to 1,000,000.00 in minor units. */
export const BUDGET_MIN = 100;
/** Budget bounds (decided): 1.00 to 1,000,000.00 in minor units. */
export const BUDGET_MAX = 100_000_000;

/** Creates a business user, PENDING until registration completes (control API). */
export function createBusinessUser(ctx: DomainContext, body: BusinessUserCreate): BusinessUser {
  if (businessUserByEmail(ctx, body.email)) {
    throw new ProblemError('EMAIL_ALREADY_REGISTERED', `A business user with the e-mail ${body.email} already exists.`);
  }
  const user: BusinessUserRecord = {
    userUuid: ctx.rng.uuid(),
    name: body.name,
    lastName: body.lastName,
    email: body.email,
    phone: body.phone,
    registrationStatus: initialStatus(businessUserMachine, 'createBusinessUser'),
    createdAt: nowIso(ctx),
    registeredAt: null,
  };
  ctx.state.businessUsers[user.userUuid] = user;
  emit(ctx, { type: 'user.registered', at: user.createdAt, userId: user.userUuid, area: 'business' });
  return businessUserView(user);
}

/**
 * The business user finishes registration (control API). Their ACCEPTED approvals fall due at this instant (the
 * table's registration rows); the caller settles, so they move on before anything else is answered.
 */
export function completeRegistration(ctx: DomainContext, userUuid: string): BusinessUser {
  const user = findBusinessUser(ctx, userUuid);
  user.registrationStatus = transition(businessUserMachine, user.registrationStatus, 'completeRegistration');
  user.registeredAt = nowIso(ctx);
  registrationCompleted(ctx, userUuid);
  emit(ctx, { type: 'user.registrationCompleted', at: nowIso(ctx), userId: user.userUuid, area: 'business' });
  return businessUserView(user);
}

function checkCurrency(corporate: CorporateRecord, money: Money, field: string): void {
  if (money.currency !== corporate.currency) {
    throw unprocessable(
      'CURRENCY_MISMATCH',
      `${field} is in ${money.currency}; the corporate balance is in ${corporate.currency}.`,
    );
  }
}

function checkBounds(total: number, what: string): void {
  if (total < BUDGET_MIN || total > BUDGET_MAX) {
    throw unprocessable(
      'BUDGET_OUT_OF_BOUNDS',
      `${what} is ${total} minor units; it must be ${BUDGET_MIN} to ${BUDGET_MAX}.`,
    );
  }
}

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

/** The corporate's deposit addresses, oldest first, one page. */
export function listCorporateDepositAddresses(
  ctx: DomainContext,
  corporateUuid: string,
  query: PageQuery = {},
): CorporateDepositAddressList {
  findCorporate(ctx, corporateUuid);
  return paginate(
    ctx,
    `listCorporateDepositAddresses/${corporateUuid}`,
    corporateDepositAddressesOf(ctx, corporateUuid),
    (a) => a.id,
    query,
    corporateDepositAddressView,
  );
}

/** The corporate's top-ups, oldest first, one page. */
export function listTopUps(ctx: DomainContext, corporateUuid: string, query: PageQuery = {}): TopUpList {
  findCorporate(ctx, corporateUuid);
  return paginate(ctx, `listTopUps/${corporateUuid}`, topUpsOf(ctx, corporateUuid), (t) => t.id, query, topUpView);
}

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
