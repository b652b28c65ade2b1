/**
 * The money rules at their edges, where one minor unit decides: a budget at its bounds; a capture at exactly the hold
 * + 15 % or exactly what remains (an ordinary capture) and one unit above (forced, or refused with strictCaptures); the
 * default capture of a hold a partial reversal lowered; what a refused step says; a merchant's credit as a record and
 * an event; authorizations listed by the approval instance they were made under; a card not yet active declines.
 */
import { describe, expect, it } from 'vitest';
import {
  chargeDraft,
  completeDraft,
  createApproval,
  createCard,
  getApproval,
  increaseApprovalBudget,
} from '../../sdk/generated/sdk.gen';
import type { Approval, Draft } from '../../sdk/generated/types.gen';
import { ProblemError, type MockEvent } from '../../mock-server/src/index';
import { fund, makeApproval, makeBusinessUser, makeUser } from './flows';
import { DAY, mockHarness, ok } from './helpers';

const h = mockHarness();

async function delivered(budget: number): Promise<Approval> {
  const user = await makeBusinessUser(h.client, h.mock, true);
  return fetchApproval(await makeApproval(h.client, h.mock, user.userUuid, { budget, toDays: 30 }));
}

/** The approval as the API answers it now. */
async function fetchApproval(a: Pick<Approval, 'corporateUuid' | 'approvalUuid'>): Promise<Approval> {
  return ok(
    await getApproval({ client: h.client, path: { corporateUuid: a.corporateUuid, approvalUuid: a.approvalUuid } }),
  );
}

const hold = (a: Approval, amount: number) =>
  h.mock.cards.authorize(a.card.id, { amount, currency: 'EUR', merchant: 'Grand Hotel', capture: false });

/** A free virtual card of a Server2Server user (ACTIVE at once). */
async function virtualCard(userId: string) {
  const config = h.mock.fixtures().cardConfigs.find((x) => x.type === 'VIRTUAL' && x.price === null)!;
  const card = ok(
    await createCard({
      client: h.client,
      path: { userId },
      body: { configId: config.configId, visualId: config.visualIds[0]! },
    }),
  );
  if (card.object !== 'card') throw new Error('expected a card');
  return card;
}

function refused(action: () => unknown): ProblemError {
  try {
    action();
  } catch (error) {
    expect(error).toBeInstanceOf(ProblemError);
    return error as ProblemError;
  }
  throw new Error('expected a ProblemError, but the control call succeeded');
}

describe('a budget at its bounds (1.00 to 1,000,000.00)', () => {
  it('100 and 100,000,000 minor units are budgets; 99 and 100,000,001 are 422 BUDGET_OUT_OF_BOUNDS, saying the bounds', async () => {
    const user = await makeBusinessUser(h.client, h.mock, true);
    const corporate = h.mock.fixtures().corporates[0]!;
    expect(corporate.balance.amount).toBe(100_000_000);
    const now = h.mock.clock.now().getTime();
    const create = (amount: number, currency = 'EUR') =>
      createApproval({
        client: h.client,
        path: { corporateUuid: corporate.corporateUuid },
        body: {
          userUuid: user.userUuid,
          budget: { amount, currency },
          validFrom: new Date(now).toISOString(),
          validTo: new Date(now + 30 * DAY * 1000).toISOString(),
        },
      });
    for (const amount of [99, 100_000_001]) {
      expect((await create(amount)).error).toMatchObject({
        status: 422,
        code: 'BUDGET_OUT_OF_BOUNDS',
        detail: `The budget is ${amount} minor units; it must be 100 to 100000000.`,
      });
    }
    expect((await create(100, 'USD')).error).toMatchObject({
      code: 'CURRENCY_MISMATCH',
      detail: 'budget is in USD; the corporate balance is in EUR.',
    });
    expect(ok(await create(100)).budget.amount).toBe(100);
    // The whole balance less the 1.00 just reserved: within the bounds, short of funds by that 1.00.
    expect((await create(100_000_000)).error).toMatchObject({
      code: 'INSUFFICIENT_FUNDS',
      detail: 'The corporate balance holds 99999900 EUR minor units available; 100000000 are needed.',
    });
    expect(ok(await create(100_000_000 - 100)).budget.amount).toBe(99_999_900);
  });
});

