/**
 * The approval table of the interface document (section 3), driven over HTTP: every transition, each refused
 * one as 409 naming the current status and the operation, budgets reserved and released, card lock/unlock and
 * card details only while DELIVERED.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import {
  createApproval,
  getApproval,
  getApprovalCardDetails,
  increaseApprovalBudget,
  listCards,
  listUserApprovals,
} from '../../sdk/generated/sdk.gen';
import type { Approval, ApprovalStatus } from '../../sdk/generated/types.gen';
import { zApprovalStatus, zProblem } from '../../sdk/generated/zod.gen';
import { decryptCardDetails } from '../../sdk/src/card-details/decrypt';
import { exportPublicKey, generateCardKeyPair } from '../../sdk/src/card-details/keys';
import { isLuhnValid } from '../../sdk/src/luhn';
import type { CardKeyPair } from '../../sdk/src/card-details/types';
import { makeApproval, makeBusinessUser } from './flows';
import { DAY, expectError, expectProblem, mockHarness, ok, send, responseOf } from './helpers';

const h = mockHarness();
const corporate = () => h.mock.fixtures().corporates[0]!;
const fetchApproval = async (a: Approval) =>
  ok(await getApproval({ client: h.client, path: { corporateUuid: a.corporateUuid, approvalUuid: a.approvalUuid } }));
/** A control action over HTTP, as an integrator's test (or front end) does it. */
const control = (a: Approval, action: 'cancel' | 'reject' | 'request-change', body?: object) =>
  send('POST', `/__mock/corporates/${a.corporateUuid}/approvals/${a.approvalUuid}/${action}`, {
    sign: false,
    ...(body ? { body } : {}),
  });
const increase = (a: Approval, amount: number, currency = 'EUR') =>
  increaseApprovalBudget({
    client: h.client,
    path: { corporateUuid: a.corporateUuid, approvalUuid: a.approvalUuid },
    body: { additionalBudget: { amount, currency } },
  });

/** Checks the corporate invariant: funded = available + reserved, nothing below zero. */
function expectCorporateBalanced() {
  for (const c of h.mock.fixtures().corporates) {
    expect(c.balance.amount).toBeGreaterThanOrEqual(0);
    expect(c.balance.amount + c.reserved.amount).toBe(c.funded.amount);
  }
}

/** An approval instance brought to `status` through the operations and control actions that lead there. */
async function reach(status: ApprovalStatus): Promise<Approval> {
  const user = await makeBusinessUser(h.client, h.mock);
  const accepted = await makeApproval(h.client, h.mock, user.userUuid, { toDays: 10 });
  switch (status) {
    case 'ACCEPTED':
      return accepted;
    case 'PREPARED': {
      const later = await makeApproval(h.client, h.mock, user.userUuid, { fromDays: 2, toDays: 10 });
      h.mock.users.completeRegistration(user.userUuid);
      return fetchApproval(later);
    }
    case 'DELIVERED':
      h.mock.users.completeRegistration(user.userUuid);
      return fetchApproval(accepted);
    case 'FINISHED':
      h.mock.users.completeRegistration(user.userUuid);
      h.mock.clock.advance(11 * DAY);
      return fetchApproval(accepted);
    case 'REAPPROVED':
      ok(await increase(accepted, 1000));
      return fetchApproval(accepted);
    case 'CANCELED':
      h.mock.approvals.cancel(accepted.corporateUuid, accepted.approvalUuid);
      return fetchApproval(accepted);
    case 'CREATED':
      return h.mock.approvals.requestChange(accepted.corporateUuid, accepted.approvalUuid);
    case 'REJECTED': {
      const created = h.mock.approvals.requestChange(accepted.corporateUuid, accepted.approvalUuid);
      h.mock.approvals.reject(created.corporateUuid, created.approvalUuid);
      return fetchApproval(created);
    }
    case 'EXPIRED': {
      const created = h.mock.approvals.requestChange(accepted.corporateUuid, accepted.approvalUuid);
      h.mock.clock.advance(73 * 3600);
      return fetchApproval(created);
    }
  }
}

