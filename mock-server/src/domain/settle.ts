/**
 * Time-driven and registration-driven transitions, evaluated lazily: the mock calls {@link settle} before
 * every request and after every move of the clock or control action, so the state is always as if each
 * transition had run at its instant. The instants come from the approval table's rows (`due`), the effects
 * from the lifecycle module: this file only orders them in time.
 * @module
 */
import { ORDER_COMPLETION_MS, cardMachine, findTransition } from '../machines';
import type { ApprovalRecord } from '../store';
import type { DomainContext } from './context';
import { SETTLING_STATUSES, apply, dueTransition, type ApprovalRow } from './lifecycle';

/** Runs every due transition, earliest first; returns how many ran (0: nothing changed). */
export function settle(ctx: DomainContext): number {
  let changes = 0;
  for (const card of Object.values(ctx.state.cards)) {
    if (card.status !== 'ORDERED' || card.orderedAt === null || Date.parse(card.orderedAt) + ORDER_COMPLETION_MS > ctx.now) continue;
    const row = findTransition(cardMachine, card.status, 'time');
    if (row && row.to !== 'unchanged') {
      card.status = row.to;
      changes++;
    }
  }
  // One transition at a time, the earliest due first: a transition may end another instance (a pending change
  // whose approval finished) or make one due, so the next is chosen again after each.
  for (;;) {
    let next: { approval: ApprovalRecord; row: ApprovalRow; at: number } | undefined;
    for (const approval of Object.values(ctx.state.approvals)) {
      if (!SETTLING_STATUSES.has(approval.status)) continue;
      const due = dueTransition(ctx, approval);
      if (due && due.at <= ctx.now && (next === undefined || due.at < next.at)) next = { approval, ...due };
    }
    if (!next) return changes;
    apply(ctx, next.approval, next.row, { at: next.at });
    changes++;
  }
}
