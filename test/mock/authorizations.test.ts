/**
 * The card authorization life (machines/authorization.ts, domain/holds.ts): every row of the table with its effect on
 * the approval's held, spent and remaining and on the corporate ledger; money in flight when an approval is
 * reapproved or finishes; Server2Server holds on the balance; the control API in process and over HTTP with its
 * problem codes; an event for every step; race probes where one of two steps wins and the ledger holds.
 */
import { describe, expect, it } from 'vitest';
import { getApproval, increaseApprovalBudget } from '../../sdk/generated/sdk.gen';
import type { Approval } from '../../sdk/generated/types.gen';
import type { Authorization } from '../../mock-server/src/index';
import { zAuthorization } from '../../mock-server/src/control/schemas';
import { authorizationMachine, captureLimit } from '../../mock-server/src/machines';
import { AUTHORIZATION_STATES } from '../../mock-server/src/store';
import { fund, makeDeliveredApproval, makeS2sCard } from './flows';
import { DAY, expectProblem, mockHarness, ok, refused, send } from './helpers';

const h = mockHarness();
const corporate = () => h.mock.fixtures().corporates[0]!;
const fetchApproval = async (a: { corporateUuid: string; approvalUuid: string }) =>
  ok(await getApproval({ client: h.client, path: { corporateUuid: a.corporateUuid, approvalUuid: a.approvalUuid } }));

/** funded = available + reserved + spent for every corporate, held ≤ reserved, nothing below zero; the first corporate's figures. */
function ledger() {
  for (const c of h.mock.fixtures().corporates) {
    expect(c.balance.amount).toBeGreaterThanOrEqual(0);
    expect(c.held.amount).toBeLessThanOrEqual(c.reserved.amount);
    expect(
      c.balance.amount + c.reserved.amount + c.spent.amount,
      `${c.name}: funded + overdraft = available + reserved + spent`,
    ).toBe(c.funded.amount + c.overdraft.amount);
  }
  const c = corporate();
  return { available: c.balance.amount, reserved: c.reserved.amount, held: c.held.amount, spent: c.spent.amount };
}

/** An approval's figures: spent, held, remaining. */
async function figures(a: Approval) {
  const now = await fetchApproval(a);
  return { status: now.status, spent: now.spent.amount, held: now.held.amount, remaining: now.remaining.amount };
}

const delivered = (budget = 50_000, toDays = 30) => makeDeliveredApproval(h.client, h.mock, { budget, toDays });

const hold = (a: Approval, amount: number, merchant = 'Hotel') =>
  h.mock.cards.authorize(a.card.id, { amount, currency: 'EUR', merchant, capture: false });

describe('the state table', () => {
  it('names every state, and each row says what it does to held, spent, remaining or the ledger', () => {
    const reached = new Set(authorizationMachine.rows.map((r) => r.to).filter((to) => to !== 'unchanged'));
    expect([...reached].sort()).toEqual([...AUTHORIZATION_STATES].sort());
    for (const row of authorizationMachine.rows) {
      const name = `${row.trigger} from ${row.from?.join() ?? 'nothing'}`;
      if (row.to === 'DECLINED') expect(row.also, name).toBe('nothing moves');
      else expect(row.also, name).toMatch(/(held|spent) [−+]= .*remaining [−+]= .*the ledger( moves nothing|:)/);
    }
    expect(captureLimit(10_000)).toBe(11_500);
    expect(captureLimit(99)).toBe(113);
  });
});

