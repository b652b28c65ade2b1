/**
 * Business cards: business users, approvals (every status and transition of the document's table), budgets
 * reserved from and released to the corporate balance, reapprovals on the same card, corporate deposit
 * addresses and top-ups. Invariant per corporate: funded = available + reserved (spent is 0: no transactions).
 * @module
 */
import type {
  Approval, ApprovalCreate, ApprovalList, BusinessUser, BusinessUserCreate, CardDetails, CorporateDepositAddressList, Money, TopUpList,
} from 'card-issuing-sdk';
import { iso } from '../clock';
import {
  REAPPROVAL_TTL_MS, RESERVING_STATUSES, approvalMachine, businessUserMachine, cardMachine, initialStatus, transition,
} from '../machines';
import type { ApprovalRecord, CorporateRecord } from '../store';
import { nowIso, type DomainContext } from './context';
import { ProblemError, conflict, unprocessable } from './errors';
import { detailsOf, issueCard } from './cards';
import {
  approvalsOf, approvalsOnCard, businessUserByEmail, corporateDepositAddressesOf, findApproval, findBusinessUser, findCorporate,
  registrationCompleted, topUpsOf,
} from './lookups';
import { approvalView, businessUserView, corporateDepositAddressView, topUpView } from './views';
import { approvalStatusChanged, cardStatusChanged } from '../observe/domain-events';

/** Budget bounds (decided): 1.00 to 1,000,000.00 in minor units. */
export const BUDGET_MIN = 100;
/** Budget bounds (decided): 1.00 to 1,000,000.00 in minor units. */
export const BUDGET_MAX = 100_000_000;

/** Creates a business user, PENDING until registration completes (control API). */
export function createBusinessUser(ctx: DomainContext, body: BusinessUserCreate): BusinessUser {
  if (businessUserByEmail(ctx, body.email)) {
    throw new ProblemError(409, 'EMAIL_ALREADY_REGISTERED', `A business user with the e-mail ${body.email} already exists.`);
  }
  const user = {
    userUuid: ctx.rng.uuid(), name: body.name, lastName: body.lastName, email: body.email, phone: body.phone,
    registrationStatus: initialStatus(businessUserMachine, 'createBusinessUser'), createdAt: nowIso(ctx),
  };
  ctx.state.businessUsers[user.userUuid] = user;
  ctx.emit({ type: 'user.registered', userId: user.userUuid, area: 'business' });
  return businessUserView(user);
}

/** The business user finishes registration (control API); the caller settles, so ACCEPTED approvals move on. */
export function completeRegistration(ctx: DomainContext, userUuid: string): BusinessUser {
  const user = findBusinessUser(ctx, userUuid);
  user.registrationStatus = transition(businessUserMachine, user.registrationStatus, 'completeRegistration');
  registrationCompleted(ctx, userUuid);
  ctx.emit({ type: 'user.registrationCompleted', userId: user.userUuid, area: 'business' });
  return businessUserView(user);
}

function checkCurrency(corporate: CorporateRecord, money: Money, field: string): void {
  if (money.currency !== corporate.currency) {
    throw unprocessable('CURRENCY_MISMATCH', `${field} is in ${money.currency}; the corporate balance is in ${corporate.currency}.`);
  }
}

function checkBounds(total: number, what: string): void {
  if (total < BUDGET_MIN || total > BUDGET_MAX) {
    throw unprocessable('BUDGET_OUT_OF_BOUNDS', `${what} is ${total} minor units; it must be ${BUDGET_MIN} to ${BUDGET_MAX}.`);
  }
}

function checkFunds(corporate: CorporateRecord, amount: number): void {
  if (amount > corporate.available) {
    throw unprocessable('INSUFFICIENT_FUNDS', `The corporate balance holds ${corporate.available} ${corporate.currency} minor units available; ${amount} are needed.`);
  }
}

/**
 * Creates an approval (ACCEPTED) with its card (INACTIVE), reserving the budget. Rules in order: the user
 * exists (404), currency, bounds, validity period, available funds (each 422).
 */
