/**
 * What the inspector shows as coming next on the virtual clock.
 * @module
 */
import { cardDueAt, dueTransition } from '../domain/due';
import type { TenantState } from '../store';
import type { DueView } from './view-model';

/** Something the virtual clock will make happen, at an instant (ms). */
interface Due {
  at: number;
  what: string;
  id: string;
}

/**
 * What the virtual clock will make happen next, soonest first: the due rows of the approval table (the instants the
 * lifecycle's due-time queue uses), physical card orders completing, card holds expiring and e-mail codes expiring.
 */
export function upcoming(state: TenantState, now: number): DueView[] {
  return [...approvalsDue(state), ...cardsDue(state), ...holdsDue(state), ...codesDue(state)]
    .filter((d) => d.at > now)
    .sort((x, y) => x.at - y.at)
    .slice(0, 20)
    .map((d) => ({ at: new Date(d.at).toISOString(), what: d.what, id: d.id }));
}

function approvalsDue(state: TenantState): Due[] {
  return Object.values(state.approvals).flatMap((a) => {
    const next = dueTransition(state, a);
    if (!next || next.row.to === 'unchanged') return [];
    const what = a.status === 'CREATED' ? 'change request' : 'approval';
    const why = next.row.condition ?? next.row.trigger;
    return [{ at: next.at, what: `${what} ${a.status} → ${next.row.to} (${why})`, id: a.approvalUuid }];
  });
}

function cardsDue(state: TenantState): Due[] {
  return Object.values(state.cards).flatMap((c) => {
    const at = cardDueAt(c);
    return at === undefined ? [] : [{ at, what: 'card order completes (ORDERED → AWAITING_ACTIVATION)', id: c.id }];
  });
}

function holdsDue(state: TenantState): Due[] {
  return Object.values(state.authorizations).flatMap((a) =>
    a.state === 'PENDING' && a.expiresAt !== null
      ? [{ at: Date.parse(a.expiresAt), what: `card hold at ${a.merchant} expires (PENDING → EXPIRED)`, id: a.id }]
      : [],
  );
}

function codesDue(state: TenantState): Due[] {
  return Object.values(state.users).flatMap((u) =>
    u.otp ? [{ at: Date.parse(u.otp.expiresAt), what: 'e-mail code expires', id: u.id }] : [],
  );
}