describe('a business card: held, spent and remaining at each step', () => {
  it('hold → part capture → part refund → refund the rest; every figure and the ledger at each step', async () => {
    const approval = await delivered(50_000);
    const start = ledger();
    expect(await figures(approval)).toMatchObject({ spent: 0, held: 0, remaining: 50_000 });

    const auth = hold(approval, 20_000);
    expect(zAuthorization.parse(auth)).toMatchObject({
      status: 'APPROVED',
      state: 'PENDING',
      held: 20_000,
      authorized: 20_000,
      captured: 0,
    });
    expect(Date.parse(auth.expiresAt!) - Date.parse(auth.createdAt)).toBe(7 * DAY * 1000);
    expect(await figures(approval), 'a hold lowers remaining at once').toMatchObject({
      spent: 0,
      held: 20_000,
      remaining: 30_000,
    });
    expect(ledger(), 'a hold stays inside the reservation').toEqual({ ...start, held: start.held + 20_000 });

    const captured = h.mock.authorizations.capture(auth.id, 15_000);
    expect(captured).toMatchObject({ state: 'CLEARED', held: 0, captured: 15_000, expiresAt: null });
    expect(await figures(approval), 'the capture moves to spent; the 5 000 not captured go back').toMatchObject({
      spent: 15_000,
      held: 0,
      remaining: 35_000,
    });
    expect(ledger()).toEqual({ ...start, reserved: start.reserved - 15_000, spent: start.spent + 15_000 });

    expect(h.mock.authorizations.refund(auth.id, 4_000)).toMatchObject({ state: 'CLEARED', refunded: 4_000 });
    expect(await figures(approval)).toMatchObject({ spent: 11_000, held: 0, remaining: 39_000 });
    expect(ledger()).toEqual({ ...start, reserved: start.reserved - 11_000, spent: start.spent + 11_000 });

    const done = h.mock.authorizations.refund(auth.id);
    expect(done).toMatchObject({ state: 'REFUNDED', refunded: 15_000 });
    expect(done.steps.map((s) => [s.kind, s.amount])).toEqual([
      ['authorize', 20_000],
      ['capture', 15_000],
      ['refund', 4_000],
      ['refund', 11_000],
    ]);
    expect(await figures(approval)).toMatchObject({ spent: 0, held: 0, remaining: 50_000 });
    expect(ledger()).toEqual(start);
  });

  it('strictCaptures: a capture may exceed the hold by 15 % (taken from remaining); above that 422 AMOUNT_EXCEEDS_AUTHORIZATION, beyond remaining 422 INSUFFICIENT_FUNDS', async () => {
    h.start({ strictCaptures: true });
    const approval = await delivered(12_000);
    const auth = hold(approval, 10_000);
    const tooMuch = refused(() => h.mock.authorizations.capture(auth.id, 11_501), 422, 'AMOUNT_EXCEEDS_AUTHORIZATION');
    expect(tooMuch.detail).toContain('11500');
    const other = hold(approval, 1_000, 'Bar');
    // 1 000 remain: a capture of 11 500 needs 1 500 above the hold.
    refused(() => h.mock.authorizations.capture(auth.id, 11_500), 422, 'INSUFFICIENT_FUNDS');
    expect(h.mock.authorizations(), 'a refused step changes nothing').toMatchObject([
      { state: 'PENDING', held: 10_000 },
      { state: 'PENDING', held: 1_000 },
    ]);
    h.mock.authorizations.reverse(other.id);
    expect(h.mock.authorizations.capture(auth.id, 11_500)).toMatchObject({ state: 'CLEARED', captured: 11_500 });
    expect(await figures(approval)).toMatchObject({ spent: 11_500, held: 0, remaining: 500 });
    ledger();
  });

  it('an increment raises the hold when the budget allows; declined, it is a step with its reason and the hold stays', async () => {
    const approval = await delivered(10_000);
    const auth = hold(approval, 6_000);
    expect(h.mock.authorizations.increment(auth.id, 3_000)).toMatchObject({
      state: 'PENDING',
      held: 9_000,
      authorized: 9_000,
    });
    expect(await figures(approval)).toMatchObject({ held: 9_000, remaining: 1_000 });
    const declined = h.mock.authorizations.increment(auth.id, 1_001);
    expect(declined).toMatchObject({ state: 'PENDING', held: 9_000, authorized: 9_000 });
    expect(declined.steps.at(-1)).toMatchObject({ kind: 'increment', amount: 1_001, declineReason: 'BUDGET_EXCEEDED' });
    h.mock.cards.lock(approval.card.id);
    expect(h.mock.authorizations.increment(auth.id, 1).steps.at(-1)).toMatchObject({ declineReason: 'CARD_LOCKED' });
    // Clearing is not asked of the cardholder: a locked card's hold is still captured.
    expect(h.mock.authorizations.capture(auth.id)).toMatchObject({ state: 'CLEARED', captured: 9_000 });
    expect(await figures(approval)).toMatchObject({ spent: 9_000, held: 0, remaining: 1_000 });
    ledger();
  });

  it('a reversal releases part (still PENDING) or the whole hold (REVERSED); above the hold 422', async () => {
    const approval = await delivered(10_000);
    const auth = hold(approval, 8_000);
    refused(() => h.mock.authorizations.reverse(auth.id, 8_001), 422, 'AMOUNT_EXCEEDS_AUTHORIZATION');
    expect(h.mock.authorizations.reverse(auth.id, 3_000)).toMatchObject({ state: 'PENDING', held: 5_000 });
    expect(await figures(approval)).toMatchObject({ held: 5_000, remaining: 5_000 });
    expect(h.mock.authorizations.reverse(auth.id)).toMatchObject({ state: 'REVERSED', held: 0, expiresAt: null });
    expect(await figures(approval)).toMatchObject({ spent: 0, held: 0, remaining: 10_000 });
    ledger();
  });

  it('strictCaptures: a hold not captured expires 7 days after it was made, on the virtual clock, and gives the budget back', async () => {
    h.start({ strictCaptures: true });
    const approval = await delivered(10_000);
    const auth = hold(approval, 4_000);
    h.mock.clock.advance(7 * DAY - 1);
    expect(h.mock.authorizations({ cardId: approval.card.id })[0]).toMatchObject({ state: 'PENDING' });
    h.mock.clock.advance(1);
    const [expired] = h.mock.authorizations({ cardId: approval.card.id });
    expect(expired).toMatchObject({
      state: 'EXPIRED',
      held: 0,
      steps: [{ kind: 'authorize' }, { kind: 'expire', amount: 4_000, at: auth.expiresAt }],
    });
    expect(await figures(approval)).toMatchObject({ held: 0, remaining: 10_000 });
    refused(() => h.mock.authorizations.capture(auth.id), 409, 'AUTHORIZATION_NOT_PENDING');
    ledger();
  });

  it('the wrong state is 409 naming it: capture, increment or reverse what is not PENDING, refund what is not CLEARED', async () => {
    const approval = await delivered(10_000);
    const auth = hold(approval, 1_000);
    const notCleared = refused(() => h.mock.authorizations.refund(auth.id), 409, 'AUTHORIZATION_NOT_CLEARED');
    expect(notCleared.extras).toMatchObject({ currentStatus: 'PENDING', operation: 'refundAuthorization' });
    expect(notCleared.detail).toBe('refundAuthorization is not allowed while the authorization is PENDING.');
    h.mock.authorizations.capture(auth.id);
    for (const step of [
      () => h.mock.authorizations.capture(auth.id),
      () => h.mock.authorizations.increment(auth.id, 1),
      () => h.mock.authorizations.reverse(auth.id),
    ]) {
      expect(refused(step, 409, 'AUTHORIZATION_NOT_PENDING').extras.currentStatus).toBe('CLEARED');
    }
    refused(() => h.mock.authorizations.refund(auth.id, 1_001), 422, 'AMOUNT_EXCEEDS_AUTHORIZATION');
    h.mock.authorizations.refund(auth.id);
    expect(
      refused(() => h.mock.authorizations.refund(auth.id, 1), 409, 'AUTHORIZATION_NOT_CLEARED').extras.currentStatus,
    ).toBe('REFUNDED');
    const declined = h.mock.cards.authorize(approval.card.id, {
      amount: 999_999,
      currency: 'EUR',
      merchant: 'Yacht',
      capture: false,
    });
    expect(declined).toMatchObject({
      status: 'DECLINED',
      state: 'DECLINED',
      declineReason: 'BUDGET_EXCEEDED',
      held: 0,
    });
    refused(() => h.mock.authorizations.capture(declined.id), 409, 'AUTHORIZATION_NOT_PENDING');
    refused(() => h.mock.authorizations.capture('5d7a3c91-0e2b-4f6d-8a4c-2b9e1f7d3a60'), 404, 'NOT_FOUND');
    const bad = refused(() => h.mock.authorizations.capture('nope', 0), 400, 'VALIDATION_FAILED');
    expect(bad.extras.errors?.map((e) => e.path).sort()).toEqual(['body.amount', 'path.id']);
  });

  it('cards.authorize without capture: false is approved and captured at once, as before (CLEARED, spent)', async () => {
    const approval = await delivered(10_000);
    const auth = h.mock.cards.authorize(approval.card.id, { amount: 2_500, currency: 'EUR', merchant: 'Books' });
    expect(auth).toMatchObject({ status: 'APPROVED', state: 'CLEARED', captured: 2_500, held: 0 });
    expect(await figures(approval)).toMatchObject({ spent: 2_500, held: 0, remaining: 7_500 });
  });
});

