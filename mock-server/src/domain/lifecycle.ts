/**
 * The approval lifecycle in one place: which row of the approval table applies (operations by trigger, time and
 * registration by the rows' due instants, which `due.ts` keeps in the due-time queue), and what entering each status
 * does. Every status change of an approval goes through {@link apply} or {@link begin}, so the effects below, the
 * queue's schedule and the observer's `approval.status` event happen exactly once per change, whoever caused it.
 *
 * What entering a status does (decided; the reservation is always budget − spent while the instance reserves):
 *
 * | entering   | effects                                                                                   |
 * |------------|-------------------------------------------------------------------------------------------|
 * | CREATED    | none: a change request reserves nothing                                                   |
 * | ACCEPTED   | reserve                                                                                   |
 * | PREPARED   | reserve (already held)                                                                    |
 * | DELIVERED  | reserve; generate the card (number, expiry, CVV) unless it was; activate an INACTIVE card |
 * | REAPPROVED | hand reservation, holds, spending and card to the successor; end the pending change       |
 * | FINISHED   | release all but pending card holds; close the card; end the pending change                |
 * | CANCELED   | release all but pending holds; close the card if this instance has it; end pending change |
 * | EXPIRED    | release all but pending holds; close the card if this instance has it; end pending change |
 * | REJECTED   | none                                                                                      |
 * @module
 */
import type { ApprovalStatus } from 'card-issuing-sdk';
import { iso } from '../clock';
import {
  LIVE_STATUSES,
  approvalMachine,
  cardMachine,
  findTransition,
  transition,
  type ApprovalTrigger,
} from '../machines';
import type { ApprovalRecord, CardRecord, CorporateRecord } from '../store';
import { emit, type DomainContext } from './context';
import { generateCard, setCardStatus } from './cards';
import { approvalFacts, scheduleApproval, type ApprovalRow } from './due';
import { unprocessable } from './errors';
import { findCorporate, indexOf, pendingChangeOf } from './lookups';
import { payIn } from './money';

export type { ApprovalRow } from './due';

type Effect = 'reserve' | 'generateCard' | 'activateCard' | 'handOver' | 'release' | 'closeCard' | 'endPendingChange';

/** What entering each status does, in order. */
const ENTERING: Record<ApprovalStatus, readonly Effect[]> = {
  CREATED: [],
  ACCEPTED: ['reserve'],
  PREPARED: ['reserve'],
  DELIVERED: ['reserve', 'generateCard', 'activateCard'],
  REAPPROVED: ['handOver', 'endPendingChange'],
  FINISHED: ['release', 'closeCard', 'endPendingChange'],
  CANCELED: ['release', 'closeCard', 'endPendingChange'],
  EXPIRED: ['release', 'closeCard', 'endPendingChange'],
  REJECTED: [],
};

/** Options of a status change. */
export interface ApplyOptions {
  /** The instant it takes effect (a due instant for time rows); default: now. */
  at?: number;
  /** REAPPROVED: the instance that replaces this one (receives its reservation, spending and card). */
  successor?: ApprovalRecord;
}

/**
 * The row `trigger` takes from the approval's status, or a 409 (`INVALID_TRANSITION` naming the status and
 * `operation`) when the table has none. Nothing changes: check every rule first, then {@link apply}.
 */
export function allowed(
  ctx: DomainContext,
  a: ApprovalRecord,
  trigger: ApprovalTrigger,
  operation: string,
): ApprovalRow {
  const facts = approvalFacts(ctx.state, a);
  const row = findTransition(approvalMachine, a.status, trigger, facts);
  if (row) return row;
  transition(approvalMachine, a.status, trigger, { operation, ctx: facts });
  throw new Error(`unreachable: ${operation} from ${a.status}`);
}

/** Takes a row: the approval enters its status (the row's reason recorded) and the status's effects run. */
export function apply(ctx: DomainContext, a: ApprovalRecord, row: ApprovalRow, options: ApplyOptions = {}): void {
  const to = row.to === 'unchanged' ? a.status : row.to;
  if (to === a.status) return;
  enter(ctx, a, a.status, to, row.reason ?? null, options, row.trigger);
}

/**
 * A new instance (made by a `from: null` row) enters its initial status: its effects run (ACCEPTED reserves)
 * and the observer hears of it. Check the funds first: {@link reservationNeeded}.
 */
export function begin(ctx: DomainContext, a: ApprovalRecord, trigger: ApprovalTrigger): void {
  ctx.state.approvals[a.approvalUuid] = a;
  enter(ctx, a, null, a.status, null, {}, trigger);
}

