/**
 * The builders of business cards: a business user (PENDING or registered), an approval in any of the nine statuses
 * with purchases already made, and a corporate's balance. Every status is reached through the approval table's own
 * rows (create, registration, time, cancel, change request, reject, budget increase), at instants chosen so that
 * what needs time to have passed (FINISHED, EXPIRED) has its history in the past.
 * @module
 */
import type { Approval, ApprovalStatus, BusinessUser, Money, TopUp } from 'card-issuing-sdk';
import { iso } from '../../clock';
import { authorizations, business, settle, type DomainContext } from '../../domain';
import { approvalView, businessUserView } from '../../domain/views';
import { findBusinessUser } from '../../domain/lookups';
import { AUTHORIZATION_TTL_MS, REAPPROVAL_TTL_MS } from '../../machines';
import type { AuthorizationRecord, BusinessUserRecord } from '../../store';
import {
  DAY,
  HOUR,
  MINUTE,
  USER_HISTORY_MS,
  at,
  bad,
  notBefore,
  resolveCorporate,
  resolveUser,
  type BuildContext,
} from './context';
import { topUpTo } from './money';
import type { GivenApprovalOptions, GivenBusinessUserOptions, GivenCorporateBalanceOptions } from './options';

/** What `given.businessUser` made. */
export interface GivenBusinessUser {
  user: BusinessUser;
}

/** What `given.approval` made: the approval in the status asked for, its user and card, and what led there. */
export interface GivenApproval<S extends ApprovalStatus = ApprovalStatus> {
  /** The approval, in the status asked for. */
  approval: Approval & { status: S };
  user: BusinessUser;
  card: Approval['card'];
  corporateUuid: string;
  /** CREATED, REJECTED, EXPIRED: the live approval the change request was made on. */
  changed: S extends 'CREATED' | 'REJECTED' | 'EXPIRED' ? Approval : undefined;
  /** REAPPROVED: the instance that replaced it (same card, the budget increased). */
  successor: S extends 'REAPPROVED' ? Approval : undefined;
  /** The purchases made on the card (`spent` captured, `held` pending), oldest first. */
  authorizations: AuthorizationRecord[];
}

/** What `given.corporateBalance` made. */
export interface GivenCorporateBalance {
  corporateUuid: string;
  /** Available now. */
  balance: Money;
  /** The top-up that raised it (null when it already was at the amount). */
  topUp: TopUp | null;
}

/** A business user made `USER_HISTORY_MS` back, registered a minute later when asked. */
export function givenBusinessUser(b: BuildContext, o: GivenBusinessUserOptions): GivenBusinessUser {
  const record = newBusinessUser(b, o, b.now - USER_HISTORY_MS, o.registered ?? false);
  return { user: businessUserView(record) };
}

function newBusinessUser(
  b: BuildContext,
  o: GivenBusinessUserOptions,
  createdAt: number,
  registered: boolean,
): BusinessUserRecord {
  const user = at(b, createdAt, (ctx) =>
    business.createBusinessUser(ctx, {
      name: o.name ?? 'Ada',
      lastName: o.lastName ?? 'Lovelace',
      email: o.email ?? `cardholder.${emailTag(ctx)}@example.org`,
      phone: o.phone ?? '+447700900123',
    }),
  );
  if (registered) at(b, createdAt + MINUTE, (ctx) => business.completeRegistration(ctx, user.userUuid));
  return b.ctx.state.businessUsers[user.userUuid]!;
}

/** A short deterministic tag for default e-mail addresses (from the tenant's generator). */
export function emailTag(ctx: DomainContext): string {
  return ctx.rng.uuid().slice(0, 8);
}

/** When each step of an approval's history happens, and what the approval's user must be. */
interface Plan {
  /** The live approval is created. */
  created: number;
  validFrom: number;
  validTo: number;
  /** The user has completed registration (by `created`). */
  registered: boolean;
  /** Purchases are made (the live approval DELIVERED). */
  purchases: number;
}