const ALL: readonly ApprovalStatus[] = zApprovalStatus.options;

describe('creation: (none) → ACCEPTED', () => {
  it('returns the approval ACCEPTED with an INACTIVE card, and reserves the budget', async () => {
    const before = corporate();
    const user = await makeBusinessUser(h.client, h.mock);
    const response = await createApproval({
      client: h.client,
      path: { corporateUuid: before.corporateUuid },
      body: {
        userUuid: user.userUuid,
        budget: { amount: 50_000, currency: 'EUR' },
        validFrom: '2026-11-21T09:00:00Z',
        validTo: '2026-12-31T23:59:59Z',
      },
    });
    expect(responseOf(response).status).toBe(201);
    const approval = ok(response);
    expect(approval).toMatchObject({
      status: 'ACCEPTED',
      previousApprovalUuid: null,
      replacedByApprovalUuid: null,
      expiresAt: null,
    });
    expect(approval.card).toMatchObject({
      status: 'INACTIVE',
      type: 'VIRTUAL',
      userId: user.userUuid,
      cardholderName: 'GRACE HOPPER',
      configId: null,
    });
    const after = corporate();
    expect(after.balance.amount).toBe(before.balance.amount - 50_000);
    expect(after.reserved.amount).toBe(50_000);
    expectCorporateBalanced();
  });

  it('an approval for an already registered user is ACCEPTED in the response and DELIVERED afterwards (the card is issued after the response)', async () => {
    const user = await makeBusinessUser(h.client, h.mock, true);
    const approval = await makeApproval(h.client, h.mock, user.userUuid);
    expect(approval.status).toBe('ACCEPTED');
    const later = await fetchApproval(approval);
    expect(later.status).toBe('DELIVERED');
    expect(later.card.status).toBe('ACTIVE');
  });

  it.each([
    ['below 1.00', 99, 'EUR', 'BUDGET_OUT_OF_BOUNDS'],
    ['above 1,000,000.00', 100_000_001, 'EUR', 'BUDGET_OUT_OF_BOUNDS'],
    ['in another currency', 50_000, 'USD', 'CURRENCY_MISMATCH'],
  ])('refuses a budget %s with 422 %s', async (_name, amount, currency, code) => {
    const user = await makeBusinessUser(h.client, h.mock);
    const result = await createApproval({
      client: h.client,
      path: { corporateUuid: corporate().corporateUuid },
      body: {
        userUuid: user.userUuid,
        budget: { amount, currency },
        validFrom: '2026-11-21T09:00:00Z',
        validTo: '2026-12-31T00:00:00Z',
      },
    });
    expectError(result, 422, code);
  });

  it('refuses a budget above the available corporate balance with 422 INSUFFICIENT_FUNDS and reserves nothing', async () => {
    const small = h.mock.fixtures().corporates[1]!; // 250,000.00 EUR
    const user = await makeBusinessUser(h.client, h.mock);
    const result = await createApproval({
      client: h.client,
      path: { corporateUuid: small.corporateUuid },
      body: {
        userUuid: user.userUuid,
        budget: { amount: 30_000_000, currency: 'EUR' },
        validFrom: '2026-11-21T09:00:00Z',
        validTo: '2026-12-31T00:00:00Z',
      },
    });
    expectError(result, 422, 'INSUFFICIENT_FUNDS');
    expect(h.mock.fixtures().corporates[1]!.reserved.amount).toBe(0);
  });

  it.each([
    ['validTo before validFrom', '2026-12-01T00:00:00Z', '2026-11-30T00:00:00Z'],
    ['validTo equal to validFrom', '2026-12-01T00:00:00Z', '2026-12-01T00:00:00Z'],
    ['validTo in the past', '2026-01-01T00:00:00Z', '2026-02-01T00:00:00Z'],
  ])('refuses %s with 422 VALIDITY_PERIOD_INVALID', async (_name, validFrom, validTo) => {
    const user = await makeBusinessUser(h.client, h.mock);
    const result = await createApproval({
      client: h.client,
      path: { corporateUuid: corporate().corporateUuid },
      body: { userUuid: user.userUuid, budget: { amount: 10_000, currency: 'EUR' }, validFrom, validTo },
    });
    expectError(result, 422, 'VALIDITY_PERIOD_INVALID');
  });

  it('an unknown userUuid or corporate is 404 NOT_FOUND', async () => {
    const body = {
      userUuid: '6a1d9e40-2b7f-4c83-9e15-0f4a2b6c8d3e',
      budget: { amount: 10_000, currency: 'EUR' },
      validFrom: '2026-11-21T09:00:00Z',
      validTo: '2026-12-31T00:00:00Z',
    };
    expectError(
      await createApproval({ client: h.client, path: { corporateUuid: corporate().corporateUuid }, body }),
      404,
      'NOT_FOUND',
    );
    const user = await makeBusinessUser(h.client, h.mock);
    expectError(
      await createApproval({
        client: h.client,
        path: { corporateUuid: '1b6e3d8f-5a2c-4f7e-9b0d-4c8a1e6f2d93' },
        body: { ...body, userUuid: user.userUuid },
      }),
      404,
      'NOT_FOUND',
    );
  });
});

