/**
 * The lifecycle the document implies, driven over HTTP and the control API: change requests accepted (and at most
 * one pending, ended when their approval ends), approvals never delivered EXPIRED at validTo, cards generated when
 * DELIVERED, purchases approved or declined with spent and remaining budgets, and every status change observed
 * exactly once.
 */
import { describe, expect, it } from 'vitest';
import {
  chargeDraft,
  completeDraft,
  createCard,
  getApproval,
  getApprovalCardDetails,
  increaseApprovalBudget,
  listCards,
  listUserApprovals,
} from '../../sdk/generated/sdk.gen';
import type { Approval, Card, Draft } from '../../sdk/generated/types.gen';
import { exportPublicKey, generateCardKeyPair } from '../../sdk/src/card-details/keys';
import { business, contextOf, settle, type DomainEvent } from '../../mock-server/src/domain';
import { fund, makeApproval, makeBusinessUser, makeDeliveredApproval, makeS2sCard, makeUser } from './flows';
import { DAY, T0, expectError, expectProblem, mockHarness, ok, refused, send } from './helpers';

const h = mockHarness();
const corporate = () => h.mock.fixtures().corporates[0]!;
const fetchApproval = async (a: Approval) =>
  ok(await getApproval({ client: h.client, path: { corporateUuid: a.corporateUuid, approvalUuid: a.approvalUuid } }));
const increase = (a: Approval, amount: number) =>
  increaseApprovalBudget({
    client: h.client,
    path: { corporateUuid: a.corporateUuid, approvalUuid: a.approvalUuid },
    body: { additionalBudget: { amount, currency: 'EUR' } },
  });
const approvalAction = (a: Approval, action: string, body?: object) =>
  send('POST', `/__mock/corporates/${a.corporateUuid}/approvals/${a.approvalUuid}/${action}`, {
    sign: false,
    ...(body ? { body } : {}),
  });

/** funded = available + reserved + spent for every corporate, nothing below zero; returns the first corporate's figures. */
function ledger() {
  for (const c of h.mock.fixtures().corporates) {
    expect(c.balance.amount).toBeGreaterThanOrEqual(0);
    expect(
      c.balance.amount + c.reserved.amount + c.spent.amount,
      `${c.name}: funded = available + reserved + spent`,
    ).toBe(c.funded.amount);
  }
  const c = corporate();
  return { available: c.balance.amount, reserved: c.reserved.amount, spent: c.spent.amount };
}

/** A DELIVERED approval of `budget` for a registered user. */
const delivered = (budget = 50_000, toDays = 10) => makeDeliveredApproval(h.client, h.mock, { budget, toDays });