export function createApproval(ctx: DomainContext, corporateUuid: string, body: ApprovalCreate): Approval {
  const corporate = findCorporate(ctx, corporateUuid);
  const user = findBusinessUser(ctx, body.userUuid);
  checkCurrency(corporate, body.budget, 'budget');
  checkBounds(body.budget.amount, 'The budget');
  const validFrom = Date.parse(body.validFrom);
  const validTo = Date.parse(body.validTo);
  if (!(validTo > validFrom) || !(validTo > ctx.now)) {
    throw unprocessable('VALIDITY_PERIOD_INVALID', `validTo (${body.validTo}) must be after validFrom (${body.validFrom}) and in the future.`);
  }
  checkFunds(corporate, body.budget.amount);

  const approvalUuid = ctx.rng.uuid();
  const card = issueCard(ctx, {
    userId: user.userUuid, type: 'VIRTUAL', status: initialStatus(cardMachine, 'createApproval'),
    cardholderName: `${user.name} ${user.lastName}`, configId: null, visualId: null, corporateUuid, approvalUuid,
  });
  const now = nowIso(ctx);
  const approval: ApprovalRecord = {
    approvalUuid, corporateUuid, userUuid: user.userUuid, status: initialStatus(approvalMachine, 'createApproval'),
    budget: { ...body.budget }, validFrom: iso(validFrom), validTo: iso(validTo), previousApprovalUuid: null,
    replacedByApprovalUuid: null, expiresAt: null, cardId: card.id, reserved: body.budget.amount, createdAt: now, updatedAt: now,
  };
  corporate.available -= approval.reserved;
  ctx.state.approvals[approvalUuid] = approval;
  approvalStatusChanged(ctx, approval, null, 'createApproval');
  return approvalView(ctx.state, approval);
}

/** One approval instance with its card. */
export function getApproval(ctx: DomainContext, corporateUuid: string, approvalUuid: string): Approval {
  return approvalView(ctx.state, findApproval(ctx, corporateUuid, approvalUuid));
}

/** Every approval instance of a user under a corporate, oldest first. */
export function listUserApprovals(ctx: DomainContext, corporateUuid: string, userUuid: string): ApprovalList {
  findCorporate(ctx, corporateUuid);
  findBusinessUser(ctx, userUuid);
  return {
    items: approvalsOf(ctx, corporateUuid, userUuid).map((a) => approvalView(ctx.state, a)),
  };
}

/** The plaintext details of an approval's card: only while the approval is DELIVERED and the card ACTIVE. */
export function approvalCardDetails(ctx: DomainContext, corporateUuid: string, approvalUuid: string): CardDetails {
  const approval = findApproval(ctx, corporateUuid, approvalUuid);
  const operation = 'getApprovalCardDetails';
  if (approval.status !== 'DELIVERED') {
    throw conflict('APPROVAL_NOT_DELIVERED', `Card details are served only while the approval is DELIVERED; it is ${approval.status}.`, approval.status, operation);
  }
  const card = ctx.state.cards[approval.cardId]!;
  if (card.status !== 'ACTIVE') {
    throw conflict('CARD_NOT_ACTIVE', `Card details are served only for an ACTIVE card; card ${card.id} is ${card.status}.`, card.status, operation);
  }
  return detailsOf(card);
}

/** The corporate's deposit addresses. */
export function listCorporateDepositAddresses(ctx: DomainContext, corporateUuid: string): CorporateDepositAddressList {
  findCorporate(ctx, corporateUuid);
  return { items: corporateDepositAddressesOf(ctx, corporateUuid).map(corporateDepositAddressView) };
}

/** The corporate's top-ups, oldest first. */
export function listTopUps(ctx: DomainContext, corporateUuid: string): TopUpList {
  findCorporate(ctx, corporateUuid);
  return { items: topUpsOf(ctx, corporateUuid).map(topUpView) };
}

/**
 * Increases the budget: a new instance on the same card takes over the old one's status and reservation plus
 * the additional amount; the old one becomes REAPPROVED. Only from ACCEPTED or DELIVERED (409 otherwise).
 */
export function increaseBudget(ctx: DomainContext, corporateUuid: string, approvalUuid: string, additional: Money): Approval {
  const corporate = findCorporate(ctx, corporateUuid);
  const old = findApproval(ctx, corporateUuid, approvalUuid);
  const oldStatusNext = transition(approvalMachine, old.status, 'increaseApprovalBudget', { operation: 'increaseApprovalBudget' });
  checkCurrency(corporate, additional, 'additionalBudget');
  if (additional.amount < 1) throw unprocessable('BUDGET_OUT_OF_BOUNDS', 'additionalBudget must be at least 1 minor unit.');
  checkBounds(old.budget.amount + additional.amount, 'The new budget');
  checkFunds(corporate, additional.amount);

  const now = nowIso(ctx);
  const reapproval: ApprovalRecord = {
    approvalUuid: ctx.rng.uuid(), corporateUuid, userUuid: old.userUuid, status: old.status,
    budget: { amount: old.budget.amount + additional.amount, currency: old.budget.currency }, validFrom: old.validFrom, validTo: old.validTo,
    previousApprovalUuid: old.approvalUuid, replacedByApprovalUuid: null, expiresAt: null, cardId: old.cardId,
    reserved: old.reserved + additional.amount, createdAt: now, updatedAt: now,
  };
  corporate.available -= additional.amount;
  old.reserved = 0;
  const oldFrom = old.status;
  old.status = oldStatusNext;
  old.replacedByApprovalUuid = reapproval.approvalUuid;
  old.updatedAt = now;
  ctx.state.approvals[reapproval.approvalUuid] = reapproval;
  ctx.state.cards[old.cardId]!.approvalUuid = reapproval.approvalUuid;
  approvalStatusChanged(ctx, reapproval, null, 'increaseApprovalBudget');
  approvalStatusChanged(ctx, old, oldFrom, 'increaseApprovalBudget');
  return approvalView(ctx.state, reapproval);
}