describe('registration completed: ACCEPTED → DELIVERED, or PREPARED until validFrom', () => {
  it('ACCEPTED → DELIVERED when validFrom has come; the card becomes ACTIVE', async () => {
    const approval = await reach('DELIVERED');
    expect(approval.status).toBe('DELIVERED');
    expect(approval.card.status).toBe('ACTIVE');
  });

  it('ACCEPTED → PREPARED before validFrom, then PREPARED → DELIVERED at validFrom on the virtual clock', async () => {
    const prepared = await reach('PREPARED');
    expect(prepared.status).toBe('PREPARED');
    expect(prepared.card.status).toBe('INACTIVE');
    h.mock.clock.advance(2 * DAY - 1);
    expect((await fetchApproval(prepared)).status).toBe('PREPARED');
    h.mock.clock.advance(1);
    const delivered = await fetchApproval(prepared);
    expect(delivered.status).toBe('DELIVERED');
    expect(delivered.card.status).toBe('ACTIVE');
    expect(delivered.updatedAt).toBe(delivered.validFrom);
  });

  it('registration over HTTP control moves the approval at once', async () => {
    const user = await makeBusinessUser(h.client, h.mock);
    const approval = await makeApproval(h.client, h.mock, user.userUuid);
    const response = await send('POST', `/__mock/users/${user.userUuid}/complete-registration`, { sign: false });
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ userUuid: user.userUuid, registrationStatus: 'COMPLETED' });
    expect((await fetchApproval(approval)).status).toBe('DELIVERED');
    const again = await expectProblem(
      await send('POST', `/__mock/users/${user.userUuid}/complete-registration`, { sign: false }),
      409,
      'INVALID_TRANSITION',
    );
    expect(again.detail).toBe('completeRegistration is not allowed while the business user is COMPLETED.');
  });
});

describe('time: DELIVERED → FINISHED after validTo', () => {
  it('finishes, closes the card and releases the reservation', async () => {
    const before = corporate().balance.amount;
    const approval = await reach('DELIVERED');
    expect(corporate().balance.amount).toBe(before - 50_000);
    h.mock.clock.advance(10 * DAY); // exactly validTo: not yet exceeded
    expect((await fetchApproval(approval)).status).toBe('DELIVERED');
    h.mock.clock.advance(1);
    const finished = await fetchApproval(approval);
    expect(finished.status).toBe('FINISHED');
    expect(finished.card.status).toBe('CLOSED');
    expect(corporate().balance.amount).toBe(before);
    expect(corporate().reserved.amount).toBe(0);
    expectCorporateBalanced();
  });
});