/** Statuses whose approval never was DELIVERED: no purchase was made with its card. */
const NEVER_DELIVERED: readonly ApprovalStatus[] = ['ACCEPTED', 'PREPARED', 'CANCELED'];

/** An approval in `o.status`, with its history. */
export function givenApproval(b: BuildContext, o: GivenApprovalOptions): GivenApproval {
  const corporate = resolveCorporate(b, o.corporate);
  const budget: Money =
    typeof o.budget === 'object' ? { ...o.budget } : { amount: o.budget ?? 100_000, currency: corporate.currency };
  const spent = o.spent ?? 0;
  const held = o.held ?? 0;
  checkPurchases(b, o.status, budget, spent, held);

  const existing = o.user === undefined ? undefined : findBusinessUser(b.ctx, resolveUser(b, o.user, 'business'));
  const plan = planOf(b, o, existing);
  const user =
    existing ?? newBusinessUser(b, {}, Math.min(b.now - USER_HISTORY_MS, plan.created - HOUR), plan.registered);
  prepareUser(b, user, plan);

  const created = at(b, plan.created, (ctx) =>
    business.createApproval(ctx, corporate.corporateUuid, {
      userUuid: user.userUuid,
      budget,
      validFrom: iso(plan.validFrom),
      validTo: iso(plan.validTo),
    }),
  );
  const live = b.ctx.state.approvals[created.approvalUuid]!;
  const bought = purchase(b, live.cardId, budget.currency, plan, spent, held);
  const { changeUuid, successorUuid } = moveToStatus(b, o, corporate.corporateUuid, live.approvalUuid, budget);
  // What came due since the steps above (a FINISHED approval's end, a change request's expiry) runs at its instant.
  settle(b.ctx);
  const view = (uuid: string | undefined) =>
    uuid === undefined ? undefined : approvalView(b.ctx.state, b.ctx.state.approvals[uuid]!);
  const approval = view(changeUuid ?? live.approvalUuid)!;
  return {
    approval,
    user: businessUserView(user),
    card: approval.card,
    corporateUuid: corporate.corporateUuid,
    changed: view(changeUuid === undefined ? undefined : live.approvalUuid),
    successor: view(successorUuid),
    authorizations: bought.map((id) => ({ ...b.ctx.state.authorizations[id]! })),
  } as GivenApproval;
}

/** 400 naming `spent` or `held` when the purchases asked for cannot have been made. */
function checkPurchases(b: BuildContext, status: ApprovalStatus, budget: Money, spent: number, held: number): void {
  if (spent + held > budget.amount)
    bad(b, spent > 0 ? 'spent' : 'held', `spent + held (${spent + held}) exceed the budget (${budget.amount})`);
  if (spent + held > 0 && NEVER_DELIVERED.includes(status))
    bad(b, spent > 0 ? 'spent' : 'held', `A ${status} approval was never DELIVERED: nothing was bought with its card`);
}

/** The last steps, from the live approval to the status asked for: the change request or successor they made. */
function moveToStatus(
  b: BuildContext,
  o: GivenApprovalOptions,
  corporateUuid: string,
  liveUuid: string,
  budget: Money,
): { changeUuid?: string; successorUuid?: string } {
  switch (o.status) {
    case 'CANCELED':
      at(b, b.now, (ctx) => business.cancelApproval(ctx, corporateUuid, liveUuid));
      return {};
    case 'CREATED':
    case 'REJECTED':
    case 'EXPIRED': {
      const change =
        o.additionalBudget === undefined
          ? { pinUpdate: true }
          : { additionalBudget: { amount: o.additionalBudget, currency: budget.currency } };
      const requested = o.status === 'EXPIRED' ? b.now - REAPPROVAL_TTL_MS - HOUR : b.now;
      const changeUuid = at(b, requested, (ctx) =>
        business.requestChange(ctx, corporateUuid, liveUuid, change),
      ).approvalUuid;
      if (o.status === 'REJECTED') at(b, b.now, (ctx) => business.rejectApproval(ctx, corporateUuid, changeUuid));
      return { changeUuid };
    }
    case 'REAPPROVED': {
      const successorUuid = at(b, b.now, (ctx) =>
        business.increaseBudget(ctx, corporateUuid, liveUuid, {
          amount: o.additionalBudget ?? Math.max(1, Math.round(budget.amount / 10)),
          currency: budget.currency,
        }),
      ).approvalUuid;
      return { successorUuid };
    }
    default:
      return {};
  }
}