/** Releases what an instance holds of the corporate balance (on CANCELED and FINISHED). */
export function release(ctx: DomainContext, approval: ApprovalRecord): void {
  findCorporate(ctx, approval.corporateUuid).available += approval.reserved;
  approval.reserved = 0;
}

/** Closes an approval's card unless another instance that is in force (reserving) still uses it. */
export function closeCardUnlessInUse(ctx: DomainContext, approval: ApprovalRecord): void {
  const inUse = approvalsOnCard(ctx, approval.cardId)
    .some((a) => a.cardId === approval.cardId && a.approvalUuid !== approval.approvalUuid && RESERVING_STATUSES.includes(a.status));
  const card = ctx.state.cards[approval.cardId]!;
  const from = card.status;
  if (!inUse && card.status !== 'CLOSED') card.status = transition(cardMachine, card.status, 'close');
  cardStatusChanged(ctx, card, from);
}

/** The corporation cancels an approval or reapproval (control API): from CREATED, ACCEPTED or PREPARED. */
export function cancelApproval(ctx: DomainContext, corporateUuid: string, approvalUuid: string): Approval {
  const approval = findApproval(ctx, corporateUuid, approvalUuid);
  const from = approval.status;
  approval.status = transition(approvalMachine, approval.status, 'cancel', { operation: 'cancelApproval' });
  approval.updatedAt = nowIso(ctx);
  approvalStatusChanged(ctx, approval, from, 'cancel');
  release(ctx, approval);
  closeCardUnlessInUse(ctx, approval);
  return approvalView(ctx.state, approval);
}

/** The corporation rejects a CREATED reapproval (control API). */
export function rejectApproval(ctx: DomainContext, corporateUuid: string, approvalUuid: string): Approval {
  const approval = findApproval(ctx, corporateUuid, approvalUuid);
  const from = approval.status;
  approval.status = transition(approvalMachine, approval.status, 'reject', { operation: 'rejectApproval' });
  approval.updatedAt = nowIso(ctx);
  approvalStatusChanged(ctx, approval, from, 'reject');
  return approvalView(ctx.state, approval);
}

/**
 * The user requests a change to an ACCEPTED or DELIVERED approval (control API): a new CREATED reapproval on
 * the same card, with the requested budget (the current one plus `additionalBudget`), awaiting the corporation
 * until `expiresAt` (now + 72 h). Nothing is reserved for it; the instance it would replace stays in force.
 */
export function requestChange(ctx: DomainContext, corporateUuid: string, approvalUuid: string, change: { additionalBudget?: Money } = {}): Approval {
  const corporate = findCorporate(ctx, corporateUuid);
  const current = findApproval(ctx, corporateUuid, approvalUuid);
  transition(approvalMachine, current.status, 'requestChange', { operation: 'requestApprovalChange' });
  const additional = change.additionalBudget ?? { amount: 0, currency: corporate.currency };
  checkCurrency(corporate, additional, 'additionalBudget');
  checkBounds(current.budget.amount + additional.amount, 'The requested budget');
  const now = nowIso(ctx);
  const reapproval: ApprovalRecord = {
    approvalUuid: ctx.rng.uuid(), corporateUuid, userUuid: current.userUuid, status: initialStatus(approvalMachine, 'requestChange'),
    budget: { amount: current.budget.amount + additional.amount, currency: current.budget.currency },
    validFrom: current.validFrom, validTo: current.validTo, previousApprovalUuid: current.approvalUuid, replacedByApprovalUuid: null,
    expiresAt: iso(ctx.now + REAPPROVAL_TTL_MS), cardId: current.cardId, reserved: 0, createdAt: now, updatedAt: now,
  };
  ctx.state.approvals[reapproval.approvalUuid] = reapproval;
  approvalStatusChanged(ctx, reapproval, null, 'requestChange');
  return approvalView(ctx.state, reapproval);
}