describe('change requests: accepted, one at a time, ended with their approval', () => {
  it('accepting a change of a DELIVERED approval: it takes over status, card, reservation and spending; the old one is REAPPROVED', async () => {
    const live = await delivered(50_000);
    expect(h.mock.cards.authorize(live.card.id, { amount: 12_000, currency: 'EUR', merchant: 'Cafe' }).status).toBe(
      'APPROVED',
    );
    const before = ledger();
    const change = h.mock.approvals.requestChange(live.corporateUuid, live.approvalUuid, {
      additionalBudget: { amount: 20_000, currency: 'EUR' },
      pinUpdate: true,
    });
    expect(change).toMatchObject({
      status: 'CREATED',
      remaining: { amount: 0 },
      change: { additionalBudget: { amount: 20_000 }, pinUpdate: true },
    });
    expect(ledger(), 'a change request reserves nothing').toEqual(before);

    const response = await approvalAction(change, 'accept');
    expect(response.status).toBe(200);
    const accepted = (await response.json()) as Approval;
    expect(accepted).toMatchObject({
      approvalUuid: change.approvalUuid,
      status: 'DELIVERED',
      statusReason: null,
      expiresAt: null,
      previousApprovalUuid: live.approvalUuid,
      budget: { amount: 70_000 },
      spent: { amount: 12_000 },
      remaining: { amount: 58_000 },
      card: { id: live.card.id, status: 'ACTIVE', last4: live.card.last4, generatedAt: live.card.generatedAt },
      change: { pinUpdate: true },
    });
    expect(await fetchApproval(live)).toMatchObject({
      status: 'REAPPROVED',
      statusReason: 'REPLACED',
      replacedByApprovalUuid: change.approvalUuid,
      remaining: { amount: 0 },
      spent: { amount: 12_000 },
    });
    expect(ledger(), 'only the added budget is reserved on acceptance').toEqual({
      ...before,
      available: before.available - 20_000,
      reserved: before.reserved + 20_000,
    });
    // The card now spends from the accepted instance.
    expect(h.mock.cards.authorize(live.card.id, { amount: 58_000, currency: 'EUR', merchant: 'Shop' })).toMatchObject({
      status: 'APPROVED',
      approvalUuid: change.approvalUuid,
    });
  });

  it('accepting a change of an ACCEPTED approval keeps it ACCEPTED; it then moves on at registration like any approval', async () => {
    const user = await makeBusinessUser(h.client, h.mock);
    const live = await makeApproval(h.client, h.mock, user.userUuid, { budget: 30_000 });
    const change = h.mock.approvals.requestChange(live.corporateUuid, live.approvalUuid);
    expect(h.mock.approvals.accept(change.corporateUuid, change.approvalUuid)).toMatchObject({
      status: 'ACCEPTED',
      budget: { amount: 30_000 },
      remaining: { amount: 30_000 },
    });
    h.mock.users.completeRegistration(user.userUuid);
    expect(await fetchApproval(change)).toMatchObject({
      status: 'DELIVERED',
      card: { id: live.card.id, status: 'ACTIVE' },
    });
    ledger();
  });

  it('refuses: a second pending change (409 CHANGE_ALREADY_PENDING), accepting what is not CREATED, accepting while the approval is PREPARED', async () => {
    const live = await delivered();
    const change = h.mock.approvals.requestChange(live.corporateUuid, live.approvalUuid);
    const second = refused(
      () => h.mock.approvals.requestChange(live.corporateUuid, live.approvalUuid),
      409,
      'CHANGE_ALREADY_PENDING',
    );
    expect(second.detail).toContain(change.approvalUuid);
    await expectProblem(await approvalAction(live, 'request-change'), 409, 'CHANGE_ALREADY_PENDING');
    const notCreated = refused(
      () => h.mock.approvals.accept(live.corporateUuid, live.approvalUuid),
      409,
      'INVALID_TRANSITION',
    );
    expect(notCreated.extras).toMatchObject({ currentStatus: 'DELIVERED', operation: 'acceptApprovalChange' });
    expect(notCreated.detail).toBe('acceptApprovalChange is not allowed while the approval is DELIVERED.');
    h.mock.approvals.reject(change.corporateUuid, change.approvalUuid);
    const rejected = await expectProblem(await approvalAction(change, 'accept'), 409, 'INVALID_TRANSITION');
    expect(rejected).toMatchObject({ currentStatus: 'REJECTED', operation: 'acceptApprovalChange' });
    // Once rejected, another change may be asked for.
    expect(h.mock.approvals.requestChange(live.corporateUuid, live.approvalUuid).status).toBe('CREATED');

    const user = await makeBusinessUser(h.client, h.mock);
    const later = await makeApproval(h.client, h.mock, user.userUuid, { fromDays: 2, toDays: 10 });
    const pending = h.mock.approvals.requestChange(later.corporateUuid, later.approvalUuid);
    h.mock.users.completeRegistration(user.userUuid);
    expect((await fetchApproval(later)).status).toBe('PREPARED');
    const prepared = refused(
      () => h.mock.approvals.accept(pending.corporateUuid, pending.approvalUuid),
      409,
      'INVALID_TRANSITION',
    );
    expect(prepared.extras).toMatchObject({ currentStatus: 'PREPARED', operation: 'acceptApprovalChange' });
    h.mock.clock.advance(2 * DAY);
    expect(
      h.mock.approvals.accept(pending.corporateUuid, pending.approvalUuid).status,
      'once DELIVERED it can be accepted',
    ).toBe('DELIVERED');
  });

  it('accepting a change whose added budget the corporate balance cannot hold is 422 INSUFFICIENT_FUNDS, and nothing changes', async () => {
    const user = await makeBusinessUser(h.client, h.mock, true);
    const live = await fetchApproval(
      await makeApproval(h.client, h.mock, user.userUuid, { budget: 100_000, corporate: 1 }),
    );
    const globex = () => h.mock.fixtures().corporates[1]!;
    const room = globex().balance.amount;
    const change = h.mock.approvals.requestChange(live.corporateUuid, live.approvalUuid, {
      additionalBudget: { amount: room + 1, currency: 'EUR' },
    });
    const before = globex();
    refused(() => h.mock.approvals.accept(change.corporateUuid, change.approvalUuid), 422, 'INSUFFICIENT_FUNDS');
    expect((await fetchApproval(change)).status).toBe('CREATED');
    expect((await fetchApproval(live)).status).toBe('DELIVERED');
    expect(globex()).toEqual(before);
    ledger();
  });

  // The corporation's acts end a pending change CANCELED; time ending its approval leaves it EXPIRED, undecided
  // (the document's EXPIRED: "neither accepted nor rejected before expiration"; CANCELED is the corporation's act).
  const endings: [string, (live: Approval) => Promise<void>, string, string, string][] = [
    [
      'canceled',
      async (live) => void h.mock.approvals.cancel(live.corporateUuid, live.approvalUuid),
      'CANCELED',
      'CANCELED',
      'CHANGED_APPROVAL_ENDED',
    ],
    [
      'replaced by increase-budget',
      async (live) => void ok(await increase(live, 1_000)),
      'REAPPROVED',
      'CANCELED',
      'CHANGED_APPROVAL_ENDED',
    ],
    // validTo (2 days) comes before the change's own expiresAt (72 h).
    [
      'expired undelivered at validTo',
      async () => void h.mock.clock.advance(2 * DAY + 1),
      'EXPIRED',
      'EXPIRED',
      'CHANGE_NOT_DECIDED',
    ],
  ];
  it.each(endings)(
    'a pending change ends when its approval is %s: the approval %s, the change %s (%s)',
    async (_name, end, liveStatus, changeStatus, reason) => {
      const user = await makeBusinessUser(h.client, h.mock);
      const live = await makeApproval(h.client, h.mock, user.userUuid, { toDays: 2 });
      const change = h.mock.approvals.requestChange(live.corporateUuid, live.approvalUuid);
      await end(live);
      expect((await fetchApproval(live)).status).toBe(liveStatus);
      expect(await fetchApproval(change)).toMatchObject({
        status: changeStatus,
        statusReason: reason,
        expiresAt: null,
      });
      refused(() => h.mock.approvals.accept(change.corporateUuid, change.approvalUuid), 409, 'INVALID_TRANSITION');
      ledger();
    },
  );

  it('a pending change ends EXPIRED (CHANGE_NOT_DECIDED) when its DELIVERED approval FINISHES, even with time to run on its own expiresAt', async () => {
    const live = await delivered(50_000, 2);
    const change = h.mock.approvals.requestChange(live.corporateUuid, live.approvalUuid);
    h.mock.clock.advance(2 * DAY + 1);
    expect(await fetchApproval(live)).toMatchObject({ status: 'FINISHED', statusReason: 'VALIDITY_ENDED' });
    expect(await fetchApproval(change)).toMatchObject({
      status: 'EXPIRED',
      statusReason: 'CHANGE_NOT_DECIDED',
      updatedAt: new Date(Date.parse(live.validTo) + 1).toISOString(),
    });
  });

  it('the control route takes no body for accept, cancel and reject', async () => {
    const live = await delivered();
    const change = h.mock.approvals.requestChange(live.corporateUuid, live.approvalUuid);
    await expectProblem(await approvalAction(change, 'accept', { pinUpdate: true }), 400, 'VALIDATION_FAILED');
    expect((await fetchApproval(change)).status).toBe('CREATED');
  });
});

