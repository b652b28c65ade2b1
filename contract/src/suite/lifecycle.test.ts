/**
 * The lifecycle the interface document implies, beyond its transition table: a change request the corporation
 * accepts (it takes over the live instance, which becomes REAPPROVED), at most one pending per approval and ended
 * with its approval; an approval never DELIVERED ends EXPIRED at validTo and releases its budget; the card exists
 * from creation and is generated (number, expiry) at validFrom; card transactions approved or declined with a reason,
 * with spent and remaining budgets and the corporate ledger funded = available + reserved + spent.
 *
 * Everything here needs the mock's control API (registration, change requests, time, purchases) but the shape of
 * a new approval's card, which any server is checked for.
 */
import { describe, expect, it } from './support/test';
import { generateCardKeyPair, type Approval } from 'card-issuing-sdk';
import { ControlError, type MockControl } from 'card-issuing-mock/control';
import { businessApproval } from './support/actors';
import { expectRefusal, newBusinessUser, useContract, type Contract } from './support/harness';

const contract = useContract(import.meta.url);
const DAY = 24 * 3600;

const get = (c: Contract, a: Approval) => c.client.corporates.approvals.get(a.corporateUuid, a.approvalUuid);

/** The corporate's figures, after checking its ledger: funded = available + reserved + spent, nothing below zero. */
async function ledger(
  control: MockControl,
  corporateUuid: string,
): Promise<{ available: number; reserved: number; spent: number }> {
  const c = (await control.fixtures()).corporates.find((x) => x.corporateUuid === corporateUuid)!;
  expect(
    c.balance.amount + c.reserved.amount + c.spent.amount,
    'the corporate ledger: funded = available + reserved + spent',
  ).toBe(c.funded.amount);
  expect(c.balance.amount).toBeGreaterThanOrEqual(0);
  return { available: c.balance.amount, reserved: c.reserved.amount, spent: c.spent.amount };
}

/** Expects a control action to be refused with `status` and `code` (and for 409s, the status and operation named). */
async function expectControlRefusal(
  action: Promise<unknown>,
  expected: { status: number; code: string; currentStatus?: string; operation?: string },
) {
  const error = await action.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error, `expected ${expected.status} ${expected.code}, but the mock allowed it`).toBeInstanceOf(ControlError);
  const refusal = error as ControlError;
  const actual: Record<string, unknown> = { status: refusal.status, code: refusal.code };
  if (expected.currentStatus) actual.currentStatus = refusal.problem?.currentStatus;
  if (expected.operation) actual.operation = refusal.problem?.operation;
  expect(actual).toEqual(expected);
}

/** A DELIVERED approval: a registered user, valid from now for 30 days. */
async function delivered(
  c: Contract,
  control: MockControl,
  corporate: { corporateUuid: string; currency: string },
  budget = 50_000,
) {
  const { user, approval } = await businessApproval(c, corporate, { budget });
  await control.completeRegistration(user.userUuid);
  const now = await get(c, approval);
  expect(now.status).toBe('DELIVERED');
  return { user, approval: now };
}

