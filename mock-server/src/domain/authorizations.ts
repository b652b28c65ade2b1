/**
 * Card transactions (control API), as card sandboxes simulate them: the card network asks to authorize a purchase;
 * the answer is APPROVED (a hold, PENDING) or DECLINED with one reason, checked in this order:
 *
 * Business card (its approval instance in force):
 * 1. `APPROVAL_NOT_DELIVERED` the approval is not DELIVERED (not yet, or no longer: the card is then CLOSED);
 * 2. `CARD_LOCKED` the card is LOCKED; `CARD_NOT_ACTIVE` any other status but ACTIVE;
 * 3. `CURRENCY_MISMATCH` the purchase is not in the budget's currency;
 * 4. `BUDGET_EXCEEDED` the amount is above the approval's remaining budget (budget − spent − held).
 *
 * Server2Server card:
 * 1. `CARD_LOCKED` the card is LOCKED; `CARD_NOT_ACTIVE` any other status but ACTIVE;
 * 2. `CURRENCY_MISMATCH` the user has no balance in the purchase's currency;
 * 3. `INSUFFICIENT_FUNDS` the balance does not cover the amount.
 *
 * Then, by the table of `machines/authorization.ts`: `increment` (checked as a purchase; declined, the hold stays),
 * `capture` (once, up to the hold + 15 %), `reverse` (whole or part), expiry 7 days after it was made, `refund` (whole
 * or part, of what was captured). Where the money sits at each step: `holds.ts`. `authorize` captures at once unless
 * the purchase says `capture: false`: a single-message purchase, as the control API always made them.
 * @module
 */
import type { Money } from 'card-issuing-sdk';
import {
  AUTHORIZATION_TTL_MS,
  CAPTURE_TOLERANCE_PERCENT,
  authorizationMachine,
  captureLimit,
  findTransition,
  initialStatus,
  transition,
  type AuthorizationFacts,
  type AuthorizationTrigger,
} from '../machines';
import type {
  AuthorizationRecord,
  AuthorizationState,
  AuthorizationStepKind,
  CardRecord,
  DeclineReason,
  ForcedReason,
} from '../store';
import { iso } from '../clock';
import { emit, nowIso, type DomainContext } from './context';
import { AUTHORIZATION_STEP_EVENTS } from './events';
import { notFound, unprocessable } from './errors';
import { authorizationKey } from './due';
import * as holds from './holds';
import { balancesOf, findCard, indexOf } from './lookups';

export { DECLINE_REASONS } from '../store';

/** A purchase to authorize. */
export interface Purchase {
  /** Minor units, at least 1. */
  amount: number;
  /** ISO 4217. */
  currency: string;
  /** The merchant's name, as the card network gives it. */
  merchant: string;
  /**
   * False: the purchase stays a hold (PENDING) until it is captured, reversed or expires. Default true: approved and
   * captured at once (CLEARED), a single-message purchase.
   */
  capture?: boolean;
}

/** Which authorizations `mock.authorizations.list` gives. Every given field must match. */
export interface AuthorizationFilter {
  cardId?: string;
  /** Made under this approval instance. */
  approvalUuid?: string;
  /** The network's answer (`APPROVED`, `DECLINED`) or the state now (`PENDING`, `CLEARED`, ...). */
  status?: AuthorizationState | 'APPROVED';
}

/** Decides a purchase on a card (404 for an unknown card); records and returns the authorization, approved or declined. */
export function authorize(ctx: DomainContext, cardId: string, purchase: Purchase): AuthorizationRecord {
  const card = findCard(ctx, cardId);
  const amount: Money = { amount: purchase.amount, currency: purchase.currency };
  const decided = card.corporateUuid === null ? s2sDecision(ctx, card, amount) : businessDecision(ctx, card, amount);
  const approved = decided.declineReason === null;
  const now = nowIso(ctx);
  const auth: AuthorizationRecord = {
    id: ctx.rng.uuid(),
    cardId: card.id,
    approvalUuid: card.approvalUuid,
    balanceId: decided.balanceId,
    amount,
    merchant: purchase.merchant,
    status: approved ? 'APPROVED' : 'DECLINED',
    declineReason: decided.declineReason,
    state: initialStatus(authorizationMachine, 'authorize', facts({ approved, amount: purchase.amount })),
    authorized: approved ? purchase.amount : 0,
    held: approved ? purchase.amount : 0,
    captured: 0,
    refunded: 0,
    expiresAt: approved ? iso(ctx.now + AUTHORIZATION_TTL_MS) : null,
    steps: [{ kind: 'authorize', amount: purchase.amount, declineReason: decided.declineReason, at: now }],
    createdAt: now,
    updatedAt: now,
  };
  if (approved) holds.hold(ctx, auth, purchase.amount);
  ctx.state.authorizations[auth.id] = auth;
  emit(ctx, {
    type: approved ? 'authorization.approved' : 'authorization.declined',
    at: now,
    authorizationId: auth.id,
    cardId: auth.cardId,
    approvalUuid: auth.approvalUuid,
    amount: { ...auth.amount },
    merchant: auth.merchant,
    reason: auth.declineReason,
  });
  if (approved && purchase.capture !== false) return capture(ctx, auth.id);
  return copy(auth);
}

