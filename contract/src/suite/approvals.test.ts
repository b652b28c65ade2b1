/**
 * The approval lifecycle of the interface document's section 3, transition by transition, with the forbidden ones
 * refused as 409 INVALID_TRANSITION naming the current status and the operation; budgets reserved from and
 * released to the corporate balance; reapprovals on the same card.
 *
 * Against a real service (no mock control API) the transitions the API itself drives still run, given
 * CONTRACT_CORPORATE_UUID: creation (ACCEPTED), increase-budget (REAPPROVED) and their refusals. Registration,
 * cancellation, rejection, change requests and time come through the mock's control API: those are skipped.
 */
import { describe, expect, it } from './support/test';
import { generateCardKeyPair, type Approval } from 'card-issuing-sdk';
import { ControlError, type MockControl } from 'card-issuing-mock/control';
import { businessApproval, daysFrom } from './support/actors';
import {
  UNKNOWN_ID,
  expectProblem,
  expectRefusal,
  newBusinessUser,
  useContract,
  type Contract,
} from './support/harness';

const contract = useContract(import.meta.url);
const DAY = 24 * 3600;

/**
 * What the corporate balance has reserved now (from the mock's fixtures), after checking the corporate's ledger:
 * funded (seed + top-ups) = available + reserved + spent. The reservation is read from the approvals and the
 * available amount from the balance, so a budget reserved or released on one side only breaks the equation.
 */
async function reserved(control: MockControl, corporateUuid: string): Promise<number> {
  const corporate = (await control.fixtures()).corporates.find((c) => c.corporateUuid === corporateUuid)!;
  expect(
    corporate.balance.amount + corporate.reserved.amount + corporate.spent.amount,
    'the corporate ledger: funded = available + reserved + spent',
  ).toBe(corporate.funded.amount);
  expect(corporate.balance.amount, 'the corporate balance never goes below zero').toBeGreaterThanOrEqual(0);
  return corporate.reserved.amount;
}

const get = (c: Contract, corporateUuid: string, approval: Approval) =>
  c.client.corporates.approvals.get(corporateUuid, approval.approvalUuid);
const increase = (c: Contract, corporateUuid: string, approval: Approval, amount: number, currency: string) =>
  c.client.corporates.approvals.increaseBudget(corporateUuid, approval.approvalUuid, {
    additionalBudget: { amount, currency },
  });

/** Expects a control action to be refused as a forbidden transition naming `currentStatus` and `operation`. */
async function expectControlRefusal(action: Promise<unknown>, expected: { currentStatus: string; operation: string }) {
  const error = await action.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(
    error,
    `expected 409 INVALID_TRANSITION (${expected.operation} from ${expected.currentStatus}), but the mock allowed it`,
  ).toBeInstanceOf(ControlError);
  const refusal = error as ControlError;
  expect({
    status: refusal.status,
    code: refusal.code,
    currentStatus: refusal.problem?.currentStatus,
    operation: refusal.problem?.operation,
  }).toEqual({
    status: 409,
    code: 'INVALID_TRANSITION',
    ...expected,
  });
}

describe('creation: ACCEPTED', () => {
  it('createApproval is 201 ACCEPTED with its card INACTIVE, an original instance (no previous, no replacement)', async (context) => {
    const corporate = await contract.corporate(context);
    const now = await contract.now();
    const { data: approval, status } = await contract.client.corporates.approvals
      .create(corporate.corporateUuid, {
        userUuid: (await contract.client.corporates.users.create(newBusinessUser())).userUuid,
        budget: { amount: 50_000, currency: corporate.currency },
        validFrom: daysFrom(now, -1),
        validTo: daysFrom(now, 30),
      })
      .withResponse();
    expect(status).toBe(201);
    expect(approval).toMatchObject({
      status: 'ACCEPTED',
      corporateUuid: corporate.corporateUuid,
      previousApprovalUuid: null,
      replacedByApprovalUuid: null,
      expiresAt: null,
    });
    expect(approval.card).toMatchObject({ object: 'card', status: 'INACTIVE', userId: approval.userUuid });
    expect(await get(contract, corporate.corporateUuid, approval)).toMatchObject({
      approvalUuid: approval.approvalUuid,
      status: 'ACCEPTED',
    });
  });

  it('the budget is reserved from the corporate balance at once', async (context) => {
    const control = contract.control(context);
    const corporate = await contract.corporate(context);
    const before = await reserved(control, corporate.corporateUuid);
    await businessApproval(contract, corporate, { budget: 12_345 });
    expect(await reserved(control, corporate.corporateUuid)).toBe(before + 12_345);
  });

  it('getApprovalCardDetails while ACCEPTED is 409 APPROVAL_NOT_DELIVERED naming ACCEPTED', async (context) => {
    const corporate = await contract.corporate(context);
    const { approval } = await businessApproval(contract, corporate);
    await expectRefusal(
      contract.client.corporates.approvals.getDetails(corporate.corporateUuid, approval.approvalUuid, {
        keyPair: await generateCardKeyPair(),
      }),
      {
        status: 409,
        code: 'APPROVAL_NOT_DELIVERED',
        currentStatus: 'ACCEPTED',
        operation: 'getApprovalCardDetails',
      },
    );
  });
});