describe('money in flight when an approval ends', () => {
  it('increase-budget (REAPPROVED): pending holds move to the new instance with spent; they are captured against it', async () => {
    const approval = await delivered(10_000);
    h.mock.cards.authorize(approval.card.id, { amount: 2_000, currency: 'EUR', merchant: 'Cafe' });
    const auth = hold(approval, 3_000);
    const start = ledger();
    const reapproval = ok(
      await increaseApprovalBudget({
        client: h.client,
        path: { corporateUuid: approval.corporateUuid, approvalUuid: approval.approvalUuid },
        body: { additionalBudget: { amount: 5_000, currency: 'EUR' } },
      }),
    );
    expect(reapproval).toMatchObject({
      status: 'DELIVERED',
      spent: { amount: 2_000 },
      held: { amount: 3_000 },
      remaining: { amount: 10_000 },
    });
    expect(await figures(approval)).toMatchObject({ status: 'REAPPROVED', spent: 2_000, held: 0, remaining: 0 });
    expect(ledger(), 'only the added budget is reserved').toEqual({
      ...start,
      available: start.available - 5_000,
      reserved: start.reserved + 5_000,
    });
    expect(h.mock.authorizations.capture(auth.id, 3_300)).toMatchObject({
      state: 'CLEARED',
      approvalUuid: approval.approvalUuid,
    });
    expect(await figures(reapproval)).toMatchObject({ spent: 5_300, held: 0, remaining: 9_700 });
    expect(
      h.mock.authorizations({ approvalUuid: approval.approvalUuid }).map((a) => a.id),
      'filed under the instance it was made under',
    ).toContain(auth.id);
    h.mock.authorizations.refund(auth.id);
    expect(await figures(reapproval), 'the refund goes back to the instance in force').toMatchObject({
      spent: 2_000,
      remaining: 13_000,
    });
    ledger();
  });

  it('an accepted change request (REAPPROVED) carries the holds the same way', async () => {
    const approval = await delivered(10_000);
    const auth = hold(approval, 4_000);
    const change = h.mock.approvals.requestChange(approval.corporateUuid, approval.approvalUuid, {
      additionalBudget: { amount: 1_000, currency: 'EUR' },
    });
    expect(change).toMatchObject({ held: { amount: 0 }, remaining: { amount: 0 } });
    const accepted = h.mock.approvals.accept(approval.corporateUuid, change.approvalUuid);
    expect(accepted).toMatchObject({ status: 'DELIVERED', held: { amount: 4_000 }, remaining: { amount: 7_000 } });
    h.mock.authorizations.reverse(auth.id);
    expect(await figures(accepted)).toMatchObject({ held: 0, remaining: 11_000 });
    ledger();
  });

  it('strictCaptures: FINISHED releases what is neither spent nor held; the holds stay capturable against it; what they free goes to available', async () => {
    h.start({ strictCaptures: true });
    const approval = await delivered(20_000, 2);
    h.mock.cards.authorize(approval.card.id, { amount: 1_000, currency: 'EUR', merchant: 'Cafe' });
    const captured = hold(approval, 5_000, 'Hotel');
    const reversed = hold(approval, 3_000, 'Car hire');
    const expiring = hold(approval, 2_000, 'Fuel');
    const start = ledger();
    h.mock.clock.advance(2 * DAY + 60);
    expect(await figures(approval)).toMatchObject({ status: 'FINISHED', spent: 1_000, held: 10_000, remaining: 0 });
    expect(ledger(), 'the 9 000 neither spent nor held are released; the holds stay reserved').toEqual({
      ...start,
      available: start.available + 9_000,
      reserved: start.reserved - 9_000,
    });
    expect(
      h.mock.cards.authorize(approval.card.id, { amount: 1, currency: 'EUR', merchant: 'Cafe', capture: false })
        .declineReason,
    ).toBe('APPROVAL_NOT_DELIVERED');
    expect(
      h.mock.authorizations.increment(captured.id, 1).steps.at(-1)!.declineReason,
      'nothing remains to raise a hold',
    ).toBe('APPROVAL_NOT_DELIVERED');
    refused(() => h.mock.authorizations.capture(captured.id, 5_001), 422, 'INSUFFICIENT_FUNDS');

    h.mock.authorizations.capture(captured.id, 4_500);
    expect(await figures(approval)).toMatchObject({ spent: 5_500, held: 5_000, remaining: 0 });
    expect(ledger(), 'the 500 not captured go to available').toEqual({
      ...start,
      available: start.available + 9_500,
      reserved: start.reserved - 14_000,
      held: start.held - 5_000,
      spent: start.spent + 4_500,
    });
    h.mock.authorizations.reverse(reversed.id);
    h.mock.clock.advance(7 * DAY);
    expect(h.mock.authorizations({ status: 'EXPIRED' }).map((a) => a.id)).toEqual([expiring.id]);
    expect(await figures(approval)).toMatchObject({ spent: 5_500, held: 0, remaining: 0 });
    h.mock.authorizations.refund(captured.id, 500);
    expect(await figures(approval)).toMatchObject({ spent: 5_000, held: 0, remaining: 0 });
    const end = ledger();
    expect(end, 'nothing stays reserved for an ended instance; a refund after the end goes to available').toEqual({
      available: start.available + 15_000,
      reserved: start.reserved - 19_000,
      held: 0,
      spent: start.spent + 4_000,
    });
  });

  it('CANCELED never meets a hold: holds need DELIVERED, and a DELIVERED approval cannot be canceled', async () => {
    const approval = await delivered(10_000);
    hold(approval, 1_000);
    refused(() => h.mock.approvals.cancel(approval.corporateUuid, approval.approvalUuid), 409, 'INVALID_TRANSITION');
  });
});