/** What the plan of one status gets: now, the validity given (parsed), and a check that fails naming the option. */
interface PlanInput {
  b: BuildContext;
  o: GivenApprovalOptions;
  T: number;
  from: number | undefined;
  to: number | undefined;
  must: (ok: boolean, option: 'validFrom' | 'validTo', message: string) => void;
  registeredUser: boolean;
}

/** The instants of the history, from the options and the status; 400 naming the option when they cannot be. */
function planOf(b: BuildContext, o: GivenApprovalOptions, user: BusinessUserRecord | undefined): Plan {
  const given = (name: 'validFrom' | 'validTo') => (o[name] === undefined ? undefined : Date.parse(o[name]!));
  const input: PlanInput = {
    b,
    o,
    T: b.now,
    from: given('validFrom'),
    to: given('validTo'),
    must: (ok, option, message) => {
      if (!ok) bad(b, option, message);
    },
    registeredUser: user?.registrationStatus === 'COMPLETED',
  };
  switch (o.status) {
    case 'ACCEPTED':
      if (input.registeredUser)
        bad(
          b,
          'user',
          `An ACCEPTED approval's user has not completed registration (completing it moves the approval on); ${user!.userUuid} has`,
        );
      return planAccepted(input);
    case 'PREPARED':
    case 'CANCELED':
      return planPreparedOrCanceled(input);
    case 'FINISHED':
      return planFinished(input);
    case 'EXPIRED':
      return planExpired(input);
    default:
      return planDelivered(input);
  }
}

function planAccepted({ T, from, to, must }: PlanInput): Plan {
  const validFrom = from ?? T;
  const validTo = to ?? Math.max(T, validFrom) + 30 * DAY;
  must(validTo > T, 'validTo', 'An ACCEPTED approval has not reached its validTo: it must be after now');
  return { created: T, validFrom, validTo, registered: false, purchases: T };
}

function planPreparedOrCanceled({ o, T, from, to, must, registeredUser }: PlanInput): Plan {
  // CANCELED: from ACCEPTED for a user who has not registered, else from PREPARED.
  const prepared = o.status === 'PREPARED' || registeredUser;
  const validFrom = from ?? (prepared ? T + DAY : T);
  const validTo = to ?? validFrom + 30 * DAY;
  if (prepared)
    must(
      validFrom > T,
      'validFrom',
      `A ${o.status === 'PREPARED' ? 'PREPARED' : 'canceled PREPARED'} approval's card is generated at validFrom: it must be after now`,
    );
  must(validTo > T, 'validTo', 'validTo must be after now');
  return { created: T, validFrom, validTo, registered: prepared, purchases: T };
}

function planFinished({ b, o, T, from, to, must }: PlanInput): Plan {
  const validTo = to ?? T - DAY;
  must(validTo < T, 'validTo', 'A FINISHED approval has passed its validTo: it must be before now');
  const validFrom = from ?? validTo - 30 * DAY;
  must(validFrom < validTo, 'validFrom', 'validFrom must be before validTo');
  // Created at validFrom, DELIVERED at once; the hold (if any) late enough that it has not expired by now.
  const purchases = Math.max(validFrom + MINUTE, T - AUTHORIZATION_TTL_MS + HOUR);
  if ((o.held ?? 0) > 0 && purchases > validTo)
    bad(b, 'held', 'A card hold lasts 7 days: an approval that FINISHED more than 7 days ago carries none');
  return { created: validFrom, validFrom, validTo, registered: true, purchases: Math.min(purchases, validTo) };
}