describe('creation: budget rules and funds', () => {
  it('budget rules, each a 422: BUDGET_OUT_OF_BOUNDS, CURRENCY_MISMATCH, VALIDITY_PERIOD_INVALID', async (context) => {
    const corporate = await contract.corporate(context);
    const user = await contract.client.corporates.users.create(newBusinessUser());
    const now = await contract.now();
    const body = {
      userUuid: user.userUuid,
      budget: { amount: 50_000, currency: corporate.currency },
      validFrom: daysFrom(now, 0),
      validTo: daysFrom(now, 30),
    };
    const create = (patch: Partial<typeof body>) =>
      contract.client.corporates.approvals.create(corporate.corporateUuid, { ...body, ...patch });
    await expectRefusal(create({ budget: { amount: 99, currency: corporate.currency } }), {
      status: 422,
      code: 'BUDGET_OUT_OF_BOUNDS',
    });
    await expectRefusal(create({ budget: { amount: 100_000_001, currency: corporate.currency } }), {
      status: 422,
      code: 'BUDGET_OUT_OF_BOUNDS',
    });
    await expectRefusal(
      create({ budget: { amount: 50_000, currency: corporate.currency === 'USD' ? 'EUR' : 'USD' } }),
      { status: 422, code: 'CURRENCY_MISMATCH' },
    );
    await expectRefusal(create({ validFrom: daysFrom(now, 10), validTo: daysFrom(now, 5) }), {
      status: 422,
      code: 'VALIDITY_PERIOD_INVALID',
    });
    await expectRefusal(create({ validFrom: daysFrom(now, -30), validTo: daysFrom(now, -1) }), {
      status: 422,
      code: 'VALIDITY_PERIOD_INVALID',
    });
  });

  it('a budget above the available corporate balance is 422 INSUFFICIENT_FUNDS', async (context) => {
    contract.control(context);
    const fixtures = await contract.fixtures(context);
    const corporate = fixtures.corporates.find((c) => c.balance.amount + 1 <= 100_000_000)!;
    const user = await contract.client.corporates.users.create(newBusinessUser());
    const now = await contract.now();
    await expectRefusal(
      contract.client.corporates.approvals.create(corporate.corporateUuid, {
        userUuid: user.userUuid,
        budget: { amount: corporate.balance.amount + 1, currency: corporate.balance.currency },
        validFrom: daysFrom(now, 0),
        validTo: daysFrom(now, 30),
      }),
      { status: 422, code: 'INSUFFICIENT_FUNDS' },
    );
  });
});

