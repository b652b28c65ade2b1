/**
 * What the inspector page shows of one tenant, built from a settled snapshot: users, cards, balances,
 * corporates with their ledger, approvals as chains of instances with their status history, the outbox,
 * verifications, top-ups, faults and what falls due next on the virtual clock.
 *
 * The page holds no secret, so neither does this: no api secret, no card number or CVV (cards show their last
 * four digits), no Authorization header. OTP codes are shown: the outbox is the control API's way to read them.
 * @module
 */
import { verificationView } from '../domain/views';
import type { MockEvent } from '../observe';
import type { FaultRule, OverrideRule, TenantState, UserRecord } from '../store';
import { approvalChains } from './chains';
import { last4Of, purchasesByCard } from './purchases';
import { upcoming } from './upcoming';
import type { InspectorView } from './view-model';

function registrationOf(state: TenantState, user: UserRecord): string {
  const required = state.catalogue.consents.filter((c) => c.kind === 'REGISTRATION');
  return required.every((c) => user.signedConsents[c.id] !== undefined) ? 'COMPLETED' : 'PENDING_CONSENTS';
}

/**
 * The page model of a tenant. `state` is a settled snapshot (a copy), `events` the tenant's event log, oldest
 * first (approval status changes: the histories the records do not keep).
 */
export function inspectorView(input: {
  state: TenantState;
  frozen: boolean;
  now: number;
  tenants: string[];
  events: readonly MockEvent[];
  faults: readonly FaultRule[];
  overrides: readonly OverrideRule[];
}): InspectorView {
  const { state, now } = input;
  const purchases = purchasesByCard(state, 8);
  const nameOfUser = namesOf(state);
  return {
    tenant: state.apiKey,
    tenants: input.tenants,
    clock: { now: new Date(now).toISOString(), frozen: input.frozen },
    upcoming: upcoming(state, now),
    users: usersView(state),
    businessUsers: Object.values(state.businessUsers).map((b) => ({
      userUuid: b.userUuid,
      name: `${b.name} ${b.lastName}`,
      email: b.email,
      registrationStatus: b.registrationStatus,
      createdAt: b.createdAt,
    })),
    cards: cardsView(state, purchases, nameOfUser),
    drafts: Object.values(state.drafts)
      .filter((d) => d.status !== 'COMPLETED')
      .map((d) => ({ cardId: d.cardId, userId: d.userId, type: d.type, status: d.status, price: { ...d.price } })),
    corporates: corporatesView(state),
    chains: approvalChains(state, input.events, purchases, nameOfUser),
    outbox: [...state.outbox]
      .reverse()
      .map((m) => ({ userId: m.userId, to: m.to, subject: m.subject, code: m.code ?? null, sentAt: m.sentAt })),
    verifications: Object.values(state.verifications).map(verificationView),
    topUps: Object.values(state.topUps).map((t) => ({
      id: t.id,
      corporateUuid: t.corporateUuid,
      type: t.type,
      cryptoAmount: t.cryptoAmount,
      amount: { ...t.amount },
      createdAt: t.createdAt,
    })),
    depositTargets: depositTargets(state, nameOfUser),
    depositTypes: state.catalogue.depositTypes.map((t) => ({
      type: t.type,
      name: t.name,
      minimumAmount: t.minimumAmount,
    })),
    faults: input.faults.map((f) => ({ ...f })),
    overrides: input.overrides.map((o) => ({ ...o })),
  };
}

/** A user's or business user's full name by id (the id itself when neither has it). */
function namesOf(state: TenantState): (id: string) => string {
  return (id) => {
    const u = state.users[id];
    if (u) return `${u.firstName} ${u.lastName}`;
    const b = state.businessUsers[id];
    return b ? `${b.name} ${b.lastName}` : id;
  };
}

/** The Server2Server users, each with their balances. */
function usersView(state: TenantState): InspectorView['users'] {
  const balances = Object.values(state.balances);
  return Object.values(state.users).map((u) => ({
    id: u.id,
    name: `${u.firstName} ${u.lastName}`,
    email: u.email,
    registrationStatus: registrationOf(state, u),
    emailVerified: u.emailVerified,
    kycStatus: u.kycStatus,
    createdAt: u.createdAt,
    balances: balances
      .filter((b) => b.userId === u.id)
      .map((b) => ({ id: b.id, currency: b.currency, available: b.available })),
  }));
}

/** The cards (last four digits only), each with its holder, currency and latest purchases. */
function cardsView(
  state: TenantState,
  purchases: ReturnType<typeof purchasesByCard>,
  nameOfUser: (id: string) => string,
): InspectorView['cards'] {
  const balances = Object.values(state.balances);
  return Object.values(state.cards).map((c) => ({
    id: c.id,
    userId: c.userId,
    holder: nameOfUser(c.userId),
    type: c.type,
    status: c.status,
    last4: last4Of(c.pan),
    area: c.corporateUuid === null ? ('s2s' as const) : ('business' as const),
    approvalUuid: c.approvalUuid,
    createdAt: c.createdAt,
    currency:
      (c.approvalUuid !== null
        ? state.approvals[c.approvalUuid]?.budget.currency
        : balances.find((b) => b.userId === c.userId)?.currency) ?? 'EUR',
    purchases: purchases.get(c.id) ?? [],
  }));
}

/** The corporates with their ledger: the approvals' reservations and holds summed. */
function corporatesView(state: TenantState): InspectorView['corporates'] {
  const approvals = Object.values(state.approvals);
  return Object.values(state.corporates).map((c) => {
    const mine = approvals.filter((a) => a.corporateUuid === c.corporateUuid);
    return {
      corporateUuid: c.corporateUuid,
      name: c.name,
      currency: c.currency,
      balanceId: c.balanceId,
      funded: c.funded,
      overdraft: c.overdraft ?? 0,
      available: c.available,
      reserved: mine.reduce((sum, a) => sum + a.reserved, 0),
      held: mine.reduce((sum, a) => sum + a.held, 0),
      spent: c.spent,
    };
  });
}

/** Where a deposit can arrive: the corporates' balances (a top-up), then the users' (a verification). */
function depositTargets(state: TenantState, nameOfUser: (id: string) => string): InspectorView['depositTargets'] {
  return [
    ...Object.values(state.corporates).map((c) => ({
      balanceId: c.balanceId,
      label: `${c.name} (corporate, top-up)`,
      types: Object.values(state.corporateDepositAddresses)
        .filter((a) => a.corporateUuid === c.corporateUuid)
        .map((a) => a.type),
    })),
    ...Object.values(state.balances).map((b) => ({
      balanceId: b.id,
      label: `${nameOfUser(b.userId)} · ${b.currency}`,
      types: Object.values(state.depositAddresses)
        .filter((a) => a.balanceId === b.id)
        .map((a) => a.type),
    })),
  ];
}