describe('a Server2Server card: the hold is on the balance', () => {
  it('a hold debits the balance at once; a smaller capture gives the rest back; a refund credits it', async () => {
    const { user, balanceId, card, available: balance } = await makeS2sCard(h.client, h.mock);
    const credited = await fund(h.client, h.mock, user.id, balanceId, '100');
    const auth = h.mock.cards.authorize(card.id, { amount: 6_000, currency: 'EUR', merchant: 'Shop', capture: false });
    expect(auth).toMatchObject({ state: 'PENDING', balanceId, approvalUuid: null });
    expect(await balance()).toBe(credited - 6_000);
    expect(h.mock.authorizations.increment(auth.id, credited).steps.at(-1)!.declineReason).toBe('INSUFFICIENT_FUNDS');
    h.mock.authorizations.capture(auth.id, 5_000);
    expect(await balance()).toBe(credited - 5_000);
    h.mock.authorizations.refund(auth.id, 2_000);
    expect(await balance()).toBe(credited - 3_000);
    const second = h.mock.cards.authorize(card.id, {
      amount: 1_000,
      currency: 'EUR',
      merchant: 'Shop',
      capture: false,
    });
    h.mock.clock.advance(8 * DAY);
    expect(h.mock.authorizations({ cardId: card.id, status: 'EXPIRED' }).map((a) => a.id)).toEqual([second.id]);
    expect(await balance()).toBe(credited - 3_000);
  });
});