function planExpired({ T, from, to, must }: PlanInput): Plan {
  // The change request was made 73 hours ago and expired an hour ago; the live approval was DELIVERED before.
  const created = Math.min(T - 4 * DAY, from ?? T - 4 * DAY);
  const validFrom = from ?? created;
  must(
    validFrom <= T - REAPPROVAL_TTL_MS - HOUR,
    'validFrom',
    'The change request expired an hour ago, 72 hours after it was made: validFrom must be before it was made',
  );
  const validTo = to ?? T + 30 * DAY;
  must(validTo > T, 'validTo', 'The approval the change was requested on is still in force: validTo must be after now');
  return { created, validFrom, validTo, registered: true, purchases: created + MINUTE };
}

/** DELIVERED, and the live approval of CREATED, REJECTED and REAPPROVED. */
function planDelivered({ T, from, to, must }: PlanInput): Plan {
  const validFrom = from ?? T;
  must(validFrom <= T, 'validFrom', 'A DELIVERED approval has reached its validFrom: it must not be after now');
  const validTo = to ?? T + 30 * DAY;
  must(validTo > T, 'validTo', 'A DELIVERED approval has not passed its validTo: it must be after now');
  return { created: T, validFrom, validTo, registered: true, purchases: T };
}

/** The given user as the plan needs them: existing by the history's start, registered by then when it must be. */
function prepareUser(b: BuildContext, user: BusinessUserRecord, plan: Plan): void {
  notBefore(b, 'user', plan.created, user.createdAt, `user ${user.userUuid} was created`);
  if (!plan.registered || user.registrationStatus === 'COMPLETED') {
    if (user.registeredAt !== null)
      notBefore(b, 'user', plan.created, user.registeredAt, `user ${user.userUuid} registered`);
    return;
  }
  // Completing the registration moves the user's ACCEPTED approvals on: only for a user who has none.
  const accepted = Object.values(b.ctx.state.approvals).some(
    (a) => a.userUuid === user.userUuid && a.status === 'ACCEPTED',
  );
  if (accepted)
    bad(
      b,
      'user',
      `User ${user.userUuid} has not completed registration and has ACCEPTED approvals, which registering would move on; use a registered user`,
    );
  at(b, plan.created, (ctx) => business.completeRegistration(ctx, user.userUuid));
}

/** The purchases on the card while the live approval is DELIVERED: `spent` captured, `held` left pending. */
function purchase(
  b: BuildContext,
  cardId: string,
  currency: string,
  plan: Plan,
  spent: number,
  held: number,
): string[] {
  const made: string[] = [];
  const buy = (amount: number, capture: boolean, option: string) => {
    const auth = at(b, plan.purchases, (ctx) =>
      authorizations.authorize(ctx, cardId, { amount, currency, merchant: 'Given purchase', capture }),
    );
    if (auth.status !== 'APPROVED') bad(b, option, `The purchase was declined: ${auth.declineReason}`);
    made.push(auth.id);
  };
  if (spent > 0) buy(spent, true, 'spent');
  if (held > 0) buy(held, false, 'held');
  return made;
}

/** A corporate's available balance raised to `available` by a top-up. */
export function givenCorporateBalance(b: BuildContext, o: GivenCorporateBalanceOptions): GivenCorporateBalance {
  const corporate = resolveCorporate(b, o.corporate);
  if (o.available < corporate.available)
    bad(
      b,
      'available',
      `${corporate.name} has ${corporate.available} available; only approvals take from it: ask for at least that`,
    );
  const topUp = o.available === corporate.available ? null : topUpTo(b, corporate, o.available - corporate.available);
  return {
    corporateUuid: corporate.corporateUuid,
    balance: { amount: corporate.available, currency: corporate.currency },
    topUp,
  };
}