describe('every approval ends: not DELIVERED by validTo is EXPIRED (NOT_DELIVERED_BY_VALID_TO)', () => {
  it('releases the budget and closes the never generated card at validTo; registering later changes nothing', async () => {
    const user = await makeBusinessUser(h.client, h.mock);
    const before = ledger();
    const approval = await makeApproval(h.client, h.mock, user.userUuid, { budget: 40_000, toDays: 10 });
    expect(ledger().reserved).toBe(before.reserved + 40_000);
    h.mock.clock.advance(10 * DAY);
    expect((await fetchApproval(approval)).status, 'at validTo itself it is still ACCEPTED').toBe('ACCEPTED');
    h.mock.clock.advance(1);
    const expired = await fetchApproval(approval);
    expect(expired).toMatchObject({
      status: 'EXPIRED',
      statusReason: 'NOT_DELIVERED_BY_VALID_TO',
      remaining: { amount: 0 },
      updatedAt: new Date(Date.parse(approval.validTo) + 1).toISOString(),
      card: { status: 'CLOSED', last4: null, expiryMonth: null, expiryYear: null, generatedAt: null },
    });
    expect(ledger()).toEqual(before);
    const told = h.mock
      .events({ type: 'approval.statusChanged', id: approval.approvalUuid })
      .map((e) => (e.type === 'approval.statusChanged' ? [e.from, e.to, e.reason, e.trigger, e.at] : []));
    expect(told, 'the clock expired it, at the instant after validTo').toEqual([
      [null, 'ACCEPTED', null, 'createApproval', T0],
      ['ACCEPTED', 'EXPIRED', 'NOT_DELIVERED_BY_VALID_TO', 'time', expired.updatedAt],
    ]);
    h.mock.users.completeRegistration(user.userUuid);
    expect((await fetchApproval(approval)).status, 'registration after validTo does not deliver it').toBe('EXPIRED');
    expectError(await increase(approval, 100), 409, 'INVALID_TRANSITION');
  });

  it('closes a card that is LOCKED when its approval ends (FINISHED at validTo)', async () => {
    const approval = await makeDeliveredApproval(h.client, h.mock, { toDays: 5 });
    const locked = await send('POST', `/__mock/cards/${approval.card.id}/lock`, { sign: false });
    expect(((await locked.json()) as { status: string }).status).toBe('LOCKED');
    h.mock.clock.advance(6 * DAY);
    expect(await fetchApproval(approval)).toMatchObject({ status: 'FINISHED', card: { status: 'CLOSED' } });
  });

  it('a long jump of the clock runs each transition at its own instant: DELIVERED at registration, then FINISHED', async () => {
    const user = await makeBusinessUser(h.client, h.mock);
    const approval = await makeApproval(h.client, h.mock, user.userUuid, { fromDays: 1, toDays: 5 });
    const changes: [string, string | null, string][] = [];
    const stop = h.mock.subscribe((m) => {
      if (m.kind === 'event' && m.event.type === 'approval.statusChanged')
        changes.push([m.event.to, m.event.trigger, m.event.at]);
    });
    h.mock.users.completeRegistration(user.userUuid);
    h.mock.clock.advance(30 * DAY);
    const finished = await fetchApproval(approval);
    stop();
    expect(finished).toMatchObject({ status: 'FINISHED', card: { status: 'CLOSED', generatedAt: approval.validFrom } });
    expect(changes, 'registration moves it on; the clock does the rest, each at its instant').toEqual([
      ['PREPARED', 'registrationCompleted', T0],
      ['DELIVERED', 'time', approval.validFrom],
      ['FINISHED', 'time', new Date(Date.parse(approval.validTo) + 1).toISOString()],
    ]);
  });
});