describe('over HTTP and in events', () => {
  it('strictCaptures: GET /__mock/authorizations filters by card, approval and status; POST /{id}/{action} answers the authorization after the step', async () => {
    h.start({ strictCaptures: true });
    const approval = await delivered(10_000);
    const other = await delivered(10_000);
    const response = await send('POST', `/__mock/cards/${approval.card.id}/authorize`, {
      sign: false,
      body: { amount: 3_000, currency: 'EUR', merchant: 'Books', capture: false },
    });
    expect(response.status).toBe(201);
    const auth = (await response.json()) as Authorization;
    h.mock.cards.authorize(other.card.id, { amount: 1_000, currency: 'EUR', merchant: 'Cafe' });

    const list = async (query: string) =>
      (
        (await (await send('GET', `/__mock/authorizations${query}`, { sign: false })).json()) as {
          items: Authorization[];
        }
      ).items.map((a) => a.id);
    expect(await list(`?cardId=${approval.card.id}`)).toEqual([auth.id]);
    expect(await list(`?approvalUuid=${approval.approvalUuid}&status=PENDING`)).toEqual([auth.id]);
    expect(await list('?status=CLEARED')).toHaveLength(1);
    expect(await list('?status=APPROVED')).toHaveLength(2);
    const badQuery = await expectProblem(
      await send('GET', '/__mock/authorizations?status=SETTLED&card=1', { sign: false }),
      400,
      'VALIDATION_FAILED',
    );
    expect(badQuery.errors?.map((e) => e.path).sort()).toEqual(['query.card', 'query.status']);

    const step = (action: string, body?: object) =>
      send('POST', `/__mock/authorizations/${auth.id}/${action}`, { sign: false, ...(body ? { body } : {}) });
    const incremented = await step('increment', { amount: 500 });
    expect(incremented.status).toBe(200);
    expect(zAuthorization.parse(await incremented.json())).toMatchObject({ held: 3_500 });
    await expectProblem(await step('increment'), 400, 'VALIDATION_FAILED');
    await expectProblem(await step('capture', { amount: 5_000 }), 422, 'AMOUNT_EXCEEDS_AUTHORIZATION');
    await expectProblem(await step('capture', { amount: 1, tip: 2 }), 400, 'VALIDATION_FAILED');
    await expectProblem(await step('settle'), 400, 'VALIDATION_FAILED');
    expect(await (await step('capture')).json()).toMatchObject({ state: 'CLEARED', captured: 3_500 });
    const again = await expectProblem(await step('capture'), 409, 'AUTHORIZATION_NOT_PENDING');
    expect(again).toMatchObject({ currentStatus: 'CLEARED', operation: 'captureAuthorization' });
    expect(await (await step('refund', { amount: 1_500 })).json()).toMatchObject({ refunded: 1_500 });
    await expectProblem(
      await send('POST', '/__mock/authorizations/5d7a3c91-0e2b-4f6d-8a4c-2b9e1f7d3a60/reverse', { sign: false }),
      404,
      'NOT_FOUND',
    );
    expect(await figures(approval)).toMatchObject({ spent: 2_000, held: 0, remaining: 8_000 });
  });

  it('every step is an event, naming the authorization, its card and approval, with the amounts after it', async () => {
    const approval = await delivered(10_000);
    const auth = hold(approval, 2_000);
    h.mock.authorizations.increment(auth.id, 500);
    h.mock.authorizations.increment(auth.id, 50_000);
    h.mock.authorizations.reverse(auth.id, 100);
    h.mock.authorizations.capture(auth.id, 2_000);
    h.mock.authorizations.refund(auth.id, 2_000);
    const expiring = hold(approval, 1_000);
    h.mock.clock.advance(7 * DAY);
    const events = h.mock.events({ type: 'authorization.' });
    expect(
      events.map((e) => [
        e.type,
        'authorizationId' in e ? e.authorizationId : null,
        'from' in e ? `${e.from}→${e.to}` : null,
      ]),
    ).toEqual([
      ['authorization.approved', auth.id, null],
      ['authorization.incremented', auth.id, 'PENDING→PENDING'],
      ['authorization.incrementDeclined', auth.id, 'PENDING→PENDING'],
      ['authorization.reversed', auth.id, 'PENDING→PENDING'],
      ['authorization.captured', auth.id, 'PENDING→CLEARED'],
      ['authorization.refunded', auth.id, 'CLEARED→REFUNDED'],
      ['authorization.approved', expiring.id, null],
      ['authorization.expired', expiring.id, 'PENDING→EXPIRED'],
    ]);
    expect(events[2]).toMatchObject({
      reason: 'BUDGET_EXCEEDED',
      amount: { amount: 50_000, currency: 'EUR' },
      held: 2_500,
    });
    expect(events[4]).toMatchObject({
      cardId: approval.card.id,
      approvalUuid: approval.approvalUuid,
      amount: { amount: 2_000 },
      held: 0,
      captured: 2_000,
    });
    expect(events.at(-1)!.at, 'the expiry happened at its instant').toBe(expiring.expiresAt);
    expect(h.mock.events({ id: auth.id })).toHaveLength(6);
  });
});