describe('reapproval: increase-budget', () => {
  it('increase-budget on an ACCEPTED approval is 201: a reapproval on the same card with the summed budget; the old instance becomes REAPPROVED', async (context) => {
    const corporate = await contract.corporate(context);
    const { approval } = await businessApproval(contract, corporate, { budget: 50_000 });
    const { data: reapproval, status } = await increase(
      contract,
      corporate.corporateUuid,
      approval,
      25_000,
      corporate.currency,
    ).withResponse();
    expect(status).toBe(201);
    expect(reapproval).toMatchObject({
      status: 'ACCEPTED',
      previousApprovalUuid: approval.approvalUuid,
      budget: { amount: 75_000, currency: corporate.currency },
      validFrom: approval.validFrom,
      validTo: approval.validTo,
    });
    expect(reapproval.approvalUuid).not.toBe(approval.approvalUuid);
    expect(reapproval.card.id).toBe(approval.card.id);
    expect(
      await get(contract, corporate.corporateUuid, approval),
      'the replaced ACCEPTED instance becomes REAPPROVED, naming its reapproval',
    ).toMatchObject({
      status: 'REAPPROVED',
      replacedByApprovalUuid: reapproval.approvalUuid,
    });
  });

  it('increase-budget on a REAPPROVED approval is 409 INVALID_TRANSITION naming REAPPROVED and increaseApprovalBudget', async (context) => {
    const corporate = await contract.corporate(context);
    const { approval } = await businessApproval(contract, corporate);
    await increase(contract, corporate.corporateUuid, approval, 1_000, corporate.currency);
    await expectRefusal(increase(contract, corporate.corporateUuid, approval, 1_000, corporate.currency), {
      status: 409,
      code: 'INVALID_TRANSITION',
      currentStatus: 'REAPPROVED',
      operation: 'increaseApprovalBudget',
    });
  });

  it('increase-budget keeps the budget rules: 422 CURRENCY_MISMATCH, 422 BUDGET_OUT_OF_BOUNDS for a total above the maximum', async (context) => {
    const corporate = await contract.corporate(context);
    const { approval } = await businessApproval(contract, corporate);
    await expectRefusal(
      increase(contract, corporate.corporateUuid, approval, 1_000, corporate.currency === 'USD' ? 'EUR' : 'USD'),
      { status: 422, code: 'CURRENCY_MISMATCH' },
    );
    await expectRefusal(increase(contract, corporate.corporateUuid, approval, 100_000_000, corporate.currency), {
      status: 422,
      code: 'BUDGET_OUT_OF_BOUNDS',
    });
    expect(await get(contract, corporate.corporateUuid, approval)).toMatchObject({
      status: 'ACCEPTED',
      replacedByApprovalUuid: null,
    });
  });
});

describe('reapproval: increase-budget on a DELIVERED approval', () => {
  it('increase-budget on a DELIVERED approval is 201: the reapproval is DELIVERED on the same card, card data unchanged; the old instance becomes REAPPROVED', async (context) => {
    const control = contract.control(context);
    const corporate = await contract.corporate(context);
    const { user, approval } = await businessApproval(contract, corporate);
    await control.completeRegistration(user.userUuid);
    const keyPair = await generateCardKeyPair();
    const before = await contract.client.corporates.approvals.getDetails(
      corporate.corporateUuid,
      approval.approvalUuid,
      { keyPair },
    );
    const reserved0 = await reserved(control, corporate.corporateUuid);
    const reapproval = await increase(contract, corporate.corporateUuid, approval, 5_000, corporate.currency);
    expect(reapproval).toMatchObject({
      status: 'DELIVERED',
      previousApprovalUuid: approval.approvalUuid,
      budget: { amount: 55_000 },
    });
    expect(reapproval.card).toMatchObject({ id: approval.card.id, status: 'ACTIVE' });
    expect(
      await get(contract, corporate.corporateUuid, approval),
      'the replaced DELIVERED instance becomes REAPPROVED, naming its reapproval',
    ).toMatchObject({
      status: 'REAPPROVED',
      replacedByApprovalUuid: reapproval.approvalUuid,
    });
    expect(await reserved(control, corporate.corporateUuid)).toBe(reserved0 + 5_000);
    const after = await contract.client.corporates.approvals.getDetails(
      corporate.corporateUuid,
      reapproval.approvalUuid,
      { keyPair },
    );
    expect(after).toEqual(before);
    await expectRefusal(
      contract.client.corporates.approvals.getDetails(corporate.corporateUuid, approval.approvalUuid, { keyPair }),
      {
        status: 409,
        code: 'APPROVAL_NOT_DELIVERED',
        currentStatus: 'REAPPROVED',
      },
    );
  });
});