describe('the card is generated when the approval is DELIVERED', () => {
  it('exists from creation (id, type, INACTIVE, no number) and is generated at validFrom; details are served from then', async () => {
    const user = await makeBusinessUser(h.client, h.mock);
    const approval = await makeApproval(h.client, h.mock, user.userUuid, { fromDays: 2, toDays: 10 });
    expect(approval.card).toMatchObject({
      object: 'card',
      type: 'VIRTUAL',
      status: 'INACTIVE',
      cardholderName: 'GRACE HOPPER',
      last4: null,
      expiryMonth: null,
      expiryYear: null,
      generatedAt: null,
    });
    h.mock.users.completeRegistration(user.userUuid);
    expect((await fetchApproval(approval)).card, 'PREPARED: still not generated').toMatchObject({
      status: 'INACTIVE',
      last4: null,
      generatedAt: null,
    });
    h.mock.clock.advance(3 * DAY);
    const generated = await fetchApproval(approval);
    expect(generated).toMatchObject({
      status: 'DELIVERED',
      card: { status: 'ACTIVE', generatedAt: approval.validFrom, expiryYear: 2030 },
    });
    expect(generated.card.last4).toMatch(/^\d{4}$/);
    const keys = await generateCardKeyPair();
    const details = ok(
      await getApprovalCardDetails({
        client: h.client,
        path: { corporateUuid: approval.corporateUuid, approvalUuid: approval.approvalUuid },
        query: { publicKey: await exportPublicKey(keys) },
      }),
    );
    expect(details.encryptedDetails.split('.')).toHaveLength(5);
  });

  it('is generated at registration when the user registers after validFrom', async () => {
    const user = await makeBusinessUser(h.client, h.mock);
    const approval = await makeApproval(h.client, h.mock, user.userUuid, { toDays: 10 });
    h.mock.clock.advance(DAY);
    h.mock.users.completeRegistration(user.userUuid);
    expect((await fetchApproval(approval)).card).toMatchObject({
      status: 'ACTIVE',
      generatedAt: new Date(Date.parse(T0) + DAY * 1000).toISOString(),
    });
  });
});

