/**
 * Captures as card networks make them: by default the mock accepts a capture the network would force on an issuer
 * (above the hold + 15 %, above what remains, after a reversal, after an expiry) as a `forcedCapture` step with an
 * event, and moves the money: the approval is overspent and says by how much, the excess comes from the corporate's
 * available balance and then its overdraft, and the ledger keeps funded + overdraft = available + reserved + spent. A
 * refund pays the excess back first. A merchant's credit without a purchase is a control action (an unlinked refund).
 * `strictCaptures` keeps the old refusals (test/mock/authorizations.test.ts runs them).
 */
import { describe, expect, it } from 'vitest';
import { getApproval } from '../../sdk/generated/sdk.gen';
import type { Approval } from '../../sdk/generated/types.gen';
import { ProblemError } from '../../mock-server/src/index';
import { fund, makeDeliveredApproval, makeS2sCard } from './flows';
import { DAY, mockHarness, ok, send } from './helpers';

const h = mockHarness();

const delivered = (budget: number, corporate = 0) =>
  makeDeliveredApproval(h.client, h.mock, { budget, toDays: 30, corporate });

const figures = async (a: Approval) => {
  const now = ok(
    await getApproval({ client: h.client, path: { corporateUuid: a.corporateUuid, approvalUuid: a.approvalUuid } }),
  );
  return {
    spent: now.spent.amount,
    held: now.held.amount,
    remaining: now.remaining.amount,
    overspent: now.overspent.amount,
  };
};

/** The corporate's figures, after checking funded + overdraft = available + reserved + spent. */
function corporate(i = 0) {
  const c = h.mock.fixtures().corporates[i]!;
  expect(c.balance.amount + c.reserved.amount + c.spent.amount).toBe(c.funded.amount + c.overdraft.amount);
  return { available: c.balance.amount, overdraft: c.overdraft.amount, funded: c.funded.amount };
}

const hold = (a: Approval, amount: number) =>
  h.mock.cards.authorize(a.card.id, { amount, currency: 'EUR', merchant: 'Grand Hotel', capture: false });