describe('registration', () => {
  it('registration completed: ACCEPTED becomes DELIVERED, its card ACTIVE, and the details are served', async (context) => {
    const control = contract.control(context);
    const corporate = await contract.corporate(context);
    const { user, approval } = await businessApproval(contract, corporate);
    expect((await control.completeRegistration(user.userUuid)).registrationStatus).toBe('COMPLETED');
    const delivered = await get(contract, corporate.corporateUuid, approval);
    expect(delivered, 'registration completed: ACCEPTED becomes DELIVERED').toMatchObject({
      status: 'DELIVERED',
      card: { id: approval.card.id, status: 'ACTIVE' },
    });
    const details = await contract.client.corporates.approvals.getDetails(
      corporate.corporateUuid,
      approval.approvalUuid,
      { keyPair: await generateCardKeyPair() },
    );
    expect(details.pan.endsWith(delivered.card.last4!), 'the details are of the card generated on delivery').toBe(true);
  });

  it('registration completed before validFrom: PREPARED (card not yet generated) until validFrom, then DELIVERED', async (context) => {
    const control = contract.control(context);
    const corporate = await contract.corporate(context);
    const { user, approval } = await businessApproval(contract, corporate, { startInDays: 2 });
    await control.completeRegistration(user.userUuid);
    expect(
      await get(contract, corporate.corporateUuid, approval),
      'registered before validFrom: PREPARED',
    ).toMatchObject({ status: 'PREPARED', card: { status: 'INACTIVE' } });
    await expectRefusal(
      contract.client.corporates.approvals.getDetails(corporate.corporateUuid, approval.approvalUuid, {
        keyPair: await generateCardKeyPair(),
      }),
      {
        status: 409,
        code: 'APPROVAL_NOT_DELIVERED',
        currentStatus: 'PREPARED',
      },
    );
    await control.advanceClock(2 * DAY + 60);
    expect(
      await get(contract, corporate.corporateUuid, approval),
      'validFrom has come: PREPARED becomes DELIVERED',
    ).toMatchObject({ status: 'DELIVERED', card: { status: 'ACTIVE' } });
  });
});

describe('cancellation', () => {
  it('cancellation by the corporation: ACCEPTED and PREPARED become CANCELED, the budget released and the card CLOSED', async (context) => {
    const control = contract.control(context);
    const corporate = await contract.corporate(context);
    const accepted = await businessApproval(contract, corporate, { budget: 30_000 });
    const prepared = await businessApproval(contract, corporate, { budget: 20_000, startInDays: 5 });
    await control.completeRegistration(prepared.user.userUuid);
    expect((await get(contract, corporate.corporateUuid, prepared.approval)).status).toBe('PREPARED');
    const before = await reserved(control, corporate.corporateUuid);
    for (const { approval } of [accepted, prepared]) {
      const canceled = await control.cancelApproval(corporate.corporateUuid, approval.approvalUuid);
      expect(
        canceled,
        `canceled by the corporation from ${approval === accepted.approval ? 'ACCEPTED' : 'PREPARED'}: CANCELED`,
      ).toMatchObject({ status: 'CANCELED', card: { status: 'CLOSED' } });
      expect(await get(contract, corporate.corporateUuid, approval)).toMatchObject({ status: 'CANCELED' });
    }
    expect(await reserved(control, corporate.corporateUuid)).toBe(before - 50_000);
  });

  it('increase-budget on a CANCELED approval is 409 INVALID_TRANSITION naming CANCELED and increaseApprovalBudget', async (context) => {
    const control = contract.control(context);
    const corporate = await contract.corporate(context);
    const { approval } = await businessApproval(contract, corporate);
    await control.cancelApproval(corporate.corporateUuid, approval.approvalUuid);
    await expectRefusal(increase(contract, corporate.corporateUuid, approval, 1_000, corporate.currency), {
      status: 409,
      code: 'INVALID_TRANSITION',
      currentStatus: 'CANCELED',
      operation: 'increaseApprovalBudget',
    });
    expect(await get(contract, corporate.corporateUuid, approval)).toMatchObject({
      status: 'CANCELED',
      replacedByApprovalUuid: null,
    });
  });
});