describe('a capture at the edge of the tolerance and of what remains', () => {
  it('exactly the hold + 15 % or exactly what remains is an ordinary capture; one minor unit more is forced', async () => {
    const wide = await delivered(50_000);
    expect(h.mock.authorizations.capture(hold(wide, 1_000).id, 1_150).steps.at(-1)).toMatchObject({ kind: 'capture' });
    expect(h.mock.authorizations.capture(hold(wide, 1_000).id, 1_151).steps.at(-1)).toMatchObject({
      kind: 'forcedCapture',
      forced: 'ABOVE_TOLERANCE',
    });
    // 9,000 held of 10,000: 1,000 remains, and 10,000 is within the tolerance (10,350).
    const narrow = await delivered(10_000);
    expect(h.mock.authorizations.capture(hold(narrow, 9_000).id, 10_000).steps.at(-1)).toMatchObject({
      kind: 'capture',
    });
    const narrower = await delivered(10_000);
    expect(h.mock.authorizations.capture(hold(narrower, 9_000).id, 10_001).steps.at(-1)).toMatchObject({
      kind: 'forcedCapture',
      forced: 'ABOVE_REMAINING',
    });
  });

  it('strictCaptures: exactly what remains is captured; one minor unit more is 422 INSUFFICIENT_FUNDS, saying what remains', async () => {
    h.start({ strictCaptures: true });
    const approval = await delivered(10_000);
    expect(h.mock.authorizations.capture(hold(approval, 9_000).id, 10_000)).toMatchObject({
      state: 'CLEARED',
      captured: 10_000,
    });
    const other = await delivered(10_000);
    const error = refused(() => h.mock.authorizations.capture(hold(other, 9_000).id, 10_001));
    expect(error).toMatchObject({
      status: 422,
      code: 'INSUFFICIENT_FUNDS',
      detail: 'The 1001 captured above the hold exceed what remains (1000).',
    });
  });

  it('a capture without an amount takes what is still held, after a partial reversal too', async () => {
    const approval = await delivered(50_000);
    const a = hold(approval, 10_000);
    h.mock.authorizations.reverse(a.id, 4_000);
    const captured = h.mock.authorizations.capture(a.id);
    expect(captured).toMatchObject({ state: 'CLEARED', authorized: 10_000, captured: 6_000 });
    expect(captured.steps.at(-1)).toMatchObject({ kind: 'capture', amount: 6_000 });
  });
});

describe('a hold expires 7 days after it was made', () => {
  it('raised or partly reversed on the way, it still expires then, and gives back what it held', async () => {
    const approval = await delivered(50_000);
    const raised = hold(approval, 1_000);
    const lowered = hold(approval, 2_000);
    h.mock.clock.advance(DAY);
    expect(h.mock.authorizations.increment(raised.id, 500)).toMatchObject({ state: 'PENDING', held: 1_500 });
    expect(h.mock.authorizations.reverse(lowered.id, 500)).toMatchObject({
      state: 'PENDING',
      held: 1_500,
      expiresAt: lowered.expiresAt,
    });
    h.mock.clock.advance(6 * DAY);
    const states = () => h.mock.authorizations({ cardId: approval.card.id }).map((a) => [a.state, a.held]);
    expect(states()).toEqual([
      ['EXPIRED', 0],
      ['EXPIRED', 0],
    ]);
    expect(await fetchApproval(approval)).toMatchObject({
      held: { amount: 0 },
      remaining: { amount: 50_000 },
    });
  });
});

