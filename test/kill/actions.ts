/**
 * What the kill rounds do to the server: every kind of change the API and the control API can make, one line each.
 * An action picks what it acts on from the world the rounds have seen so far (ids from earlier answers) and returns
 * its answer, or undefined when there is nothing yet to act on. A new control action (a builder, a scenario, an
 * override) is one more line in {@link ACTIONS}; the rounds compare the whole state whatever the actions are.
 */
import { schemas } from 'card-issuing-sdk/schemas';
import { control, newUser, signedFetch } from '../server/helpers';

/** An answer: status and parsed body. */
// biome-ignore lint/suspicious/noExplicitAny: parsed JSON, as test/server/helpers.ts's control() gives it.
export type Answer = { status: number; body: any };

/** What the rounds have seen: ids to act on (a set only grows; a stale id is a 404, still a request). */
export interface World {
  url: string;
  corporateUuid: string;
  s2sUsers: string[];
  businessUsers: string[];
  registered: string[];
  approvals: { corporateUuid: string; approvalUuid: string; cardId: string }[];
  /** Approvals made live (created, or built ACCEPTED, PREPARED or DELIVERED); the latest are likely live still. */
  live: { corporateUuid: string; approvalUuid: string; cardId: string }[];
  /** Business cards the rounds locked. */
  locked: string[];
  /** Change requests (CREATED reapprovals) the corporation can accept or reject; the latest are likely still CREATED. */
  changeRequests: { corporateUuid: string; approvalUuid: string; cardId: string }[];
  authorizations: string[];
  /** Balances a deposit can arrive at (Server2Server users' and the corporate's). */
  balances: string[];
  /** Ids of the default tenant's faults and overrides (`fault_N`, `override_N`) that were set. */
  faults: string[];
  overrides: string[];
  /** Tenants besides the default one, with their secrets. */
  tenants: { apiKey: string; apiSecret: string }[];
  round: number;
}

const pick = <T>(xs: readonly T[]): T | undefined =>
  xs.length ? xs[Math.floor(Math.random() * xs.length)] : undefined;
const amount = (max: number) => 1 + Math.floor(Math.random() * max);
const day = 86_400_000;

/** Runs `f` on a random element of `xs`, or says there is none yet. */
const on = <T>(xs: readonly T[], f: (x: T) => Promise<Answer>) => {
  const x = pick(xs);
  return x === undefined ? undefined : f(x);
};
const step = (w: World, action: string, body?: object) =>
  on(w.authorizations, (id) => control(w.url, 'POST', `/authorizations/${id}/${action}`, body));
const approvalAction = (w: World, action: string, body?: object, among = w.approvals) =>
  on(among, (a) =>
    control(w.url, 'POST', `/corporates/${a.corporateUuid}/approvals/${a.approvalUuid}/${action}`, body),
  );
const purchase = (w: World, capture: boolean) =>
  on(w.approvals, (a) =>
    control(w.url, 'POST', `/cards/${a.cardId}/authorize`, {
      amount: amount(3_000),
      currency: 'EUR',
      merchant: 'Kill -9 Hotel',
      capture,
    }),
  );
const other = (w: World) => pick(w.tenants);
const given = (w: World, kind: string, body: object) => control(w.url, 'POST', `/given/${kind}`, body);
/** The nine statuses, from the spec: a builder line each. */
const APPROVAL_STATUSES = schemas.zApprovalStatus.options;
/** A builder's approval in `status`, sometimes on a user the rounds made, with purchases where the status has them. */
const givenApproval = (w: World, status: (typeof APPROVAL_STATUSES)[number]) =>
  given(w, 'approval', {
    status,
    budget: 50_000 + amount(50_000),
    ...(Math.random() < 0.15 && pick(w.businessUsers) ? { user: pick(w.businessUsers) } : {}),
    ...(['DELIVERED', 'FINISHED', 'REAPPROVED'].includes(status) ? { spent: amount(5_000), held: amount(3_000) } : {}),
  });