describe('time', () => {
  it('after validTo a DELIVERED approval is FINISHED, its card CLOSED, its budget released; increase-budget is then 409 naming FINISHED', async (context) => {
    // A tenant of its own: moving the clock past validTo finishes every delivered approval of a tenant.
    const own = await contract.isolated(context);
    const control = own.control(context);
    const corporate = await own.corporate(context);
    const { user, approval } = await businessApproval(own, corporate, { budget: 40_000 });
    await control.completeRegistration(user.userUuid);
    const before = await reserved(control, corporate.corporateUuid);
    await control.advanceClock(29 * DAY);
    expect((await get(own, corporate.corporateUuid, approval)).status).toBe('DELIVERED');
    await control.advanceClock(DAY + 60);
    expect(
      await get(own, corporate.corporateUuid, approval),
      'validTo has passed: DELIVERED becomes FINISHED',
    ).toMatchObject({ status: 'FINISHED', card: { status: 'CLOSED' } });
    expect(await reserved(control, corporate.corporateUuid)).toBe(before - 40_000);
    await expectRefusal(increase(own, corporate.corporateUuid, approval, 1_000, corporate.currency), {
      status: 409,
      code: 'INVALID_TRANSITION',
      currentStatus: 'FINISHED',
      operation: 'increaseApprovalBudget',
    });
  });
});

describe('cancellation and rejection refused', () => {
  it('the corporation cannot cancel a DELIVERED approval nor reject one that is not a CREATED reapproval (409 naming the status and the action)', async (context) => {
    const control = contract.control(context);
    const corporate = await contract.corporate(context);
    const { user, approval } = await businessApproval(contract, corporate);
    await expectControlRefusal(control.rejectApproval(corporate.corporateUuid, approval.approvalUuid), {
      currentStatus: 'ACCEPTED',
      operation: 'rejectApproval',
    });
    await control.completeRegistration(user.userUuid);
    await expectControlRefusal(control.cancelApproval(corporate.corporateUuid, approval.approvalUuid), {
      currentStatus: 'DELIVERED',
      operation: 'cancelApproval',
    });
    expect((await get(contract, corporate.corporateUuid, approval)).status).toBe('DELIVERED');
  });
});

describe('change requests: CREATED reapprovals', () => {
  it("a user's change request makes a CREATED reapproval (expiresAt set, nothing reserved); increase-budget on it is 409; the corporation rejects it: REJECTED", async (context) => {
    const control = contract.control(context);
    const corporate = await contract.corporate(context);
    const { user, approval } = await businessApproval(contract, corporate);
    await control.completeRegistration(user.userUuid);
    const before = await reserved(control, corporate.corporateUuid);
    const created = await control.requestChange(corporate.corporateUuid, approval.approvalUuid, {
      additionalBudget: { amount: 10_000, currency: corporate.currency },
    });
    expect(created).toMatchObject({
      status: 'CREATED',
      previousApprovalUuid: approval.approvalUuid,
      budget: { amount: 60_000 },
      card: { id: approval.card.id },
    });
    expect(created.expiresAt).not.toBeNull();
    expect(await reserved(control, corporate.corporateUuid)).toBe(before);
    expect((await get(contract, corporate.corporateUuid, approval)).status).toBe('DELIVERED');
    await expectRefusal(increase(contract, corporate.corporateUuid, created, 1_000, corporate.currency), {
      status: 409,
      code: 'INVALID_TRANSITION',
      currentStatus: 'CREATED',
      operation: 'increaseApprovalBudget',
    });
    expect(await control.rejectApproval(corporate.corporateUuid, created.approvalUuid)).toMatchObject({
      status: 'REJECTED',
    });
    expect(
      await get(contract, corporate.corporateUuid, created),
      'a CREATED reapproval rejected by the corporation: REJECTED',
    ).toMatchObject({ status: 'REJECTED' });
  });

  it('a CREATED reapproval neither accepted nor rejected before expiresAt is EXPIRED; a CREATED one can be canceled', async (context) => {
    const control = contract.control(context);
    const corporate = await contract.corporate(context);
    const { approval: toCancelOn } = await businessApproval(contract, corporate);
    const toCancel = await control.requestChange(corporate.corporateUuid, toCancelOn.approvalUuid);
    expect(await control.cancelApproval(corporate.corporateUuid, toCancel.approvalUuid)).toMatchObject({
      status: 'CANCELED',
      statusReason: 'CANCELED_BY_CORPORATION',
    });
    const { approval } = await businessApproval(contract, corporate);
    const created = await control.requestChange(corporate.corporateUuid, approval.approvalUuid);
    const now = Date.parse((await control.clock()).now);
    await control.advanceClock((Date.parse(created.expiresAt!) - now) / 1000 + 60);
    expect(
      await get(contract, corporate.corporateUuid, created),
      'a CREATED reapproval past expiresAt: EXPIRED',
    ).toMatchObject({ status: 'EXPIRED', statusReason: 'CHANGE_NOT_DECIDED' });
  });
});