/** Raises a PENDING hold (an incremental authorization): approved as a purchase would be, or declined with a reason (the hold stays). */
export function increment(ctx: DomainContext, id: string, amount: number): AuthorizationRecord {
  const auth = findAuthorization(ctx, id);
  rowFor(auth, 'increment', amount, 'incrementAuthorization');
  const card = holds.cardOf(ctx, auth);
  const money = { amount, currency: auth.amount.currency };
  const decided =
    auth.approvalUuid === null
      ? s2sDecision(ctx, card, money)
      : businessDecision(ctx, card, money, holds.carrierOf(ctx, auth));
  if (decided.declineReason === null) {
    holds.hold(ctx, auth, amount);
    auth.held += amount;
    auth.authorized += amount;
  }
  return step(ctx, auth, 'increment', amount, auth.state, decided.declineReason);
}

/**
 * Captures a hold (clearing), once: for `amount` (default the hold; after a reversal or an expiry, what was
 * authorized). What is not captured of the hold is released. A capture the card network would force on the issuer
 * (above the hold + {@link CAPTURE_TOLERANCE_PERCENT} %, above the remaining budget or balance, of a REVERSED or EXPIRED
 * authorization) is accepted as a `forcedCapture` step and moves the money (`holds.capture`): the approval may be
 * overspent. With `strictCaptures` those are refused as before: 422 AMOUNT_EXCEEDS_AUTHORIZATION above the tolerance,
 * 422 INSUFFICIENT_FUNDS above what remains, 409 AUTHORIZATION_NOT_PENDING after a reversal or an expiry.
 */
export function capture(ctx: DomainContext, id: string, amount?: number): AuthorizationRecord {
  const auth = findAuthorization(ctx, id);
  const captured = amount ?? (auth.state === 'PENDING' ? auth.held : auth.authorized);
  const forced = ctx.strictCaptures ? undefined : forcedReason(ctx, auth, captured);
  if (forced) {
    const held = auth.state === 'PENDING' ? auth.held : 0;
    const row = findTransition(authorizationMachine, auth.state, 'forcedCapture', facts({ amount: captured, held }));
    if (row && row.to !== 'unchanged') {
      holds.capture(ctx, auth, held, captured);
      auth.held = 0;
      auth.captured = captured;
      return step(ctx, auth, 'forcedCapture', captured, row.to, null, undefined, forced);
    }
  }
  const row = rowFor(
    auth,
    'capture',
    captured,
    'captureAuthorization',
    () =>
      `A capture of ${captured} exceeds the hold of ${auth.held} plus ${CAPTURE_TOLERANCE_PERCENT} % (at most ${captureLimit(auth.held)}).`,
  );
  const excess = captured - auth.held;
  if (excess > 0 && excess > holds.headroom(ctx, auth)) {
    throw unprocessable(
      'INSUFFICIENT_FUNDS',
      `The ${excess} captured above the hold exceed what remains (${holds.headroom(ctx, auth)}).`,
    );
  }
  holds.capture(ctx, auth, auth.held, captured);
  auth.held = 0;
  auth.captured = captured;
  return step(ctx, auth, 'capture', captured, row);
}

/** Why the network would force this capture on the issuer, or undefined for an ordinary one (or one it cannot force). */
function forcedReason(ctx: DomainContext, auth: AuthorizationRecord, amount: number): ForcedReason | undefined {
  if (auth.state === 'REVERSED') return 'AFTER_REVERSAL';
  if (auth.state === 'EXPIRED') return 'AFTER_EXPIRY';
  if (auth.state !== 'PENDING') return undefined;
  if (amount > captureLimit(auth.held)) return 'ABOVE_TOLERANCE';
  if (amount - auth.held > holds.headroom(ctx, auth)) return 'ABOVE_REMAINING';
  return undefined;
}

/**
 * A merchant's credit to a card without a purchase on it (Stripe's unlinked refund): recorded as an authorization
 * REFUNDED by one `credit` step; the money goes to the corporate's balance (business card) or the user's balance in
 * that currency (Server2Server card). 404 for an unknown card; 422 CURRENCY_MISMATCH for another currency.
 */