describe('cancellation by the corporation: CREATED, ACCEPTED, PREPARED → CANCELED', () => {
  it.each(['ACCEPTED', 'PREPARED'] as const)('%s → CANCELED releases the budget and closes the card', async (from) => {
    const before = corporate().balance.amount;
    const approval = await reach(from);
    const response = await control(approval, 'cancel');
    expect(response.status).toBe(200);
    const canceled = (await response.json()) as Approval;
    expect(canceled.status).toBe('CANCELED');
    expect(canceled.card.status).toBe('CLOSED');
    // reach('PREPARED') made two approvals; only the canceled one's budget comes back.
    expect(corporate().balance.amount).toBe(before - (from === 'PREPARED' ? 50_000 : 0));
    expectCorporateBalanced();
  });

  it('CREATED → CANCELED leaves the card of the instance in force ACTIVE', async () => {
    const delivered = await reach('DELIVERED');
    const created = h.mock.approvals.requestChange(delivered.corporateUuid, delivered.approvalUuid);
    const canceled = (await (await control(created, 'cancel')).json()) as Approval;
    expect(canceled.status).toBe('CANCELED');
    expect(canceled.card.status).toBe('ACTIVE');
    expect((await fetchApproval(delivered)).status).toBe('DELIVERED');
    expectCorporateBalanced();
  });
});

describe('reapprovals', () => {
  it.each(['ACCEPTED', 'DELIVERED'] as const)(
    'increase-budget on %s: a new instance on the same card, the old one REAPPROVED',
    async (from) => {
      const old = await reach(from);
      const before = corporate();
      const response = await increase(old, 25_000);
      expect(responseOf(response).status).toBe(201);
      const reapproval = ok(response);
      expect(reapproval).toMatchObject({
        status: from,
        previousApprovalUuid: old.approvalUuid,
        replacedByApprovalUuid: null,
        expiresAt: null,
      });
      expect(reapproval.budget).toEqual({ amount: old.budget.amount + 25_000, currency: 'EUR' });
      expect(reapproval.card.id).toBe(old.card.id);
      expect(reapproval.card.last4).toBe(old.card.last4);
      expect({ validFrom: reapproval.validFrom, validTo: reapproval.validTo }).toEqual({
        validFrom: old.validFrom,
        validTo: old.validTo,
      });
      const replaced = await fetchApproval(old);
      expect(replaced).toMatchObject({ status: 'REAPPROVED', replacedByApprovalUuid: reapproval.approvalUuid });
      const after = corporate();
      expect(after.balance.amount).toBe(before.balance.amount - 25_000);
      expect(after.reserved.amount).toBe(before.reserved.amount + 25_000);
      expectCorporateBalanced();
      const list = ok(
        await listUserApprovals({
          client: h.client,
          path: { corporateUuid: old.corporateUuid, userUuid: old.userUuid },
        }),
      );
      expect(list.items.map((a) => a.approvalUuid)).toEqual(
        expect.arrayContaining([old.approvalUuid, reapproval.approvalUuid]),
      );
    },
  );

  it('an ACCEPTED reapproval moves on like any ACCEPTED approval when registration completes', async () => {
    const old = await reach('ACCEPTED');
    const reapproval = ok(await increase(old, 1_000));
    h.mock.users.completeRegistration(old.userUuid);
    expect((await fetchApproval(reapproval)).status).toBe('DELIVERED');
    expect((await fetchApproval(old)).status).toBe('REAPPROVED');
  });

  it('increase-budget refuses a new total out of bounds, an amount above the available balance, another currency', async () => {
    const old = await reach('DELIVERED');
    expectError(await increase(old, 100_000_000), 422, 'BUDGET_OUT_OF_BOUNDS');
    expectError(await increase(old, 1_000, 'USD'), 422, 'CURRENCY_MISMATCH');
    expectError(await increase(old, 0), 422, 'BUDGET_OUT_OF_BOUNDS');
    const small = h.mock.fixtures().corporates[1]!;
    const user = await makeBusinessUser(h.client, h.mock);
    const big = await makeApproval(h.client, h.mock, user.userUuid, { corporate: 1, budget: 20_000_000 });
    expect(small.balance.amount - 20_000_000).toBe(5_000_000);
    expectError(await increase(big, 5_000_001), 422, 'INSUFFICIENT_FUNDS');
    expect(ok(await increase(big, 5_000_000)).budget.amount).toBe(25_000_000);
    expect(h.mock.fixtures().corporates[1]!.balance.amount).toBe(0);
    expectCorporateBalanced();
  });

  it.each(['ACCEPTED', 'DELIVERED'] as const)(
    'a change request on %s makes a CREATED reapproval that expires after 72 h, nothing reserved',
    async (from) => {
      const current = await reach(from);
      const reserved = corporate().reserved.amount;
      const response = await control(current, 'request-change', {
        additionalBudget: { amount: 5_000, currency: 'EUR' },
      });
      expect(response.status).toBe(201);
      const created = (await response.json()) as Approval;
      expect(created).toMatchObject({
        status: 'CREATED',
        previousApprovalUuid: current.approvalUuid,
        expiresAt: '2026-11-24T09:00:00.000Z',
      });
      expect(created.budget.amount).toBe(current.budget.amount + 5_000);
      expect(created.card.id).toBe(current.card.id);
      expect(corporate().reserved.amount).toBe(reserved);
      expect((await fetchApproval(current)).status).toBe(from);
      h.mock.clock.advance(72 * 3600 - 1);
      expect((await fetchApproval(created)).status).toBe('CREATED');
      h.mock.clock.advance(1);
      const expired = await fetchApproval(created);
      expect(expired.status).toBe('EXPIRED');
      expect(expired.updatedAt).toBe(created.expiresAt);
    },
  );

  it('CREATED → REJECTED by the corporation', async () => {
    const created = await reach('CREATED');
    const response = await control(created, 'reject');
    expect(response.status).toBe(200);
    expect(((await response.json()) as Approval).status).toBe('REJECTED');
  });
});