describe('race probes: one of two steps wins, the ledger holds', () => {
  const step = (id: string, action: string, amount?: number) =>
    send('POST', `/__mock/authorizations/${id}/${action}`, {
      sign: false,
      ...(amount === undefined ? {} : { body: { amount } }),
    });

  it('two captures of one hold: one 200, one 409 AUTHORIZATION_NOT_PENDING; captured once', async () => {
    const approval = await delivered(10_000);
    const auth = hold(approval, 4_000);
    const start = ledger();
    const answers = await Promise.all([step(auth.id, 'capture', 4_000), step(auth.id, 'capture', 4_400)]);
    expect(answers.map((r) => r.status).sort()).toEqual([200, 409]);
    await expectProblem(answers.find((r) => r.status === 409)!, 409, 'AUTHORIZATION_NOT_PENDING');
    const [after] = h.mock.authorizations({ cardId: approval.card.id });
    expect(after!.steps.filter((s) => s.kind === 'capture')).toHaveLength(1);
    expect(ledger()).toEqual({
      ...start,
      held: 0,
      reserved: start.reserved - after!.captured,
      spent: start.spent + after!.captured,
    });
    expect(await figures(approval)).toMatchObject({
      spent: after!.captured,
      held: 0,
      remaining: 10_000 - after!.captured,
    });
  });

  it('strictCaptures: a capture racing a reversal: one wins, the other is 409, and the money is either spent or back', async () => {
    h.start({ strictCaptures: true });
    const approval = await delivered(10_000);
    const auth = hold(approval, 4_000);
    const start = ledger();
    const answers = await Promise.all([step(auth.id, 'reverse'), step(auth.id, 'capture')]);
    expect(answers.map((r) => r.status).sort()).toEqual([200, 409]);
    const [after] = h.mock.authorizations({ cardId: approval.card.id });
    expect(['REVERSED', 'CLEARED']).toContain(after!.state);
    const spent = after!.state === 'CLEARED' ? 4_000 : 0;
    expect(ledger()).toEqual({ ...start, held: 0, reserved: start.reserved - spent, spent: start.spent + spent });
    expect(await figures(approval)).toMatchObject({ spent, held: 0, remaining: 10_000 - spent });
  });

  it('two refunds that together exceed the capture: one 200, one 422 AMOUNT_EXCEEDS_AUTHORIZATION', async () => {
    const approval = await delivered(10_000);
    const auth = h.mock.cards.authorize(approval.card.id, { amount: 5_000, currency: 'EUR', merchant: 'Shop' });
    const start = ledger();
    const answers = await Promise.all([step(auth.id, 'refund', 3_000), step(auth.id, 'refund', 3_000)]);
    expect(answers.map((r) => r.status).sort()).toEqual([200, 422]);
    await expectProblem(answers.find((r) => r.status === 422)!, 422, 'AMOUNT_EXCEEDS_AUTHORIZATION');
    expect(h.mock.authorizations({ cardId: approval.card.id })[0]).toMatchObject({ state: 'CLEARED', refunded: 3_000 });
    expect(ledger()).toEqual({ ...start, reserved: start.reserved + 3_000, spent: start.spent - 3_000 });
    expect(await figures(approval)).toMatchObject({ spent: 2_000, remaining: 8_000 });
  });
});

