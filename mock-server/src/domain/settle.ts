/**
 * Time-driven and registration-driven transitions, evaluated lazily: the mock calls {@link settle} before every
 * request and after every move of the clock or control action, so the state is always as if each transition had
 * run at its instant. What may be due comes from the tenant's due-time queue (see `due.ts`), so a settle with
 * nothing due costs one look at the queue's head, however many cards and approvals there are.
 * @module
 */
import { iso } from '../clock';
import { approvalMachine, cardMachine, findTransition, type ApprovalContext } from '../machines';
import type { ApprovalRecord } from '../store';
import type { DomainContext } from './context';
import { closeCardUnlessInUse, release } from './business';
import { cardDueAt, scheduleApproval } from './due';
import { indexOf } from './lookups';
import { approvalStatusChanged, cardStatusChanged } from '../observe/domain-events';

/** Runs every due transition; returns how many ran (0: nothing changed). */
export function settle(ctx: DomainContext): number {
  const index = indexOf(ctx.state);
  let changes = 0;
  // A transition can make another due at once (ACCEPTED → DELIVERED → FINISHED): pop until nothing is due.
  for (let due = index.due.popDue(ctx.now); due.length > 0; due = index.due.popDue(ctx.now)) {
    for (const key of due) {
      const colon = key.indexOf(':');
      const id = key.slice(colon + 1);
      if (key.startsWith('card:')) {
        changes += completeOrder(ctx, id);
      } else {
        const approval = ctx.state.approvals[id];
        if (!approval) continue;
        if (step(ctx, approval)) changes++;
        scheduleApproval(index, ctx.state, approval);
      }
    }
  }
  return changes;
}

/** A physical card's order completes 3 days after it was placed. */
function completeOrder(ctx: DomainContext, cardId: string): number {
  const card = ctx.state.cards[cardId];
  if (!card) return 0;
  const at = cardDueAt(card);
  if (at === undefined || at > ctx.now) return 0;
  const row = findTransition(cardMachine, card.status, 'time');
  if (!row || row.to === 'unchanged') return 0;
  const from = card.status;
  card.status = row.to;
  cardStatusChanged(ctx, card, from, at);
  return 1;
}

/** The statuses the table lets time or registration move; the others (terminal ones) are skipped cheaply. */
const SETTLING = new Set(approvalMachine.rows
  .filter((row) => row.trigger === 'time' || row.trigger === 'registrationCompleted')
  .flatMap((row) => row.from ?? []));

/** Applies the approval's due transition, if any. */
function step(ctx: DomainContext, a: ApprovalRecord): boolean {
  if (!SETTLING.has(a.status)) return false;
  const c: ApprovalContext = {
    now: ctx.now, validFrom: Date.parse(a.validFrom), validTo: Date.parse(a.validTo), expiresAt: a.expiresAt === null ? null : Date.parse(a.expiresAt),
  };
  const registered = a.status === 'ACCEPTED' && ctx.state.businessUsers[a.userUuid]?.registrationStatus === 'COMPLETED';
  const row = registered ? findTransition(approvalMachine, a.status, 'registrationCompleted', c) : findTransition(approvalMachine, a.status, 'time', c);
  if (!row || row.to === 'unchanged') return false;
  // The instant the transition was due: validFrom, validTo or expiresAt for time rows, now for registration.
  const due = row.trigger === 'registrationCompleted' ? ctx.now
    : row.to === 'DELIVERED' ? c.validFrom : row.to === 'FINISHED' ? c.validTo : (c.expiresAt ?? ctx.now);
  const from = a.status;
  a.status = row.to;
  a.updatedAt = iso(Math.max(Date.parse(a.updatedAt), due));
  approvalStatusChanged(ctx, a, from, row.trigger, Date.parse(a.updatedAt));
  const card = ctx.state.cards[a.cardId];
  if (row.to === 'DELIVERED' && card?.status === 'INACTIVE') {
    const next = findTransition(cardMachine, card.status, 'approvalDelivered');
    if (next && next.to !== 'unchanged') {
      card.status = next.to;
      cardStatusChanged(ctx, card, 'INACTIVE', Date.parse(a.updatedAt));
    }
  }
  if (row.to === 'FINISHED') {
    release(ctx, a);
    closeCardUnlessInUse(ctx, a);
  }
  return true;
}