/** What the approval would have to take from the corporate balance to hold budget − spent. */
export function reservationNeeded(a: Pick<ApprovalRecord, 'budget' | 'spent' | 'reserved'>): number {
  return Math.max(0, a.budget.amount - a.spent - a.reserved);
}

/** 422 INSUFFICIENT_FUNDS unless the corporate balance has `amount` available. */
export function checkFunds(corporate: CorporateRecord, amount: number): void {
  if (amount > corporate.available) {
    throw unprocessable(
      'INSUFFICIENT_FUNDS',
      `The corporate balance holds ${corporate.available} ${corporate.currency} minor units available; ${amount} are needed.`,
    );
  }
}

function enter(
  ctx: DomainContext,
  a: ApprovalRecord,
  from: ApprovalStatus | null,
  to: ApprovalStatus,
  reason: ApprovalRecord['statusReason'],
  options: ApplyOptions,
  trigger: ApprovalTrigger,
): void {
  const at = options.at ?? ctx.now;
  a.status = to;
  a.statusReason = LIVE_STATUSES.includes(to) ? null : reason;
  if (to !== 'CREATED') a.expiresAt = null;
  a.updatedAt = iso(Math.max(Date.parse(a.updatedAt), at));
  // Told before the effects, so that an event log reads cause first: the approval FINISHED, then its card CLOSED.
  emit(ctx, {
    type: 'approval.statusChanged',
    at: iso(at),
    corporateUuid: a.corporateUuid,
    approvalUuid: a.approvalUuid,
    userUuid: a.userUuid,
    cardId: a.cardId,
    from,
    to,
    trigger,
    reason: a.statusReason,
    previousApprovalUuid: a.previousApprovalUuid,
  });
  for (const effect of ENTERING[to]) run(ctx, a, effect, at, options);
  // The new status has its own due rows (or none): the due-time queue follows.
  scheduleApproval(indexOf(ctx.state), ctx.state, a);
}

function run(ctx: DomainContext, a: ApprovalRecord, effect: Effect, at: number, options: ApplyOptions): void {
  const card = ctx.state.cards[a.cardId];
  if (!card) throw new Error(`Approval ${a.approvalUuid} has no card ${a.cardId}`);
  switch (effect) {
    case 'reserve': {
      const need = reservationNeeded(a);
      const corporate = findCorporate(ctx, a.corporateUuid);
      checkFunds(corporate, need);
      corporate.available -= need;
      a.reserved += need;
      return;
    }
    case 'release':
      // Pending card holds stay reserved, capturable against this instance (`holds.ts`); the rest goes back.
      payIn(findCorporate(ctx, a.corporateUuid), a.reserved - a.held);
      a.reserved = a.held;
      return;
    case 'generateCard':
      generateCard(ctx, card, at);
      return;
    case 'activateCard':
      if (card.status === 'INACTIVE')
        setCardStatus(ctx, card, transition(cardMachine, card.status, 'approvalDelivered'), at);
      return;
    case 'handOver':
      handOver(a, card, options.successor);
      return;
    case 'closeCard':
      // Only the instance that holds the card closes it: a change request never does.
      if (card.approvalUuid === a.approvalUuid && card.status !== 'CLOSED')
        setCardStatus(ctx, card, transition(cardMachine, card.status, 'close'), at);
      return;
    case 'endPendingChange':
      endPendingChange(ctx, a, at, options);
      return;
  }
}

/** The reservation, spending and card pass to the successor of a REAPPROVED instance. */
function handOver(a: ApprovalRecord, card: CardRecord, successor: ApprovalRecord | undefined): void {
  if (!successor) throw new Error(`REAPPROVED without a successor for ${a.approvalUuid}`);
  successor.reserved += a.reserved;
  successor.spent = a.spent;
  // Pending holds move with the reservation (their authorizations are carried by the successor now).
  successor.held += a.held;
  a.held = 0;
  a.reserved = 0;
  a.replacedByApprovalUuid = successor.approvalUuid;
  card.approvalUuid = successor.approvalUuid;
}

/** A change still pending on an instance that ends (other than the one taking over) ends with it. */
function endPendingChange(ctx: DomainContext, a: ApprovalRecord, at: number, options: ApplyOptions): void {
  const pending = pendingChangeOf(ctx, a);
  if (!pending || pending === options.successor) return;
  // Ended by time, the change expires undecided; ended by the corporation's act, it is canceled.
  const trigger =
    a.status === 'FINISHED' || a.status === 'EXPIRED' ? 'changedApprovalTimedOut' : 'changedApprovalEnded';
  apply(ctx, pending, allowed(ctx, pending, trigger, trigger), { at });
}