describe('card transactions: authorizations', () => {
  it('approves within the remaining budget; spent and remaining move; FINISHED releases only what is left', async () => {
    const start = ledger();
    const approval = await delivered(30_000, 5);
    const first = h.mock.cards.authorize(approval.card.id, { amount: 10_000, currency: 'EUR', merchant: 'Hotel' });
    expect(first).toMatchObject({
      status: 'APPROVED',
      declineReason: null,
      cardId: approval.card.id,
      approvalUuid: approval.approvalUuid,
      amount: { amount: 10_000, currency: 'EUR' },
      merchant: 'Hotel',
    });
    expect(await fetchApproval(approval)).toMatchObject({
      spent: { amount: 10_000, currency: 'EUR' },
      remaining: { amount: 20_000, currency: 'EUR' },
    });
    expect(ledger()).toEqual({
      available: start.available - 30_000,
      reserved: start.reserved + 20_000,
      spent: start.spent + 10_000,
    });
    h.mock.clock.advance(6 * DAY);
    expect(await fetchApproval(approval)).toMatchObject({
      status: 'FINISHED',
      spent: { amount: 10_000 },
      remaining: { amount: 0 },
    });
    expect(ledger(), 'FINISHED released the 20 000 left, not the budget').toEqual({
      available: start.available - 10_000,
      reserved: start.reserved,
      spent: start.spent + 10_000,
    });
  });

  it('declines with a reason: over the remaining budget, another currency, a LOCKED card, an approval not DELIVERED', async () => {
    const approval = await delivered(10_000);
    const buy = (amount: number, currency = 'EUR') =>
      h.mock.cards.authorize(approval.card.id, { amount, currency, merchant: 'Shop' });
    expect(buy(10_001)).toMatchObject({ status: 'DECLINED', declineReason: 'BUDGET_EXCEEDED' });
    expect(buy(100, 'USD')).toMatchObject({ status: 'DECLINED', declineReason: 'CURRENCY_MISMATCH' });
    h.mock.cards.lock(approval.card.id);
    expect(buy(100)).toMatchObject({ status: 'DECLINED', declineReason: 'CARD_LOCKED' });
    h.mock.cards.unlock(approval.card.id);
    expect(buy(10_000)).toMatchObject({ status: 'APPROVED' });
    expect(buy(1)).toMatchObject({ status: 'DECLINED', declineReason: 'BUDGET_EXCEEDED' });
    expect(await fetchApproval(approval)).toMatchObject({ spent: { amount: 10_000 }, remaining: { amount: 0 } });

    const user = await makeBusinessUser(h.client, h.mock);
    const accepted = await makeApproval(h.client, h.mock, user.userUuid);
    expect(h.mock.cards.authorize(accepted.card.id, { amount: 1, currency: 'EUR', merchant: 'Shop' })).toMatchObject({
      status: 'DECLINED',
      declineReason: 'APPROVAL_NOT_DELIVERED',
    });
    ledger();
  });

  it('spending carries over a reapproval: increase-budget keeps spent, remaining = budget - spent', async () => {
    const approval = await delivered(10_000);
    h.mock.cards.authorize(approval.card.id, { amount: 4_000, currency: 'EUR', merchant: 'Shop' });
    const reapproval = ok(await increase(approval, 5_000));
    expect(reapproval).toMatchObject({
      status: 'DELIVERED',
      budget: { amount: 15_000 },
      spent: { amount: 4_000 },
      remaining: { amount: 11_000 },
      change: { additionalBudget: { amount: 5_000 }, pinUpdate: false },
    });
    ledger();
  });

  it('over HTTP control: POST /__mock/cards/{id}/authorize answers 201 with the authorization; a bad body is 400 naming the field; an unknown card 404', async () => {
    const approval = await delivered(5_000);
    const response = await send('POST', `/__mock/cards/${approval.card.id}/authorize`, {
      sign: false,
      body: { amount: 2_500, currency: 'EUR', merchant: 'Books' },
    });
    expect(response.status).toBe(201);
    expect(await response.json()).toMatchObject({ status: 'APPROVED', amount: { amount: 2_500 } });
    const bad = await expectProblem(
      await send('POST', `/__mock/cards/${approval.card.id}/authorize`, {
        sign: false,
        body: { amount: 0, currency: 'EUR', merchant: 'Books', tip: 1 },
      }),
      400,
      'VALIDATION_FAILED',
    );
    expect(bad.errors?.map((e) => e.path).sort()).toEqual(['body.amount', 'body.tip']);
    await expectProblem(
      await send('POST', '/__mock/cards/5d7a3c91-0e2b-4f6d-8a4c-2b9e1f7d3a60/authorize', {
        sign: false,
        body: { amount: 1, currency: 'EUR', merchant: 'Books' },
      }),
      404,
      'NOT_FOUND',
    );
  });

  it("a Server2Server card spends from its user's balance, declined when the balance is short or the card not ACTIVE", async () => {
    const { user, balanceId, card } = await makeS2sCard(h.client, h.mock);
    expect(h.mock.cards.authorize(card.id, { amount: 1, currency: 'EUR', merchant: 'Shop' })).toMatchObject({
      status: 'DECLINED',
      declineReason: 'INSUFFICIENT_FUNDS',
      balanceId,
    });
    const credited = await fund(h.client, h.mock, user.id, balanceId, '100');
    expect(h.mock.cards.authorize(card.id, { amount: credited, currency: 'EUR', merchant: 'Shop' })).toMatchObject({
      status: 'APPROVED',
      balanceId,
    });
    expect(h.mock.cards.authorize(card.id, { amount: 1, currency: 'GBP', merchant: 'Shop' })).toMatchObject({
      status: 'DECLINED',
      declineReason: 'CURRENCY_MISMATCH',
    });
    h.mock.cards.lock(card.id);
    expect(h.mock.cards.authorize(card.id, { amount: 1, currency: 'EUR', merchant: 'Shop' })).toMatchObject({
      status: 'DECLINED',
      declineReason: 'CARD_LOCKED',
    });
  });
});