describe('snapshots carry authorizations; older ones are migrated', () => {
  it('a snapshot restores pending holds with their expiry: the hold still expires on time after restore', async () => {
    const approval = await delivered(10_000);
    const auth = hold(approval, 3_000);
    const snapshot = h.mock.snapshot();
    expect(snapshot.authorizations[auth.id]).toMatchObject({ state: 'PENDING', held: 3_000 });
    h.mock.authorizations.capture(auth.id);
    h.mock.restore(snapshot);
    expect(await figures(approval)).toMatchObject({ spent: 0, held: 3_000, remaining: 7_000 });
    h.mock.clock.advance(7 * DAY);
    expect(h.mock.authorizations({ cardId: approval.card.id })[0]).toMatchObject({ state: 'EXPIRED' });
    expect(await figures(approval)).toMatchObject({ held: 0, remaining: 10_000 });
  });

  it('a version 1 snapshot (restore and PUT /__mock/state) is migrated: APPROVED purchases were captured at once', async () => {
    const approval = await delivered(10_000);
    const bought = h.mock.cards.authorize(approval.card.id, { amount: 2_500, currency: 'EUR', merchant: 'Books' });
    type Rows = Record<string, Record<string, unknown>>;
    const v1 = JSON.parse(JSON.stringify(h.mock.snapshot())) as {
      version: number;
      approvals: Rows;
      authorizations: Rows;
    };
    v1.version = 1;
    for (const a of Object.values(v1.approvals)) delete a.held;
    for (const a of Object.values(v1.authorizations)) {
      for (const field of ['state', 'authorized', 'held', 'captured', 'refunded', 'expiresAt', 'steps', 'updatedAt'])
        delete a[field];
    }
    const frozen = JSON.stringify(v1);
    h.start();
    h.mock.restore(v1 as never);
    expect(JSON.stringify(v1), 'the given snapshot is not changed').toBe(frozen);
    expect(h.mock.authorizations()).toMatchObject([
      { id: bought.id, state: 'CLEARED', captured: 2_500, refunded: 0, held: 0 },
    ]);
    expect(await figures(approval)).toMatchObject({ spent: 2_500, held: 0, remaining: 7_500 });
    h.start();
    expect((await send('PUT', '/__mock/state', { sign: false, body: v1 })).status).toBe(200);
    expect(h.mock.snapshot().version).toBe(2);
    expect(h.mock.authorizations.refund(bought.id)).toMatchObject({ state: 'REFUNDED' });
  });

  it('a snapshot of another version is refused naming what to do, and the state in force is kept', async () => {
    const snapshot = { ...h.mock.snapshot(), version: 7 };
    const problem = await expectProblem(
      await send('PUT', '/__mock/state', { sign: false, body: snapshot }),
      400,
      'VALIDATION_FAILED',
    );
    expect(problem.detail).toContain('take the snapshot again with this version of the mock');
    expect(problem.errors).toEqual([expect.objectContaining({ path: 'body.version' })]);
    expect(h.mock.snapshot().version).toBe(2);
  });
});