/** Every action, by name: one line each. */
export const ACTIONS: Record<string, (w: World) => Promise<Answer> | undefined> = {
  'api: create a Server2Server user': (w) => signedFetch(w.url, 'POST', '/s2s/users', { body: newUser(`k${w.round}`) }),
  'api: create a business user': (w) =>
    signedFetch(w.url, 'POST', '/corporates/users', {
      body: { name: 'Grace', lastName: 'Hopper', email: `${newUser('g').email}`, phone: '+12025550143' },
    }),
  'api: create an approval': (w) =>
    on(w.registered, async (userUuid) => {
      const now = Date.parse((await control(w.url, 'GET', '/clock')).body.now);
      return signedFetch(w.url, 'POST', `/corporates/corporates/${w.corporateUuid}/approvals`, {
        body: {
          userUuid,
          budget: { amount: 20_000 + amount(30_000), currency: 'EUR' },
          validFrom: new Date(now).toISOString(),
          validTo: new Date(now + 30 * day).toISOString(),
        },
      });
    }),
  'api: read an approval (runs due transitions)': (w) =>
    on(w.approvals, (a) => signedFetch(w.url, 'GET', `/corporates/${a.corporateUuid}/approvals/${a.approvalUuid}`)),
  'api: increase an approval budget (reapproval)': (w) =>
    on(w.approvals, (a) =>
      signedFetch(w.url, 'POST', `/corporates/${a.corporateUuid}/approvals/${a.approvalUuid}/increase-budget`, {
        body: { additionalBudget: { amount: amount(5_000), currency: 'EUR' } },
      }),
    ),
  'control: complete a business user registration': (w) =>
    on(w.businessUsers, (id) => control(w.url, 'POST', `/users/${id}/complete-registration`)),
  'control: accept an approval': (w) =>
    approvalAction(w, 'accept', undefined, Math.random() < 0.7 ? w.changeRequests.slice(-3) : w.approvals),
  'control: cancel an approval': (w) =>
    Math.random() < 0.5
      ? approvalAction(w, 'cancel', undefined, Math.random() < 0.8 ? w.live.slice(-5) : w.approvals)
      : undefined,
  'control: reject an approval': (w) =>
    Math.random() < 0.3
      ? approvalAction(w, 'reject', undefined, Math.random() < 0.8 ? w.changeRequests.slice(-3) : w.approvals)
      : undefined,
  'control: request an approval change': (w) =>
    approvalAction(w, 'request-change', { additionalBudget: { amount: amount(2_000), currency: 'EUR' } }),
  'control: lock a card': (w) =>
    on(w.approvals, async (a) => {
      const answer = await control(w.url, 'POST', `/cards/${a.cardId}/lock`);
      if (answer.status === 200) w.locked.push(a.cardId);
      return answer;
    }),
  'control: unlock a card': (w) =>
    on(Math.random() < 0.8 ? w.locked : w.approvals.map((a) => a.cardId), (cardId) =>
      control(w.url, 'POST', `/cards/${cardId}/unlock`),
    ),
  'control: purchase, captured at once': (w) => purchase(w, true),
  'control: purchase, a hold': (w) => purchase(w, false),
  'control: capture the whole hold': (w) => step(w, 'capture'),
  'control: capture an amount': (w) => step(w, 'capture', { amount: amount(3_500) }),
  'control: increment a hold': (w) => step(w, 'increment', { amount: amount(1_000) }),
  'control: reverse the whole hold': (w) => step(w, 'reverse'),
  'control: reverse part of a hold': (w) => step(w, 'reverse', { amount: amount(500) }),
  'control: refund all that is left': (w) => step(w, 'refund'),
  'control: refund an amount': (w) => step(w, 'refund', { amount: amount(1_000) }),
  'control: a capture the network forces (far above the hold)': (w) =>
    step(w, 'capture', { amount: 60_000 + amount(9e4) }),
  'control: a merchant credit without a purchase': (w) =>
    on(w.approvals, (a) =>
      control(w.url, 'POST', `/cards/${a.cardId}/refund`, {
        amount: amount(2_000),
        currency: 'EUR',
        merchant: 'Refunds',
      }),
    ),
  ...Object.fromEntries(
    APPROVAL_STATUSES.map((status) => [`control: given an approval ${status}`, (w: World) => givenApproval(w, status)]),
  ),
  'control: given a business user': (w) => given(w, 'businessUser', { registered: Math.random() < 0.7 }),
  'control: given a Server2Server user (KYC, e-mail, balance)': (w) =>
    given(w, 'user', {
      emailVerified: Math.random() < 0.5,
      kyc: pick(['NOT_STARTED', 'PASSED', 'FAILED']),
      balance: Math.random() < 0.5 ? 0 : 10_000 + amount(90_000),
    }),
  'control: given a card (virtual, physical, locked, a draft)': (w) =>
    given(
      w,
      'card',
      pick([
        { type: 'VIRTUAL' },
        { type: 'PHYSICAL', status: 'ORDERED' },
        { type: 'PHYSICAL', status: 'ACTIVE' },
        { status: 'LOCKED', ...(pick(w.s2sUsers) ? { user: pick(w.s2sUsers) } : {}) },
        { draft: pick(['CREATED', 'CHARGED']) },
      ])!,
    ),
  'control: given a balance': (w) =>
    given(w, 'balance', { amount: 10_000 + amount(90_000), ...(pick(w.s2sUsers) ? { user: pick(w.s2sUsers) } : {}) }),
  'control: given a deposit address': (w) => given(w, 'depositAddress', {}),
  'control: given a verification': (w) => given(w, 'verification', { status: pick(['PENDING_APPROVAL', 'CREDITED']) }),
  'control: given a corporate balance': (w) =>
    control(w.url, 'GET', '/fixtures').then((f) =>
      given(w, 'corporateBalance', { available: f.body.corporates[0].balance.amount + amount(1_000_000) }),
    ),
  'control: load a scenario': (w) =>
    control(w.url, 'POST', '/scenario', {
      description: `kill round ${w.round}`,
      given: [
        { kind: 'businessUser', as: 'grace', registered: true },
        { kind: 'approval', status: 'DELIVERED', user: 'grace', spent: amount(2_000) },
        { kind: 'approval', status: 'EXPIRED', user: 'grace' },
        { kind: 'user', as: 'ada', kyc: 'PASSED', balance: 50_000 },
        { kind: 'card', user: 'ada', type: 'PHYSICAL', status: 'ORDERED' },
        { kind: 'verification', user: 'ada' },
      ],
    }),
  'control: an incoming deposit': (w) =>
    on(w.balances, (balanceId) =>
      control(w.url, 'POST', '/deposits/incoming', {
        balanceId,
        type: 'USDC',
        amount: `${amount(500)}`,
        requiresVerification: Math.random() < 0.5,
      }),
    ),
  'control: KYC of a user': (w) =>
    on(w.s2sUsers, (id) => control(w.url, 'POST', `/kyc/${id}`, { status: Math.random() < 0.8 ? 'PASSED' : 'FAILED' })),
  'control: advance the clock': (w) => control(w.url, 'POST', '/clock/advance', { seconds: amount(2 * 86_400) }),
  'control: inject a fault': (w) =>
    control(w.url, 'POST', '/faults', { method: 'GET', path: `/s2s/users/${pick(w.s2sUsers) ?? '*'}`, status: 503 }),
  'control: inject a fault by operationId (code, detail, Retry-After, times)': (w) =>
    control(w.url, 'POST', '/faults', {
      operationId: pick(['getApproval', 'getUser', 'listCards']),
      ...pick([{ status: 503 }, { code: 'RATE_LIMITED' }, { status: 500, code: 'INTERNAL_ERROR' }]),
      detail: `injected in round ${w.round}`,
      retryAfter: amount(30),
      times: amount(3),
      delayMs: Math.random() < 0.5 ? 0 : amount(5),
    }),
  'control: remove a fault': (w) => on(w.faults, (id) => control(w.url, 'DELETE', `/faults/${id}`)),
  'control: clear the faults': (w) => (Math.random() < 0.1 ? control(w.url, 'DELETE', '/faults') : undefined),
  'control: override an operation with an error (times)': (w) =>
    control(w.url, 'POST', '/overrides', {
      operationId: pick(['getApproval', 'listUserApprovals', 'listBalances']),
      status: pick([429, 503, 404]),
      body: { detail: `overridden in round ${w.round}` },
      headers: { 'retry-after': `${amount(9)}` },
      times: amount(3),
    }),
  'control: override an operation with a success body (until removed)': (w) =>
    control(w.url, 'POST', '/overrides', {
      operationId: 'listUserApprovals',
      status: 200,
      body: { items: [], hasMore: false, nextCursor: null },
      headers: { 'x-kill-round': `${w.round}` },
    }),
  'control: override with an unchecked body': (w) =>
    control(w.url, 'POST', '/overrides', {
      operationId: 'listCards',
      status: 200,
      body: { nonsense: w.round },
      unchecked: true,
      times: 1,
      delayMs: amount(3),
    }),
  'control: remove an override': (w) => on(w.overrides, (id) => control(w.url, 'DELETE', `/overrides/${id}`)),
  'control: clear the overrides': (w) => (Math.random() < 0.1 ? control(w.url, 'DELETE', '/overrides') : undefined),
  'control: add credentials (a tenant)': (w) => {
    const tenant = { apiKey: `kill_${w.round}_${amount(1e9)}`, apiSecret: `secret_${amount(1e9)}` };
    w.tenants.push(tenant);
    return control(w.url, 'POST', '/credentials', tenant);
  },
  'control: restore a tenant from its snapshot': (w) => {
    const t = other(w);
    if (!t) return undefined;
    return control(w.url, 'GET', '/state', undefined, t).then((got) => control(w.url, 'PUT', '/state', got.body, t));
  },
  'control: reset a tenant': (w) => {
    const t = other(w);
    return t && Math.random() < 0.2 ? control(w.url, 'POST', '/reset', undefined, t) : undefined;
  },
  "api: another tenant's user": (w) => {
    const t = other(w);
    return t && signedFetch(w.url, 'POST', '/s2s/users', { body: newUser('t'), credentials: t });
  },
};