describe('lists', () => {
  it('listUserApprovals lists every instance of the user under the corporate, reapprovals included, oldest first', async (context) => {
    const corporate = await contract.corporate(context);
    const { user, approval } = await businessApproval(contract, corporate);
    const reapproval = await increase(contract, corporate.corporateUuid, approval, 1_000, corporate.currency);
    const second = await businessApproval(contract, corporate, { user });
    const list = await contract.client.corporates.approvals.listForUser(corporate.corporateUuid, user.userUuid);
    expect(
      list.items.map((a) => [a.approvalUuid, a.status]),
      'every instance, oldest first: the replaced one REAPPROVED, its reapproval and the other ACCEPTED',
    ).toEqual([
      [approval.approvalUuid, 'REAPPROVED'],
      [reapproval.approvalUuid, 'ACCEPTED'],
      [second.approval.approvalUuid, 'ACCEPTED'],
    ]);
  });
});

describe('unknown ids', () => {
  it('unknown corporates, approvals and users are 404 NOT_FOUND; an approval is not found under another corporate', async (context) => {
    const corporate = await contract.corporate(context);
    const { client } = contract;
    const { user, approval } = await businessApproval(contract, corporate);
    const now = await contract.now();
    await expectRefusal(client.corporates.approvals.get(UNKNOWN_ID, approval.approvalUuid), {
      status: 404,
      code: 'NOT_FOUND',
    });
    await expectRefusal(client.corporates.approvals.get(corporate.corporateUuid, UNKNOWN_ID), {
      status: 404,
      code: 'NOT_FOUND',
    });
    await expectRefusal(client.corporates.approvals.listForUser(corporate.corporateUuid, UNKNOWN_ID), {
      status: 404,
      code: 'NOT_FOUND',
    });
    await expectRefusal(
      client.corporates.approvals.increaseBudget(corporate.corporateUuid, UNKNOWN_ID, {
        additionalBudget: { amount: 100, currency: corporate.currency },
      }),
      { status: 404, code: 'NOT_FOUND' },
    );
    await expectRefusal(
      client.corporates.approvals.getDetails(corporate.corporateUuid, UNKNOWN_ID, {
        keyPair: await generateCardKeyPair(),
      }),
      { status: 404, code: 'NOT_FOUND' },
    );
    await expectRefusal(
      client.corporates.approvals.create(corporate.corporateUuid, {
        userUuid: UNKNOWN_ID,
        budget: { amount: 10_000, currency: corporate.currency },
        validFrom: daysFrom(now, 0),
        validTo: daysFrom(now, 9),
      }),
      { status: 404, code: 'NOT_FOUND' },
    );
    await expectRefusal(
      client.corporates.approvals.create(UNKNOWN_ID, {
        userUuid: user.userUuid,
        budget: { amount: 10_000, currency: corporate.currency },
        validFrom: daysFrom(now, 0),
        validTo: daysFrom(now, 9),
      }),
      { status: 404, code: 'NOT_FOUND' },
    );
    if (contract.target.control) {
      const other = (await contract.fixtures(context)).corporates.find(
        (c) => c.corporateUuid !== corporate.corporateUuid,
      );
      if (other)
        await expectRefusal(client.corporates.approvals.get(other.corporateUuid, approval.approvalUuid), {
          status: 404,
          code: 'NOT_FOUND',
        });
    }
  });
});

describe('bad bodies', () => {
  it('a bad body is 400 VALIDATION_FAILED naming each bad field', async (context) => {
    const corporate = await contract.corporate(context);
    const response = await contract.send({
      method: 'POST',
      path: `/corporates/corporates/${corporate.corporateUuid}/approvals`,
      body: { userUuid: 'not-a-uuid', budget: { amount: -1, currency: 'eur' }, validFrom: 'tomorrow' },
    });
    const problem = expectProblem(response, 400, 'VALIDATION_FAILED');
    expect(problem.errors?.map((e) => e.path)).toEqual(
      expect.arrayContaining([
        'body.userUuid',
        'body.budget.amount',
        'body.budget.currency',
        'body.validFrom',
        'body.validTo',
      ]),
    );
  });
});