describe('one place for what entering a status does', () => {
  it('emits one approval.status event per change (from, to, reason, instant), one card.generated, one per authorization', () => {
    const state = h.mock.snapshot();
    const events: DomainEvent[] = [];
    const ctx = contextOf(state, (e) => events.push(e));
    const corp = Object.values(state.corporates)[0]!;
    const user = business.createBusinessUser(ctx, {
      name: 'Ada',
      lastName: 'King',
      email: 'ada.king@corp.example',
      phone: '+12025550143',
    });
    const approval = business.createApproval(ctx, corp.corporateUuid, {
      userUuid: user.userUuid,
      budget: { amount: 5_000, currency: 'EUR' },
      validFrom: T0,
      validTo: new Date(Date.parse(T0) + 5 * DAY * 1000).toISOString(),
    });
    const change = business.requestChange(ctx, corp.corporateUuid, approval.approvalUuid, { pinUpdate: true });
    business.completeRegistration(ctx, user.userUuid);
    settle(ctx);
    business.acceptChange(ctx, corp.corporateUuid, change.approvalUuid);
    const statuses = events
      .filter((e) => e.type === 'approval.statusChanged')
      .map((e) => [
        e.approvalUuid === approval.approvalUuid ? 'approval' : 'change',
        e.from,
        e.to,
        e.reason,
        e.trigger,
      ]);
    expect(statuses).toEqual([
      ['approval', null, 'ACCEPTED', null, 'createApproval'],
      ['change', null, 'CREATED', null, 'requestChange'],
      ['approval', 'ACCEPTED', 'DELIVERED', null, 'registrationCompleted'],
      ['approval', 'DELIVERED', 'REAPPROVED', 'REPLACED', 'changeAccepted'],
      ['change', 'CREATED', 'DELIVERED', null, 'accept'],
    ]);
    expect(events.filter((e) => e.type === 'card.generated')).toEqual([
      {
        type: 'card.generated',
        at: T0,
        cardId: approval.card.id,
        userId: user.userUuid,
        cardType: 'VIRTUAL',
        last4: expect.stringMatching(/^\d{4}$/),
        approvalUuid: approval.approvalUuid,
      },
    ]);
    // Every event is JSON, and no card number travels in one.
    expect(JSON.stringify(events)).not.toMatch(/\d{12,}/);
  });

  it('lists every instance of a user, change requests included, with their reasons', async () => {
    const live = await delivered();
    const change = h.mock.approvals.requestChange(live.corporateUuid, live.approvalUuid);
    h.mock.approvals.cancel(change.corporateUuid, change.approvalUuid);
    const list = ok(
      await listUserApprovals({
        client: h.client,
        path: { corporateUuid: live.corporateUuid, userUuid: live.userUuid },
      }),
    );
    expect(list.items.map((a) => [a.status, a.statusReason])).toEqual([
      ['DELIVERED', null],
      ['CANCELED', 'CANCELED_BY_CORPORATION'],
    ]);
  });
});