/** Files the ids an acknowledged answer names, so later actions act on them. */
export function learn(w: World, name: string, answer: Answer): void {
  if (answer.status >= 300 || typeof answer.body !== 'object' || answer.body === null) return;
  const b = answer.body;
  if (name === 'api: create a Server2Server user') w.s2sUsers.push(b.id);
  if (name === 'api: create a business user') w.businessUsers.push(b.userUuid);
  if (name === 'control: complete a business user registration') w.registered.push(b.userUuid);
  if (name === 'api: create an approval' || name === 'api: increase an approval budget (reapproval)')
    w.approvals.push({ corporateUuid: b.corporateUuid, approvalUuid: b.approvalUuid, cardId: b.card?.id ?? b.cardId });
  if (name.startsWith('control: purchase')) w.authorizations.push(b.id);
  if (name === 'api: create an approval') w.live.push(w.approvals[w.approvals.length - 1]!);
  if (/given an approval (ACCEPTED|PREPARED|DELIVERED)$/.test(name))
    w.live.push({ corporateUuid: b.corporateUuid, approvalUuid: b.approval.approvalUuid, cardId: b.card?.id });
  if (name === 'control: request an approval change' || name === 'control: given an approval CREATED') {
    const a = b.approval ?? b;
    w.changeRequests.push({ corporateUuid: a.corporateUuid, approvalUuid: a.approvalUuid, cardId: a.card?.id });
  }
  if (name.startsWith('control: inject a fault')) w.faults.push(b.id);
  if (name.startsWith('control: override')) w.overrides.push(b.id);
  for (const made of name === 'control: load a scenario'
    ? (b.results ?? [])
    : name.startsWith('control: given')
      ? [b]
      : [])
    learnGiven(w, made);
}

/** Files what a builder made: its approvals (and their purchases), users, and balances. */
// biome-ignore lint/suspicious/noExplicitAny: a builder's answer as JSON.
function learnGiven(w: World, made: any): void {
  if (made.approval)
    for (const a of [made.approval, made.changed, made.successor].filter(Boolean))
      w.approvals.push({ corporateUuid: made.corporateUuid, approvalUuid: a.approvalUuid, cardId: made.card?.id });
  for (const auth of made.authorizations ?? []) w.authorizations.push(auth.id);
  if (made.user?.userUuid)
    (made.user.registrationStatus === 'COMPLETED' ? w.registered : w.businessUsers).push(made.user.userUuid);
  else if (made.user?.id) w.s2sUsers.push(made.user.id);
  if (made.balance?.id) w.balances.push(made.balance.id);
}
