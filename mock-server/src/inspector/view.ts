/**
 * What the inspector page shows of one tenant, built from a settled snapshot: users, cards, balances,
 * corporates with their ledger, approvals as chains of instances with their status history, the outbox,
 * verifications, top-ups, faults and what falls due next on the virtual clock.
 *
 * The page holds no secret, so neither does this: no api secret, no card number or CVV (cards show their last
 * four digits), no Authorization header. OTP codes are shown: the outbox is the control API's way to read them.
 * @module
 */
import type { ApprovalStatus, DepositVerification, Money } from 'card-issuing-sdk';
import { cardDueAt, dueTransition } from '../domain/due';
import { remainingOf } from '../domain/holds';
import { verificationView } from '../domain/views';
import type { MockEvent } from '../observe';
import type { FaultRule, TenantState, UserRecord } from '../store';

/** One status change of an approval instance. */
export interface StatusChange {
  from: ApprovalStatus | null;
  to: ApprovalStatus;
  /** On the virtual clock. */
  at: string;
  trigger: string | null;
}

/** An approval instance as the page shows it. */
export interface InstanceView {
  approvalUuid: string;
  status: ApprovalStatus;
  budget: Money;
  reserved: number;
  spent: number;
  /** Pending card holds it carries (part of `reserved`). */
  held: number;
  /** What can still be authorized: budget − spent − held while in force, else 0. */
  remaining: number;
  validFrom: string;
  validTo: string;
  expiresAt: string | null;
  createdAt: string;
  updatedAt: string;
  previousApprovalUuid: string | null;
  /** Why it left the live statuses (`VALIDITY_ENDED`, `REPLACED`, ...), or null. */
  statusReason: string | null;
  /** Oldest first. Complete when the event log still holds the instance's whole life, else what the record tells. */
  history: StatusChange[];
  historyComplete: boolean;
}

/** The instances of one card, oldest first: an approval and the reapprovals that changed it. */
export interface ChainView {
  corporateUuid: string;
  corporateName: string;
  userUuid: string;
  userName: string;
  cardId: string;
  last4: string | null;
  cardStatus: string | null;
  instances: InstanceView[];
  /** The card's latest purchases (authorizations), newest first. */
  authorizations: PurchaseView[];
}

/** A purchase on a card (an authorization), approved or declined with its reason, and where it is in its life. */
export interface PurchaseView {
  id: string;
  at: string;
  approved: boolean;
  amount: Money;
  merchant: string;
  reason: string | null;
  /** PENDING, CLEARED, REVERSED, EXPIRED, REFUNDED or DECLINED. */
  state: string;
  /** Minor units. */
  authorized: number;
  held: number;
  captured: number;
  refunded: number;
  expiresAt: string | null;
}

/** Something the virtual clock will make happen. */
export interface DueView {
  at: string;
  what: string;
  id: string;
}

/** The whole page model of one tenant. */
export interface InspectorView {
  tenant: string;
  /** The tenants the page can show: the default one, or every one when the mock does not check signatures. */
  tenants: string[];
  clock: { now: string; frozen: boolean };
  upcoming: DueView[];
  users: {
    id: string;
    name: string;
    email: string;
    registrationStatus: string;
    emailVerified: boolean;
    kycStatus: string;
    createdAt: string;
    balances: { id: string; currency: string; available: number }[];
  }[];
  businessUsers: { userUuid: string; name: string; email: string; registrationStatus: string; createdAt: string }[];
  cards: {
    id: string;
    userId: string;
    holder: string;
    type: string;
    status: string;
    last4: string | null;
    area: 's2s' | 'business';
    approvalUuid: string | null;
    createdAt: string;
    currency: string;
    purchases: PurchaseView[];
  }[];
  drafts: { cardId: string; userId: string; type: string; status: string; price: Money }[];
  corporates: {
    corporateUuid: string;
    name: string;
    currency: string;
    balanceId: string;
    funded: number;
    available: number;
    reserved: number;
    held: number;
    spent: number;
  }[];
  chains: ChainView[];
  outbox: { userId: string; to: string; subject: string; code: string | null; sentAt: string }[];
  /** As the API shows them (listDepositVerifications). */
  verifications: DepositVerification[];
  topUps: { id: string; corporateUuid: string; type: string; cryptoAmount: string; amount: Money; createdAt: string }[];
  depositTargets: { balanceId: string; label: string; types: string[] }[];
  depositTypes: { type: string; name: string; minimumAmount: string }[];
  faults: { method: string | null; path: string; status: number | null; delayMs: number | null; remaining: number }[];
}

/** The last four digits of a card number, or null before the card is generated. */
function last4Of(pan: string | null | undefined): string | null {
  return typeof pan === 'string' && pan.length >= 4 ? pan.slice(-4) : null;
}

/**
 * The latest purchases of each card, newest first: at most `perCard`, and every PENDING hold besides (a hold must stay
 * reachable to capture or reverse it, however many purchases came after it).
 */