describe('the card exists from creation and is generated when DELIVERED', () => {
  it("a new approval's card has an id, type and INACTIVE status, and no number or expiry yet", async (context) => {
    const corporate = await contract.corporate(context);
    const { approval } = await businessApproval(contract, corporate);
    expect(approval.card).toMatchObject({
      object: 'card',
      status: 'INACTIVE',
      last4: null,
      expiryMonth: null,
      expiryYear: null,
      generatedAt: null,
    });
    expect(approval.card.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(approval).toMatchObject({
      statusReason: null,
      spent: { amount: 0 },
      remaining: { amount: approval.budget.amount },
      change: null,
    });
  });

  it('registered before validFrom: PREPARED with the card not generated; at validFrom it is generated, ACTIVE, and its details served', async (context) => {
    const own = await contract.isolated(context);
    const control = own.control(context);
    const corporate = await own.corporate(context);
    const { user, approval } = await businessApproval(own, corporate, { startInDays: 2 });
    await control.completeRegistration(user.userUuid);
    expect(await get(own, approval)).toMatchObject({
      status: 'PREPARED',
      card: { status: 'INACTIVE', last4: null, generatedAt: null },
    });
    await control.advanceClock(2 * DAY);
    const generated = await get(own, approval);
    expect(generated).toMatchObject({
      status: 'DELIVERED',
      card: { status: 'ACTIVE', generatedAt: approval.validFrom },
    });
    const details = await own.client.corporates.approvals.getDetails(corporate.corporateUuid, approval.approvalUuid, {
      keyPair: await generateCardKeyPair(),
    });
    expect(details.pan.endsWith(generated.card.last4!)).toBe(true);
    expect({ month: details.expiryMonth, year: details.expiryYear }).toEqual({
      month: generated.card.expiryMonth,
      year: generated.card.expiryYear,
    });
  });
});

describe('every approval ends: one never DELIVERED is EXPIRED at validTo', () => {
  it('EXPIRED with NOT_DELIVERED_BY_VALID_TO after validTo, its budget released, its card CLOSED and never generated; registering later changes nothing', async (context) => {
    const own = await contract.isolated(context);
    const control = own.control(context);
    const corporate = await own.corporate(context);
    const before = await ledger(control, corporate.corporateUuid);
    const { user, approval } = await businessApproval(own, corporate, { budget: 40_000 });
    expect((await ledger(control, corporate.corporateUuid)).reserved).toBe(before.reserved + 40_000);
    await control.advanceClock(30 * DAY + 60);
    expect(await get(own, approval), 'not delivered by validTo: EXPIRED').toMatchObject({
      status: 'EXPIRED',
      statusReason: 'NOT_DELIVERED_BY_VALID_TO',
      remaining: { amount: 0 },
      card: { status: 'CLOSED', last4: null, generatedAt: null },
    });
    expect(await ledger(control, corporate.corporateUuid), 'the budget is released').toEqual(before);
    await control.completeRegistration(user.userUuid);
    expect((await get(own, approval)).status).toBe('EXPIRED');
  });
});

describe('change requests are accepted, one at a time, and end with their approval', () => {
  it('accepting a change of a DELIVERED approval: the change takes over status, card, reservation and spending plus the budget it adds; the old instance is REAPPROVED', async (context) => {
    const control = contract.control(context);
    const corporate = await contract.corporate(context);
    const { approval } = await delivered(contract, control, corporate, 50_000);
    expect(
      await control.authorize(approval.card.id, { amount: 5_000, currency: corporate.currency, merchant: 'Cafe' }),
    ).toMatchObject({ status: 'APPROVED' });
    const change = await control.requestChange(corporate.corporateUuid, approval.approvalUuid, {
      additionalBudget: { amount: 10_000, currency: corporate.currency },
      pinUpdate: true,
    });
    expect(change).toMatchObject({
      status: 'CREATED',
      remaining: { amount: 0 },
      change: { additionalBudget: { amount: 10_000 }, pinUpdate: true },
    });
    const before = await ledger(control, corporate.corporateUuid);
    const accepted = await control.acceptChange(corporate.corporateUuid, change.approvalUuid);
    expect(accepted).toMatchObject({
      approvalUuid: change.approvalUuid,
      status: 'DELIVERED',
      expiresAt: null,
      budget: { amount: 60_000 },
      spent: { amount: 5_000 },
      remaining: { amount: 55_000 },
      card: { id: approval.card.id, status: 'ACTIVE', last4: approval.card.last4 },
    });
    expect(await get(contract, approval)).toMatchObject({
      status: 'REAPPROVED',
      statusReason: 'REPLACED',
      replacedByApprovalUuid: change.approvalUuid,
      remaining: { amount: 0 },
    });
    expect(await ledger(control, corporate.corporateUuid)).toEqual({
      ...before,
      available: before.available - 10_000,
      reserved: before.reserved + 10_000,
    });
    await expectRefusal(
      contract.client.corporates.approvals.getDetails(corporate.corporateUuid, approval.approvalUuid, {
        keyPair: await generateCardKeyPair(),
      }),
      {
        status: 409,
        code: 'APPROVAL_NOT_DELIVERED',
        currentStatus: 'REAPPROVED',
      },
    );
  });
});

describe('change requests: one at a time, and ending with their approval', () => {
  it('at most one pending change per approval: a second is 409 CHANGE_ALREADY_PENDING; accepting what is not a CREATED change is 409 naming its status', async (context) => {
    const control = contract.control(context);
    const corporate = await contract.corporate(context);
    const { approval } = await businessApproval(contract, corporate);
    const change = await control.requestChange(corporate.corporateUuid, approval.approvalUuid);
    await expectControlRefusal(control.requestChange(corporate.corporateUuid, approval.approvalUuid), {
      status: 409,
      code: 'CHANGE_ALREADY_PENDING',
    });
    await expectControlRefusal(control.acceptChange(corporate.corporateUuid, approval.approvalUuid), {
      status: 409,
      code: 'INVALID_TRANSITION',
      currentStatus: 'ACCEPTED',
      operation: 'acceptApprovalChange',
    });
    await control.rejectApproval(corporate.corporateUuid, change.approvalUuid);
    await expectControlRefusal(control.acceptChange(corporate.corporateUuid, change.approvalUuid), {
      status: 409,
      code: 'INVALID_TRANSITION',
      currentStatus: 'REJECTED',
      operation: 'acceptApprovalChange',
    });
    expect(
      (await control.requestChange(corporate.corporateUuid, approval.approvalUuid)).status,
      'once decided, another may be asked',
    ).toBe('CREATED');
  });

  it('a pending change ends CANCELED (CHANGED_APPROVAL_ENDED) when the corporation replaces its approval (increase-budget) or cancels it', async (context) => {
    const control = contract.control(context);
    const corporate = await contract.corporate(context);
    const { approval } = await businessApproval(contract, corporate);
    const change = await control.requestChange(corporate.corporateUuid, approval.approvalUuid);
    const reapproval = await contract.client.corporates.approvals.increaseBudget(
      corporate.corporateUuid,
      approval.approvalUuid,
      { additionalBudget: { amount: 1_000, currency: corporate.currency } },
    );
    expect(await get(contract, change)).toMatchObject({ status: 'CANCELED', statusReason: 'CHANGED_APPROVAL_ENDED' });
    const second = await control.requestChange(corporate.corporateUuid, reapproval.approvalUuid);
    await control.cancelApproval(corporate.corporateUuid, reapproval.approvalUuid);
    expect(await get(contract, second)).toMatchObject({ status: 'CANCELED', statusReason: 'CHANGED_APPROVAL_ENDED' });
    await ledger(control, corporate.corporateUuid);
  });
});

describe('a pending change whose approval ends by time expires undecided', () => {
  it("its approval FINISHED at validTo, or EXPIRED undelivered: the change is EXPIRED (CHANGE_NOT_DECIDED), not CANCELED, which is the corporation's act", async (context) => {
    const own = await contract.isolated(context);
    const control = own.control(context);
    const corporate = await own.corporate(context);
    const { approval: live } = await delivered(own, control, corporate);
    const { approval: undelivered } = await businessApproval(own, corporate);
    // Asked a day before validTo: the changes' own expiresAt (72 h) would come later; their approvals end first.
    await control.advanceClock(29 * DAY);
    const late = [
      await control.requestChange(corporate.corporateUuid, live.approvalUuid),
      await control.requestChange(corporate.corporateUuid, undelivered.approvalUuid),
    ];
    await control.advanceClock(DAY + 60);
    expect(await get(own, live), 'validTo passed while DELIVERED').toMatchObject({ status: 'FINISHED' });
    expect(await get(own, undelivered), 'validTo passed while ACCEPTED').toMatchObject({
      status: 'EXPIRED',
      statusReason: 'NOT_DELIVERED_BY_VALID_TO',
    });
    for (const change of late) {
      expect(await get(own, change), 'a change whose approval ended by time: EXPIRED, undecided').toMatchObject({
        status: 'EXPIRED',
        statusReason: 'CHANGE_NOT_DECIDED',
      });
    }
  });
});

describe('card transactions: purchases approved or declined with a reason', () => {
  it('approves within the remaining budget and declines over it, in another currency, on a LOCKED card, on an approval not DELIVERED', async (context) => {
    const control = contract.control(context);
    const corporate = await contract.corporate(context);
    const { approval } = await delivered(contract, control, corporate, 20_000);
    const buy = (amount: number, currency = corporate.currency) =>
      control.authorize(approval.card.id, { amount, currency, merchant: 'Shop' });
    const before = await ledger(control, corporate.corporateUuid);
    expect(await buy(15_000)).toMatchObject({
      status: 'APPROVED',
      declineReason: null,
      approvalUuid: approval.approvalUuid,
    });
    expect(await get(contract, approval)).toMatchObject({ spent: { amount: 15_000 }, remaining: { amount: 5_000 } });
    expect(await ledger(control, corporate.corporateUuid)).toEqual({
      available: before.available,
      reserved: before.reserved - 15_000,
      spent: before.spent + 15_000,
    });
    expect(await buy(5_001)).toMatchObject({ status: 'DECLINED', declineReason: 'BUDGET_EXCEEDED' });
    expect(await buy(100, corporate.currency === 'USD' ? 'EUR' : 'USD')).toMatchObject({
      status: 'DECLINED',
      declineReason: 'CURRENCY_MISMATCH',
    });
    await control.lockCard(approval.card.id);
    expect(await buy(100)).toMatchObject({ status: 'DECLINED', declineReason: 'CARD_LOCKED' });
    const { approval: accepted } = await businessApproval(contract, corporate, {
      user: await contract.client.corporates.users.create(newBusinessUser()),
    });
    expect(
      await control.authorize(accepted.card.id, { amount: 1, currency: corporate.currency, merchant: 'Shop' }),
    ).toMatchObject({ status: 'DECLINED', declineReason: 'APPROVAL_NOT_DELIVERED' });
    expect(await get(contract, approval), 'declines take nothing').toMatchObject({
      spent: { amount: 15_000 },
      remaining: { amount: 5_000 },
    });
  });
});

describe('card transactions: the budget left, and bad purchases', () => {
  it('FINISHED releases only what is left of the budget; what was spent stays spent', async (context) => {
    const own = await contract.isolated(context);
    const control = own.control(context);
    const corporate = await own.corporate(context);
    const before = await ledger(control, corporate.corporateUuid);
    const { user, approval } = await businessApproval(own, corporate, { budget: 30_000 });
    await control.completeRegistration(user.userUuid);
    await control.authorize(approval.card.id, { amount: 12_000, currency: corporate.currency, merchant: 'Hotel' });
    await control.advanceClock(30 * DAY + 60);
    expect(await get(own, approval)).toMatchObject({
      status: 'FINISHED',
      statusReason: 'VALIDITY_ENDED',
      spent: { amount: 12_000 },
      remaining: { amount: 0 },
    });
    expect(await ledger(control, corporate.corporateUuid)).toEqual({
      available: before.available - 12_000,
      reserved: before.reserved,
      spent: before.spent + 12_000,
    });
    expect(
      await control.authorize(approval.card.id, { amount: 1, currency: corporate.currency, merchant: 'Hotel' }),
    ).toMatchObject({ declineReason: 'APPROVAL_NOT_DELIVERED' });
  });

  it('a bad purchase is 400 VALIDATION_FAILED naming each field; an unknown card 404', async (context) => {
    contract.control(context);
    const bad = await contract.send({
      method: 'POST',
      path: '/__mock/cards/00000000-0000-4000-8000-000000000000/authorize',
      sign: false,
      body: { amount: -5, currency: 'eur' },
    });
    expect(bad.status).toBe(400);
    expect((bad.body as { errors: { path: string }[] }).errors.map((e) => e.path).sort()).toEqual([
      'body.amount',
      'body.currency',
      'body.merchant',
    ]);
    const unknown = await contract.send({
      method: 'POST',
      path: '/__mock/cards/00000000-0000-4000-8000-000000000000/authorize',
      sign: false,
      body: { amount: 5, currency: 'EUR', merchant: 'X' },
    });
    expect(unknown.status).toBe(404);
  });
});