describe('forbidden transitions are 409 naming the current status and the operation', () => {
  const allowed: Record<string, ApprovalStatus[]> = {
    increaseApprovalBudget: ['ACCEPTED', 'DELIVERED'],
    cancelApproval: ['CREATED', 'ACCEPTED', 'PREPARED'],
    rejectApproval: ['CREATED'],
    requestApprovalChange: ['ACCEPTED', 'DELIVERED'],
  };
  /** Runs the operation and returns its status and body (a Problem when refused). */
  const attempt = async (
    operation: string,
    a: Approval,
  ): Promise<{ status: number; contentType: string | null; body: unknown }> => {
    if (operation === 'increaseApprovalBudget') {
      const result = await increase(a, 100);
      return {
        status: responseOf(result).status,
        contentType: responseOf(result).headers.get('content-type'),
        body: result.error ?? result.data,
      };
    }
    const action = { cancelApproval: 'cancel', rejectApproval: 'reject', requestApprovalChange: 'request-change' }[
      operation
    ] as 'cancel';
    const response = await control(a, action);
    return { status: response.status, contentType: response.headers.get('content-type'), body: await response.json() };
  };
  const cases = Object.entries(allowed).flatMap(([operation, from]) =>
    ALL.filter((s) => !from.includes(s)).map((s) => [operation, s] as const),
  );

  it.each(cases)('%s from %s', async (operation, status) => {
    const approval = await reach(status);
    expect(approval.status).toBe(status);
    const before = h.mock.fixtures().corporates;
    const result = await attempt(operation, approval);
    expect(result.status).toBe(409);
    expect(result.contentType).toBe('application/problem+json');
    const problem = zProblem.parse(result.body);
    expect(problem).toMatchObject({ code: 'INVALID_TRANSITION', currentStatus: status, operation });
    expect(problem.detail).toContain(status);
    expect((await fetchApproval(approval)).status).toBe(status);
    expect(h.mock.fixtures().corporates).toEqual(before);
  });

  it('the allowed ones succeed from each status the table names', async () => {
    for (const [operation, from] of Object.entries(allowed)) {
      for (const status of from) {
        const result = await attempt(operation, await reach(status));
        expect(result.status, `${operation} from ${status}`).toBeLessThan(300);
      }
    }
    expectCorporateBalanced();
  });
});