export function credit(ctx: DomainContext, cardId: string, given: Omit<Purchase, 'capture'>): AuthorizationRecord {
  const card = findCard(ctx, cardId);
  const currency =
    card.corporateUuid === null
      ? balancesOf(ctx, card.userId).find((b) => b.currency === given.currency)?.currency
      : ctx.state.corporates[card.corporateUuid]?.currency;
  if (currency !== given.currency) {
    throw unprocessable('CURRENCY_MISMATCH', `The card cannot be credited in ${given.currency}.`);
  }
  const now = nowIso(ctx);
  const balanceId =
    card.corporateUuid === null
      ? (balancesOf(ctx, card.userId).find((b) => b.currency === given.currency)?.id ?? null)
      : null;
  const auth: AuthorizationRecord = {
    id: ctx.rng.uuid(),
    cardId: card.id,
    approvalUuid: card.approvalUuid,
    balanceId,
    amount: { amount: given.amount, currency: given.currency },
    merchant: given.merchant,
    status: 'APPROVED',
    declineReason: null,
    state: initialStatus(authorizationMachine, 'credit', facts({ amount: given.amount })),
    authorized: 0,
    held: 0,
    captured: 0,
    refunded: given.amount,
    expiresAt: null,
    steps: [{ kind: 'credit', amount: given.amount, declineReason: null, at: now }],
    createdAt: now,
    updatedAt: now,
  };
  holds.merchantCredit(ctx, auth, given.amount);
  ctx.state.authorizations[auth.id] = auth;
  emit(ctx, {
    type: AUTHORIZATION_STEP_EVENTS.credit,
    at: now,
    authorizationId: auth.id,
    cardId: auth.cardId,
    approvalUuid: auth.approvalUuid,
    merchant: auth.merchant,
    amount: { amount: given.amount, currency: given.currency },
    from: auth.state,
    to: auth.state,
    reason: null,
    held: auth.held,
    captured: auth.captured,
    refunded: auth.refunded,
  });
  return copy(auth);
}

/** Releases a PENDING hold, whole (default: REVERSED) or in part (still PENDING); 422 AMOUNT_EXCEEDS_AUTHORIZATION above the hold. */
export function reverse(ctx: DomainContext, id: string, amount?: number): AuthorizationRecord {
  const auth = findAuthorization(ctx, id);
  const released = amount ?? auth.held;
  const row = rowFor(
    auth,
    'reverse',
    released,
    'reverseAuthorization',
    () => `A reversal of ${released} exceeds the hold of ${auth.held}.`,
  );
  holds.release(ctx, auth, released);
  auth.held -= released;
  return step(ctx, auth, 'reverse', released, row);
}

/** Refunds a CLEARED capture, whole (default: REFUNDED) or in part; 422 AMOUNT_EXCEEDS_AUTHORIZATION above what is left to refund. */
export function refund(ctx: DomainContext, id: string, amount?: number): AuthorizationRecord {
  const auth = findAuthorization(ctx, id);
  const refundable = auth.captured - auth.refunded;
  const refunded = amount ?? refundable;
  const row = rowFor(
    auth,
    'refund',
    refunded,
    'refundAuthorization',
    () => `A refund of ${refunded} exceeds what is left to refund (${refundable}).`,
  );
  holds.refund(ctx, auth, refunded);
  auth.refunded += refunded;
  return step(ctx, auth, 'refund', refunded, row);
}

/** A PENDING hold whose time has come expires (time-driven: `settle`); returns 1 when it did. */
export function expireIfDue(ctx: DomainContext, id: string): number {
  const auth = ctx.state.authorizations[id];
  if (auth?.state !== 'PENDING' || auth.expiresAt === null) return 0;
  const at = Date.parse(auth.expiresAt);
  if (at > ctx.now) return 0;
  const row = findTransition(
    authorizationMachine,
    auth.state,
    'time',
    facts({ amount: auth.held, held: auth.held, expiresAt: at }),
  );
  if (!row || row.to === 'unchanged') return 0;
  const released = auth.held;
  holds.release(ctx, auth, released);
  auth.held = 0;
  step(ctx, auth, 'expire', released, row.to, null, iso(at));
  return 1;
}

/** The authorizations that match, oldest first. */
export function listAuthorizations(ctx: DomainContext, filter: AuthorizationFilter = {}): AuthorizationRecord[] {
  const index = indexOf(ctx.state);
  let cardId = filter.cardId;
  if (filter.approvalUuid !== undefined) {
    const approval = ctx.state.approvals[filter.approvalUuid];
    if (!approval || (cardId !== undefined && cardId !== approval.cardId)) return [];
    cardId = approval.cardId;
  }
  const candidates =
    cardId === undefined ? Object.values(ctx.state.authorizations) : index.authorizationsByCard.get(cardId);
  return candidates
    .filter(
      (a) =>
        (filter.approvalUuid === undefined || a.approvalUuid === filter.approvalUuid) &&
        (filter.status === undefined || a.state === filter.status || a.status === filter.status),
    )
    .map(copy);
}