function purchasesByCard(state: TenantState, perCard: number): Map<string, PurchaseView[]> {
  const out = new Map<string, PurchaseView[]>();
  for (const a of Object.values(state.authorizations)) {
    const list = out.get(a.cardId) ?? [];
    list.unshift({
      id: a.id,
      at: a.createdAt,
      approved: a.status === 'APPROVED',
      amount: { ...a.amount },
      merchant: a.merchant,
      reason: a.declineReason,
      state: a.state,
      authorized: a.authorized,
      held: a.held,
      captured: a.captured,
      refunded: a.refunded,
      expiresAt: a.expiresAt,
    });
    out.set(a.cardId, list);
  }
  for (const [cardId, list] of out)
    out.set(
      cardId,
      list.filter((p, i) => i < perCard || p.state === 'PENDING'),
    );
  return out;
}

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
}): InspectorView {
  const { state, now } = input;
  const users = Object.values(state.users);
  const balances = Object.values(state.balances);
  const approvals = Object.values(state.approvals);

  const history = new Map<string, StatusChange[]>();
  for (const e of input.events) {
    if (e.type !== 'approval.statusChanged') continue;
    const list = history.get(e.approvalUuid) ?? [];
    list.push({ from: e.from, to: e.to, at: e.at, trigger: e.trigger });
    history.set(e.approvalUuid, list);
  }
  const purchases = purchasesByCard(state, 8);

  const nameOfUser = (id: string): string => {
    const u = state.users[id];
    if (u) return `${u.firstName} ${u.lastName}`;
    const b = state.businessUsers[id];
    return b ? `${b.name} ${b.lastName}` : id;
  };

  const chains = new Map<string, ChainView>();
  for (const a of approvals) {
    const card = state.cards[a.cardId];
    let chain = chains.get(a.cardId);
    if (!chain) {
      chain = {
        corporateUuid: a.corporateUuid,
        corporateName: state.corporates[a.corporateUuid]?.name ?? a.corporateUuid,
        userUuid: a.userUuid,
        userName: nameOfUser(a.userUuid),
        cardId: a.cardId,
        last4: last4Of(card?.pan),
        cardStatus: card?.status ?? null,
        instances: [],
        authorizations: purchases.get(a.cardId) ?? [],
      };
      chains.set(a.cardId, chain);
    }
    const seen = history.get(a.approvalUuid) ?? [];
    const complete = seen.length > 0 && seen[0]!.from === null && seen[seen.length - 1]!.to === a.status;
    chain.instances.push({
      approvalUuid: a.approvalUuid,
      status: a.status,
      budget: { ...a.budget },
      reserved: a.reserved,
      spent: a.spent,
      statusReason: a.statusReason,
      held: a.held,
      remaining: remainingOf(a),
      validFrom: a.validFrom,
      validTo: a.validTo,
      expiresAt: a.expiresAt,
      createdAt: a.createdAt,
      updatedAt: a.updatedAt,
      previousApprovalUuid: a.previousApprovalUuid,
      history: complete ? seen : fallbackHistory(a.status, a.createdAt, a.updatedAt, a.previousApprovalUuid !== null),
      historyComplete: complete,
    });
  }

  return {
    tenant: state.apiKey,
    tenants: input.tenants,
    clock: { now: new Date(now).toISOString(), frozen: input.frozen },
    upcoming: upcoming(state, now),
    users: users.map((u) => ({
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
    })),
    businessUsers: Object.values(state.businessUsers).map((b) => ({
      userUuid: b.userUuid,
      name: `${b.name} ${b.lastName}`,
      email: b.email,
      registrationStatus: b.registrationStatus,
      createdAt: b.createdAt,
    })),
    cards: Object.values(state.cards).map((c) => ({
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
    })),
    drafts: Object.values(state.drafts)
      .filter((d) => d.status !== 'COMPLETED')
      .map((d) => ({ cardId: d.cardId, userId: d.userId, type: d.type, status: d.status, price: { ...d.price } })),
    corporates: Object.values(state.corporates).map((c) => {
      const mine = approvals.filter((a) => a.corporateUuid === c.corporateUuid);
      return {
        corporateUuid: c.corporateUuid,
        name: c.name,
        currency: c.currency,
        balanceId: c.balanceId,
        funded: c.funded,
        available: c.available,
        reserved: mine.reduce((sum, a) => sum + a.reserved, 0),
        held: mine.reduce((sum, a) => sum + a.held, 0),
        spent: c.spent,
      };
    }),
    chains: [...chains.values()],
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
    depositTargets: [
      ...Object.values(state.corporates).map((c) => ({
        balanceId: c.balanceId,
        label: `${c.name} (corporate, top-up)`,
        types: Object.values(state.corporateDepositAddresses)
          .filter((a) => a.corporateUuid === c.corporateUuid)
          .map((a) => a.type),
      })),
      ...balances.map((b) => ({
        balanceId: b.id,
        label: `${nameOfUser(b.userId)} · ${b.currency}`,
        types: Object.values(state.depositAddresses)
          .filter((a) => a.balanceId === b.id)
          .map((a) => a.type),
      })),
    ],
    depositTypes: state.catalogue.depositTypes.map((t) => ({
      type: t.type,
      name: t.name,
      minimumAmount: t.minimumAmount,
    })),
    faults: input.faults.map((f) => ({
      method: f.method ?? null,
      path: f.path,
      status: f.status ?? null,
      delayMs: f.delayMs ?? null,
      remaining: f.remaining,
    })),
  };
}

/** What a record alone tells of an instance's history when the event log no longer holds it. */
function fallbackHistory(
  status: ApprovalStatus,
  createdAt: string,
  updatedAt: string,
  reapproval: boolean,
): StatusChange[] {
  // A change request starts CREATED, anything else ACCEPTED (an increase-budget instance starts in its
  // predecessor's status, which the record does not keep: the first entry then says the status it has now).
  const first: ApprovalStatus =
    reapproval && (status === 'CREATED' || status === 'REJECTED' || status === 'EXPIRED')
      ? 'CREATED'
      : reapproval
        ? status
        : 'ACCEPTED';
  const out: StatusChange[] = [{ from: null, to: first, at: createdAt, trigger: null }];
  if (status !== first) out.push({ from: null, to: status, at: updatedAt, trigger: null });
  return out;
}

/**
 * What the virtual clock will make happen next, soonest first: the due rows of the approval table (the instants the
 * lifecycle's due-time queue uses), physical card orders completing, and e-mail codes expiring.
 */
function upcoming(state: TenantState, now: number): DueView[] {
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