describe('where the money of a step comes from', () => {
  it("a forced capture leaves the approval's other holds reserved; what it takes beyond them comes from available", async () => {
    const approval = await delivered(10_000);
    const a = hold(approval, 4_000);
    hold(approval, 5_000);
    const before = h.mock.fixtures().corporates[0]!;
    // 7,000 is above 4,000 + 15 %: forced. The approval's reservation gives all but the 5,000 still held.
    expect(h.mock.authorizations.capture(a.id, 7_000).steps.at(-1)).toMatchObject({ forced: 'ABOVE_TOLERANCE' });
    const after = h.mock.fixtures().corporates[0]!;
    expect({ reserved: after.reserved.amount, held: after.held.amount }).toEqual({
      reserved: before.reserved.amount - 5_000,
      held: before.held.amount - 4_000,
    });
    expect(after.balance.amount).toBe(before.balance.amount - 2_000);
    expect(after.spent.amount).toBe(before.spent.amount + 7_000);
    // Spent 7,000 and 5,000 still held of a 10,000 budget: overspent by 2,000, nothing remains.
    const now = await fetchApproval(approval);
    expect({ overspent: now.overspent.amount, remaining: now.remaining.amount }).toEqual({
      overspent: 2_000,
      remaining: 0,
    });
  });

  it('a Server2Server capture above the hold, within the tolerance and the balance, is an ordinary capture', async () => {
    const { user, balanceId } = await makeUser(h.client, h.mock);
    const credited = await fund(h.client, h.mock, user.id, balanceId, '100');
    const card = await virtualCard(user.id);
    const a = h.mock.cards.authorize(card.id, { amount: 1_000, currency: 'EUR', merchant: 'Fuel', capture: false });
    expect(h.mock.authorizations.capture(a.id, 1_100).steps.at(-1)).toEqual(
      expect.objectContaining({ kind: 'capture', amount: 1_100 }),
    );
    expect(h.mock.snapshot().balances[balanceId]!.available).toBe(credited - 1_100);
  });

  it("each step stamps the updatedAt of the approval it moves, or of the Server2Server card's balance", async () => {
    const approval = await delivered(50_000);
    const stamp = async () => (await fetchApproval(approval)).updatedAt;
    const later = () => {
      h.mock.clock.advance(3600);
      return h.mock.clock.now().toISOString();
    };
    let at = later();
    const a = hold(approval, 1_000);
    expect(await stamp()).toBe(at);
    at = later();
    h.mock.authorizations.reverse(a.id, 100);
    expect(await stamp()).toBe(at);
    at = later();
    h.mock.authorizations.capture(a.id);
    expect(await stamp()).toBe(at);
    at = later();
    h.mock.authorizations.refund(a.id);
    expect(await stamp()).toBe(at);

    const { user, balanceId } = await makeUser(h.client, h.mock);
    await fund(h.client, h.mock, user.id, balanceId, '100');
    const card = await virtualCard(user.id);
    at = later();
    h.mock.cards.authorize(card.id, { amount: 1_000, currency: 'EUR', merchant: 'Fuel', capture: false });
    expect(h.mock.snapshot().balances[balanceId]!.updatedAt).toBe(at);
  });
});

describe('a refused step says what was refused', () => {
  it('409 names the operation; 422 says the amount and the limit; 404 names the authorization', async () => {
    const approval = await delivered(50_000);
    const a = hold(approval, 6_000);
    expect(refused(() => h.mock.authorizations.reverse(a.id, 6_001))).toMatchObject({
      code: 'AMOUNT_EXCEEDS_AUTHORIZATION',
      detail: 'A reversal of 6001 exceeds the hold of 6000.',
    });
    h.mock.authorizations.capture(a.id, 5_000);
    expect(refused(() => h.mock.authorizations.refund(a.id, 5_001))).toMatchObject({
      code: 'AMOUNT_EXCEEDS_AUTHORIZATION',
      detail: 'A refund of 5001 exceeds what is left to refund (5000).',
    });
    expect(refused(() => h.mock.authorizations.increment(a.id, 1)).extras).toEqual({
      currentStatus: 'CLEARED',
      operation: 'incrementAuthorization',
    });
    expect(refused(() => h.mock.authorizations.reverse(a.id)).extras).toEqual({
      currentStatus: 'CLEARED',
      operation: 'reverseAuthorization',
    });
    const unknown = '00000000-0000-4000-8000-000000000000';
    expect(refused(() => h.mock.authorizations.capture(unknown))).toMatchObject({
      status: 404,
      detail: `No authorization ${unknown}.`,
    });
  });
});

