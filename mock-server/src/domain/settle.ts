/**
 * Time-driven and registration-driven transitions, evaluated lazily: the mock calls {@link settle} before every
 * request and after every move of the clock or control action, so the state is always as if each transition had
 * run at its instant. What is due comes from the tenant's due-time queue, at the instants the approval table's rows
 * give (`due.ts`); what a transition does is the lifecycle's (`lifecycle.ts`). A settle with nothing due costs one
 * look at the queue's head, however many cards and approvals there are.
 * @module
 */
import { cardMachine, findTransition } from '../machines';
import type { DomainContext } from './context';
import { setCardStatus } from './cards';
import { cardDueAt, dueTransition, scheduleApproval } from './due';
import { apply } from './lifecycle';
import { expireIfDue } from './authorizations';
import { indexOf } from './lookups';

/** Runs every due transition, earliest first; returns how many ran (0: nothing changed). */
export function settle(ctx: DomainContext): number {
  const index = indexOf(ctx.state);
  let changes = 0;
  // One key at a time, the earliest first: a transition may end another instance (the pending change of an
  // approval that finishes) or make one due at once (ACCEPTED → PREPARED → DELIVERED), and the queue reorders.
  for (let key = index.due.popNext(ctx.now); key !== undefined; key = index.due.popNext(ctx.now)) {
    const id = key.slice(key.indexOf(':') + 1);
    if (key.startsWith('card:')) {
      changes += completeOrder(ctx, id);
      continue;
    }
    if (key.startsWith('authorization:')) {
      changes += expireIfDue(ctx, id);
      continue;
    }
    const approval = ctx.state.approvals[id];
    if (!approval) continue;
    const due = dueTransition(ctx.state, approval);
    if (due && due.at <= ctx.now) {
      apply(ctx, approval, due.row, { at: due.at });
      changes++;
    } else {
      scheduleApproval(index, ctx.state, approval);
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
  setCardStatus(ctx, card, row.to, at);
  return 1;
}