/** An authorization of this tenant (404 NOT_FOUND). */
export function findAuthorization(ctx: DomainContext, id: string): AuthorizationRecord {
  return ctx.state.authorizations[id] ?? fail(notFound('authorization', id));
}

interface Decision {
  declineReason: DeclineReason | null;
  balanceId: string | null;
}

/** Why the card itself declines a purchase (LOCKED, or not ACTIVE), or undefined when it may buy. */
function cardDeclineReason(card: CardRecord): DeclineReason | undefined {
  if (card.status === 'LOCKED') return 'CARD_LOCKED';
  if (card.status !== 'ACTIVE') return 'CARD_NOT_ACTIVE';
  return undefined;
}

function businessDecision(
  ctx: DomainContext,
  card: CardRecord,
  amount: Money,
  carrier = card.approvalUuid === null ? undefined : ctx.state.approvals[card.approvalUuid],
): Decision {
  const decline = (declineReason: DeclineReason | null): Decision => ({ declineReason, balanceId: null });
  if (carrier?.status !== 'DELIVERED') return decline('APPROVAL_NOT_DELIVERED');
  const byCard = cardDeclineReason(card);
  if (byCard) return decline(byCard);
  if (amount.currency !== carrier.budget.currency) return decline('CURRENCY_MISMATCH');
  if (amount.amount > holds.remainingOf(carrier)) return decline('BUDGET_EXCEEDED');
  return decline(null);
}

function s2sDecision(ctx: DomainContext, card: CardRecord, amount: Money): Decision {
  const balance = balancesOf(ctx, card.userId).find((b) => b.currency === amount.currency);
  const decline = (declineReason: DeclineReason | null): Decision => ({
    declineReason,
    balanceId: balance?.id ?? null,
  });
  const byCard = cardDeclineReason(card);
  if (byCard) return decline(byCard);
  if (!balance) return decline('CURRENCY_MISMATCH');
  if (amount.amount > balance.available) return decline('INSUFFICIENT_FUNDS');
  return decline(null);
}

function facts(f: Partial<AuthorizationFacts> & { amount: number }): AuthorizationFacts {
  return { held: 0, refundable: 0, approved: true, expiresAt: null, ...f };
}

/**
 * The table's row for a step of `amount`: 409 (the refusal's code, naming the state) when the state has no row for the
 * trigger, 422 AMOUNT_EXCEEDS_AUTHORIZATION when it has rows but none for this amount.
 */
function rowFor(
  auth: AuthorizationRecord,
  trigger: AuthorizationTrigger,
  amount: number,
  operation: string,
  tooMuch?: () => string,
): AuthorizationState {
  const f = facts({ amount, held: auth.held, refundable: auth.captured - auth.refunded });
  const row = findTransition(authorizationMachine, auth.state, trigger, f);
  if (row) return row.to === 'unchanged' ? auth.state : row.to;
  if (!authorizationMachine.rows.some((r) => r.trigger === trigger && r.from?.includes(auth.state))) {
    transition(authorizationMachine, auth.state, trigger, { operation, ctx: f });
  }
  throw unprocessable(
    'AMOUNT_EXCEEDS_AUTHORIZATION',
    tooMuch?.() ?? `${amount} is more than the authorization allows.`,
  );
}

/** Records a step, enters `to`, tells the observer; returns a copy. */
function step(
  ctx: DomainContext,
  auth: AuthorizationRecord,
  kind: Exclude<AuthorizationStepKind, 'authorize'>,
  amount: number,
  to: AuthorizationState,
  declineReason: DeclineReason | null = null,
  at = nowIso(ctx),
  forced?: ForcedReason,
): AuthorizationRecord {
  const from = auth.state;
  auth.state = to;
  if (to !== 'PENDING') {
    auth.expiresAt = null;
    indexOf(ctx.state).due.cancel(authorizationKey(auth.id));
  }
  auth.updatedAt = at;
  auth.steps.push({ kind, ...(forced ? { forced } : {}), amount, declineReason, at });
  emit(ctx, {
    type:
      kind === 'increment' && declineReason !== null
        ? 'authorization.incrementDeclined'
        : AUTHORIZATION_STEP_EVENTS[kind],
    at,
    authorizationId: auth.id,
    cardId: auth.cardId,
    approvalUuid: auth.approvalUuid,
    merchant: auth.merchant,
    amount: { amount, currency: auth.amount.currency },
    from,
    to,
    reason: declineReason,
    ...(forced ? { forced } : {}),
    held: auth.held,
    captured: auth.captured,
    refunded: auth.refunded,
  });
  return copy(auth);
}

/** A copy that shares nothing with the store. */
function copy(auth: AuthorizationRecord): AuthorizationRecord {
  return { ...auth, amount: { ...auth.amount }, steps: auth.steps.map((s) => ({ ...s })) };
}

function fail(error: Error): never {
  throw error;
}