describe('the inspector model (GET /__mock/inspect)', () => {
  it("shows each instance with spent, held and remaining, the ledger with held, and a card's holds however many purchases follow", async () => {
    const approval = await delivered(100_000);
    const first = hold(approval, 5_000, 'Hotel');
    for (let i = 0; i < 9; i++)
      h.mock.cards.authorize(approval.card.id, { amount: 100, currency: 'EUR', merchant: `Cafe ${i}` });
    const view = (await (await send('GET', '/__mock/inspect', { sign: false })).json()) as {
      chains: {
        cardId: string;
        instances: { approvalUuid: string; spent: number; held: number; remaining: number }[];
        authorizations: { id: string; state: string; held: number }[];
      }[];
      corporates: { corporateUuid: string; held: number; reserved: number }[];
      upcoming: { what: string; id: string }[];
    };
    const chain = view.chains.find((c) => c.cardId === approval.card.id)!;
    expect(chain.instances).toMatchObject([
      { approvalUuid: approval.approvalUuid, spent: 900, held: 5_000, remaining: 94_100 },
    ]);
    expect(chain.authorizations).toHaveLength(9);
    expect(chain.authorizations.at(-1)).toMatchObject({ id: first.id, state: 'PENDING', held: 5_000 });
    expect(view.corporates.find((c) => c.corporateUuid === approval.corporateUuid)).toMatchObject({ held: 5_000 });
    expect(view.upcoming).toContainEqual({
      at: first.expiresAt,
      what: 'card hold at Hotel expires (PENDING → EXPIRED)',
      id: first.id,
    });
  });
});