// A browser mock saves its state and sends it to its other tabs on `onChange` (runners/browser-state.ts). A tab
// reopened later restores the saved state with its clock moved on; the first read then runs what fell due meanwhile,
// and that change must be told like any other, or the saved copy and the other tabs keep the state before it.
describe('a read that runs what fell due while the state was saved is a change (onChange is told)', () => {
  /** The state saved now, restored `seconds` later (the clock moved on, nothing run yet); counts the changes told. */
  function reopenedLater(seconds: number): () => number {
    const saved = h.mock.snapshot();
    h.mock.restore({ ...saved, clock: { ...saved.clock, frozenAt: saved.clock.frozenAt! + seconds * 1000 } });
    let told = 0;
    h.mock.onChange(() => told++);
    return () => told;
  }

  it('a hold past its expiry: the read expires it', async () => {
    const approval = await delivered(10_000);
    const hold = h.mock.cards.authorize(approval.card.id, {
      amount: 4_000,
      currency: 'EUR',
      merchant: 'Hotel',
      capture: false,
    });
    const told = reopenedLater(7 * DAY);
    expect(await fetchApproval(approval)).toMatchObject({ remaining: { amount: 10_000 } });
    expect(told()).toBe(1);
    expect(h.mock.authorizations({ cardId: approval.card.id })).toMatchObject([
      { id: hold.id, state: 'EXPIRED', held: 0 },
    ]);
  });

  it("a physical card's order past its 3 days: the read completes it", async () => {
    const { user, balanceId } = await makeUser(h.client, h.mock);
    await fund(h.client, h.mock, user.id, balanceId, '20');
    const physical = h.mock.fixtures().cardConfigs.find((c) => c.type === 'PHYSICAL')!;
    const draft = ok(
      await createCard({
        client: h.client,
        path: { userId: user.id },
        body: { configId: physical.configId, visualId: physical.visualIds[0]! },
      }),
    ) as Draft;
    ok(await chargeDraft({ client: h.client, path: { cardId: draft.cardId } }));
    expect(ok(await completeDraft({ client: h.client, path: { cardId: draft.cardId } })) as Card).toMatchObject({
      status: 'ORDERED',
    });
    const told = reopenedLater(3 * DAY);
    const cards = ok(await listCards({ client: h.client, query: { userId: user.id } })).items;
    expect(cards.map((c) => c.status)).toEqual(['AWAITING_ACTIVATION']);
    expect(told()).toBe(1);
  });

  it('an approval past validTo, never delivered: the read expires it; a read with nothing due tells no one', async () => {
    const user = await makeBusinessUser(h.client, h.mock);
    const approval = await makeApproval(h.client, h.mock, user.userUuid, { toDays: 10 });
    const told = reopenedLater(10 * DAY + 1);
    expect(await fetchApproval(approval)).toMatchObject({
      status: 'EXPIRED',
      statusReason: 'NOT_DELIVERED_BY_VALID_TO',
    });
    expect(told()).toBe(1);
    await fetchApproval(approval);
    expect(told(), 'nothing was due the second time').toBe(1);
  });
});
