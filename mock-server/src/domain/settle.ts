/**
 * Time-driven and registration-driven transitions, evaluated lazily: the mock calls {@link settle} before
 * every request and after every move of the clock or control action, so the state is always as if each
 * transition had run at its instant.
 * @module
 */
import { iso } from '../clock';
import { ORDER_COMPLETION_MS, approvalMachine, cardMachine, findTransition, type ApprovalContext } from '../machines';
import type { ApprovalRecord } from '../store';
import type { DomainContext } from './context';
import { closeCardUnlessInUse, release } from './business';
import { approvalStatusChanged, cardStatusChanged } from '../observe/domain-events';

/** The statuses the table lets time or registration move; the others (terminal ones) are skipped cheaply. */
const SETTLING = new Set(approvalMachine.rows
  .filter((row) => row.trigger === 'time' || row.trigger === 'registrationCompleted')
  .flatMap((row) => row.from ?? []));

/** Runs every due transition; returns how many ran (0: nothing changed). */
export function settle(ctx: DomainContext): number {
  let changes = 0;
  for (const card of Object.values(ctx.state.cards)) {
    if (card.status !== 'ORDERED' || card.orderedAt === null || Date.parse(card.orderedAt) + ORDER_COMPLETION_MS > ctx.now) continue;
    const row = findTransition(cardMachine, card.status, 'time');
    if (row && row.to !== 'unchanged') {
      const from = card.status;
      card.status = row.to;
      cardStatusChanged(ctx, card, from, Date.parse(card.orderedAt) + ORDER_COMPLETION_MS);
      changes++;
    }
  }
  // An approval can move several times in one settle (ACCEPTED → DELIVERED → FINISHED): loop until still.
  for (let moved = true; moved;) {
    moved = false;
    for (const approval of Object.values(ctx.state.approvals)) {
      if (step(ctx, approval)) {
        moved = true;
        changes++;
      }
    }
  }
  return changes;
}

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