describe("a merchant's credit without a purchase", () => {
  it('is an approved authorization, REFUNDED at once, of the amount, with an authorization.credited event', async () => {
    const approval = await delivered(50_000);
    const events: MockEvent[] = [];
    const stop = h.mock.subscribe((e) => {
      if (e.kind === 'event') events.push(e.event);
    });
    const credit = h.mock.cards.refund(approval.card.id, { amount: 1_234, currency: 'EUR', merchant: 'Returns' });
    stop();
    expect(credit).toMatchObject({
      status: 'APPROVED',
      state: 'REFUNDED',
      amount: { amount: 1_234, currency: 'EUR' },
      merchant: 'Returns',
      refunded: 1_234,
      balanceId: null,
      approvalUuid: approval.approvalUuid,
    });
    expect(events).toEqual([
      expect.objectContaining({
        type: 'authorization.credited',
        authorizationId: credit.id,
        amount: { amount: 1_234, currency: 'EUR' },
        from: 'REFUNDED',
        to: 'REFUNDED',
      }),
    ]);
  });

  it('on a Server2Server card, in a currency the user holds no balance in, is 422 CURRENCY_MISMATCH', async () => {
    const { user } = await makeUser(h.client, h.mock);
    const card = await virtualCard(user.id);
    expect(refused(() => h.mock.cards.refund(card.id, { amount: 1, currency: 'USD', merchant: 'Fuel' }))).toMatchObject(
      {
        status: 422,
        code: 'CURRENCY_MISMATCH',
        detail: 'The card cannot be credited in USD.',
      },
    );
  });
});

describe('authorizations, and the events of a purchase', () => {
  it('are listed by the approval instance they were made under, which a reapproval does not change', async () => {
    const approval = await delivered(10_000);
    const first = hold(approval, 1_000);
    const successor = ok(
      await increaseApprovalBudget({
        client: h.client,
        path: { corporateUuid: approval.corporateUuid, approvalUuid: approval.approvalUuid },
        body: { additionalBudget: { amount: 5_000, currency: 'EUR' } },
      }),
    );
    const second = hold(approval, 2_000);
    const ids = (filter: Parameters<typeof h.mock.authorizations>[0]) => h.mock.authorizations(filter).map((a) => a.id);
    expect(ids({ cardId: approval.card.id })).toEqual([first.id, second.id]);
    expect(ids({ approvalUuid: approval.approvalUuid })).toEqual([first.id]);
    expect(ids({ approvalUuid: successor.approvalUuid })).toEqual([second.id]);
    expect(ids({ approvalUuid: successor.approvalUuid, cardId: approval.card.id })).toEqual([second.id]);
    expect(ids({ approvalUuid: successor.approvalUuid, cardId: '00000000-0000-4000-8000-000000000001' })).toEqual([]);
    expect(ids({ approvalUuid: '00000000-0000-4000-8000-000000000000' })).toEqual([]);
  });

  it('an approved purchase and a declined one each tell the observer, with the amount', async () => {
    const approval = await delivered(1_000);
    const events: MockEvent[] = [];
    const stop = h.mock.subscribe((e) => {
      if (e.kind === 'event') events.push(e.event);
    });
    const approved = hold(approval, 600);
    const declined = hold(approval, 600);
    stop();
    expect(events).toEqual([
      expect.objectContaining({
        type: 'authorization.approved',
        authorizationId: approved.id,
        amount: { amount: 600, currency: 'EUR' },
        reason: null,
      }),
      expect.objectContaining({
        type: 'authorization.declined',
        authorizationId: declined.id,
        amount: { amount: 600, currency: 'EUR' },
        reason: 'BUDGET_EXCEEDED',
      }),
    ]);
  });

  it('a Server2Server physical card ordered but not yet activated declines CARD_NOT_ACTIVE', async () => {
    const { user, balanceId } = await makeUser(h.client, h.mock);
    await fund(h.client, h.mock, user.id, balanceId, '100');
    const config = h.mock.fixtures().cardConfigs.find((x) => x.type === 'PHYSICAL')!;
    const draft = ok(
      await createCard({
        client: h.client,
        path: { userId: user.id },
        body: { configId: config.configId, visualId: config.visualIds[0]! },
      }),
    ) as Draft;
    ok(await chargeDraft({ client: h.client, path: { cardId: draft.cardId } }));
    const card = ok(await completeDraft({ client: h.client, path: { cardId: draft.cardId } }));
    expect(card).toMatchObject({ status: 'ORDERED' });
    const auth = h.mock.cards.authorize(draft.cardId, { amount: 100, currency: 'EUR', merchant: 'Fuel' });
    expect(auth).toMatchObject({ status: 'DECLINED', declineReason: 'CARD_NOT_ACTIVE', held: 0 });
  });
});
