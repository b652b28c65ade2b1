/**
 * What the inspector shows as coming next on the virtual clock.
 * @module
 */
import { cardDueAt, dueTransition } from '../domain/due';
import type { TenantState } from '../store';
import type { DueView } from './view-model';

/**
 * What the virtual clock will make happen next, soonest first: the due rows of the approval table (the instants the
 * lifecycle's due-time queue uses), physical card orders completing, and e-mail codes expiring.
 */
export function upcoming(state: TenantState, now: number): DueView[] {
  const due: { at: number; what: string; id: string }[] = [];
  for (const a of Object.values(state.approvals)) {
    const next = dueTransition(state, a);
    if (next && next.row.to !== 'unchanged') {
      const what = a.status === 'CREATED' ? 'change request' : 'approval';
      due.push({
        at: next.at,
        what: `${what} ${a.status} → ${next.row.to} (${next.row.condition ?? next.row.trigger})`,
        id: a.approvalUuid,
      });
    }
  }
  for (const c of Object.values(state.cards)) {
    const at = cardDueAt(c);
    if (at !== undefined) due.push({ at, what: 'card order completes (ORDERED → AWAITING_ACTIVATION)', id: c.id });
  }
  for (const a of Object.values(state.authorizations)) {
    if (a.state === 'PENDING' && a.expiresAt !== null)
      due.push({
        at: Date.parse(a.expiresAt),
        what: `card hold at ${a.merchant} expires (PENDING → EXPIRED)`,
        id: a.id,
      });
  }
  for (const u of Object.values(state.users)) {
    if (u.otp) due.push({ at: Date.parse(u.otp.expiresAt), what: 'e-mail code expires', id: u.id });
  }
  return due
    .filter((d) => d.at > now)
    .sort((x, y) => x.at - y.at)
    .slice(0, 20)
    .map((d) => ({ at: new Date(d.at).toISOString(), what: d.what, id: d.id }));
}