describe('card lock and unlock only while DELIVERED; card details only while DELIVERED', () => {
  let keys: CardKeyPair;
  let publicKey: string;
  beforeAll(async () => {
    keys = await generateCardKeyPair();
    publicKey = await exportPublicKey(keys);
  });
  const details = (a: Approval) =>
    getApprovalCardDetails({
      client: h.client,
      path: { corporateUuid: a.corporateUuid, approvalUuid: a.approvalUuid },
      query: { publicKey },
    });

  it("locks and unlocks a DELIVERED approval's card over HTTP control; details are served only while ACTIVE", async () => {
    const approval = await reach('DELIVERED');
    const plain = await decryptCardDetails(ok(await details(approval)).encryptedDetails, keys);
    expect(isLuhnValid(plain.pan)).toBe(true);
    expect(plain).toMatchObject({
      cardholderName: 'GRACE HOPPER',
      expiryMonth: approval.card.expiryMonth,
      expiryYear: approval.card.expiryYear,
    });
    expect(plain.pan.endsWith(approval.card.last4!)).toBe(true);

    const locked = await send('POST', `/__mock/cards/${approval.card.id}/lock`, { sign: false });
    expect(((await locked.json()) as { status: string }).status).toBe('LOCKED');
    expectError(await details(approval), 409, 'CARD_NOT_ACTIVE');
    await expectProblem(
      await send('POST', `/__mock/cards/${approval.card.id}/lock`, { sign: false }),
      409,
      'INVALID_TRANSITION',
    );
    const unlocked = await send('POST', `/__mock/cards/${approval.card.id}/unlock`, { sign: false });
    expect(((await unlocked.json()) as { status: string }).status).toBe('ACTIVE');
    expect((await fetchApproval(approval)).card).toMatchObject({ id: approval.card.id, status: 'ACTIVE' });
    // Areas are scoped: a business user is not a Server2Server user, so /s2s never lists the business card.
    expectError(await listCards({ client: h.client, query: { userId: approval.userUuid } }), 404, 'NOT_FOUND');
  });

  it.each(['ACCEPTED', 'PREPARED', 'FINISHED', 'CANCELED'] as const)(
    'refuses lock, unlock and details while the approval is %s',
    async (status) => {
      const approval = await reach(status);
      for (const action of ['lock', 'unlock']) {
        const problem = await expectProblem(
          await send('POST', `/__mock/cards/${approval.card.id}/${action}`, { sign: false }),
          409,
          'APPROVAL_NOT_DELIVERED',
        );
        expect(problem).toMatchObject({ currentStatus: status, operation: `${action}Card` });
      }
      const problem = expectError(await details(approval), 409, 'APPROVAL_NOT_DELIVERED');
      expect(problem).toMatchObject({ currentStatus: status, operation: 'getApprovalCardDetails' });
    },
  );

  it('details of a REAPPROVED instance are refused; its reapproval serves the same card', async () => {
    const old = await reach('DELIVERED');
    const reapproval = ok(await increase(old, 100));
    expectError(await details(await fetchApproval(old)), 409, 'APPROVAL_NOT_DELIVERED');
    const plainNew = await decryptCardDetails(ok(await details(reapproval)).encryptedDetails, keys);
    expect(plainNew.pan.endsWith(old.card.last4!)).toBe(true);
  });
});