describe('captures the network forces are accepted, recorded and move the money', () => {
  it('above the hold + 15 %: a forcedCapture step and an authorization.forceCaptured event', async () => {
    const approval = await delivered(50_000);
    const events: unknown[] = [];
    const stop = h.mock.subscribe((e) => events.push(e));
    const a = hold(approval, 10_000);
    const captured = h.mock.authorizations.capture(a.id, 20_000);
    stop();
    expect(captured).toMatchObject({ state: 'CLEARED', held: 0, captured: 20_000 });
    expect(captured.steps.at(-1)).toMatchObject({ kind: 'forcedCapture', forced: 'ABOVE_TOLERANCE', amount: 20_000 });
    expect(events.map((e) => (e as { event?: unknown }).event ?? e)).toContainEqual(
      expect.objectContaining({
        type: 'authorization.forceCaptured',
        forced: 'ABOVE_TOLERANCE',
        authorizationId: a.id,
      }),
    );
    expect(await figures(approval)).toEqual({ spent: 20_000, held: 0, remaining: 30_000, overspent: 0 });
    corporate();
  });

  it('above what remains: the approval is overspent and says by how much; the excess comes from available', async () => {
    const approval = await delivered(10_000);
    const before = corporate();
    const a = hold(approval, 9_000);
    // Within +15 % (at most 10,350) but 1,300 above the hold, and only 1,000 remains.
    const captured = h.mock.authorizations.capture(a.id, 10_300);
    expect(captured.steps.at(-1)).toMatchObject({ kind: 'forcedCapture', forced: 'ABOVE_REMAINING' });
    expect(await figures(approval)).toEqual({ spent: 10_300, held: 0, remaining: 0, overspent: 300 });
    // The budget was reserved when the approval was made: only the excess moves now.
    expect(corporate()).toEqual({ ...before, available: before.available - 300 });
    // The inspector shows the forced capture and the overspent instance.
    const inspect = await (await send('GET', '/__mock/inspect')).json();
    const instance = inspect.chains
      .flatMap((c: { instances: { approvalUuid: string }[] }) => c.instances)
      .find((i: { approvalUuid: string }) => i.approvalUuid === approval.approvalUuid);
    expect(instance).toMatchObject({ overspent: 300, remaining: 0 });
    const purchase = JSON.stringify(inspect).includes('"forced":"ABOVE_REMAINING"');
    expect(purchase, 'the purchase shows why its capture was forced').toBe(true);
    // A refund pays the excess back to the corporate first, then restores the budget.
    h.mock.authorizations.refund(a.id, 1_300);
    expect(await figures(approval)).toEqual({ spent: 9_000, held: 0, remaining: 1_000, overspent: 0 });
    expect(corporate()).toEqual(before);
  });

  it('after a reversal and after an expiry: what was authorized is captured by default', async () => {
    const approval = await delivered(50_000);
    const reversed = hold(approval, 4_000);
    h.mock.authorizations.reverse(reversed.id);
    expect(h.mock.authorizations.capture(reversed.id).steps.at(-1)).toMatchObject({
      kind: 'forcedCapture',
      forced: 'AFTER_REVERSAL',
      amount: 4_000,
    });
    const expired = hold(approval, 3_000);
    h.mock.clock.advance(8 * DAY);
    expect(h.mock.authorizations({ cardId: approval.card.id, status: 'EXPIRED' }).map((x) => x.id)).toEqual([
      expired.id,
    ]);
    const late = h.mock.authorizations.capture(expired.id, 3_100);
    expect(late).toMatchObject({ state: 'CLEARED', captured: 3_100 });
    expect(late.steps.at(-1)).toMatchObject({ kind: 'forcedCapture', forced: 'AFTER_EXPIRY' });
    expect(await figures(approval)).toEqual({ spent: 7_100, held: 0, remaining: 42_900, overspent: 0 });
    corporate();
  });

  it("beyond the corporate's available balance: an overdraft, repaid first by the next money in", async () => {
    const c = h.mock.fixtures().corporates[1]!;
    // An approval of all but 100.00 of the corporate's balance, then a capture 500.00 beyond its budget.
    const approval = await delivered(c.balance.amount - 10_000, 1);
    const a = hold(approval, 1_000);
    h.mock.authorizations.capture(a.id, c.balance.amount - 10_000 + 50_000);
    expect((await figures(approval)).overspent).toBe(50_000);
    expect(corporate(1)).toMatchObject({ available: 0, overdraft: 40_000 });
    // A merchant's credit without a purchase repays the overdraft before anything is available.
    h.mock.cards.refund(approval.card.id, { amount: 45_000, currency: 'EUR', merchant: 'Grand Hotel' });
    expect(corporate(1)).toMatchObject({ available: 5_000, overdraft: 0, funded: c.funded.amount + 45_000 });
  });

  it('on a Server2Server card: the balance goes to 0 and the rest is its overdraft; a credit repays it', async () => {
    const { user, balanceId, card, available: balance } = await makeS2sCard(h.client, h.mock);
    const credited = await fund(h.client, h.mock, user.id, balanceId, '100');
    const a = h.mock.cards.authorize(card.id, { amount: 1_000, currency: 'EUR', merchant: 'Fuel', capture: false });
    h.mock.authorizations.capture(a.id, credited + 2_000);
    expect(await balance()).toBe(0);
    expect(h.mock.snapshot().balances[balanceId]!.overdraft).toBe(2_000);
    const refund = h.mock.cards.refund(card.id, { amount: 2_500, currency: 'EUR', merchant: 'Fuel' });
    expect(refund).toMatchObject({ state: 'REFUNDED', refunded: 2_500, balanceId, steps: [{ kind: 'credit' }] });
    expect(await balance()).toBe(500);
    expect(h.mock.snapshot().balances[balanceId]!.overdraft).toBe(0);
  });
});

describe('strictCaptures', () => {
  it('refuses what the network would force: 422 above the tolerance, 409 after a reversal', async () => {
    h.start({ strictCaptures: true });
    const approval = await delivered(50_000);
    const a = hold(approval, 10_000);
    expect(() => h.mock.authorizations.capture(a.id, 11_501)).toThrow(ProblemError);
    h.mock.authorizations.reverse(a.id);
    const error = (() => {
      try {
        h.mock.authorizations.capture(a.id);
      } catch (e) {
        return e as ProblemError;
      }
    })();
    expect({ status: error?.status, code: error?.code }).toEqual({ status: 409, code: 'AUTHORIZATION_NOT_PENDING' });
  });
});

describe('an unlinked refund (a merchant credit without a purchase)', () => {
  it('over HTTP: POST /__mock/cards/{id}/refund answers 201 with the credit; another currency is 422', async () => {
    const approval = await delivered(50_000);
    const before = corporate();
    const res = await send('POST', `/__mock/cards/${approval.card.id}/refund`, {
      body: { amount: 1_234, currency: 'EUR', merchant: 'Returns desk' },
    });
    expect(res.status).toBe(201);
    expect(await res.json()).toMatchObject({ state: 'REFUNDED', refunded: 1_234, captured: 0, authorized: 0 });
    expect(corporate()).toEqual({
      ...before,
      available: before.available + 1_234,
      funded: before.funded + 1_234,
    });
    const wrong = await send('POST', `/__mock/cards/${approval.card.id}/refund`, {
      body: { amount: 1, currency: 'USD', merchant: 'Returns desk' },
    });
    expect(wrong.status).toBe(422);
    expect((await figures(approval)).spent).toBe(0);
  });
});
