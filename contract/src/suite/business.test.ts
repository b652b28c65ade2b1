/**
 * Business users and the corporate balance's funding (interface document section 4.3): business users, the
 * corporate's deposit addresses, and top-ups from crypto deposits to them (driven through the mock's control API,
 * skipped against a real service).
 */
import { describe, expect, it } from './support/test';
import { UNKNOWN_ID, expectProblem, expectRefusal, newBusinessUser, useContract } from './support/harness';

const contract = useContract(import.meta.url);

describe('business users', () => {
  it('createBusinessUser is 201 PENDING (registration finishes outside the API)', async () => {
    const body = newBusinessUser();
    const { data: user, status } = await contract.client.corporates.users.create(body).withResponse();
    expect(status).toBe(201);
    expect(user).toMatchObject({ ...body, registrationStatus: 'PENDING' });
  });

  it('an e-mail used before is 409 EMAIL_ALREADY_REGISTERED', async () => {
    const body = newBusinessUser();
    await contract.client.corporates.users.create(body);
    await expectRefusal(
      contract.client.corporates.users.create({ ...body, name: 'Other' }, { idempotencyKey: false }),
      { status: 409, code: 'EMAIL_ALREADY_REGISTERED' },
    );
  });

  it('a bad body is 400 VALIDATION_FAILED naming each bad field', async () => {
    const response = await contract.send({
      method: 'POST',
      path: '/corporates/users',
      body: { name: '', email: 'nope', phone: '12345' },
    });
    const problem = expectProblem(response, 400, 'VALIDATION_FAILED');
    expect(problem.errors?.map((e) => e.path)).toEqual(
      expect.arrayContaining(['body.name', 'body.lastName', 'body.email', 'body.phone']),
    );
  });
});

describe('corporate funding', () => {
  it("the corporate's deposit addresses; unknown corporates are 404 NOT_FOUND", async (context) => {
    const corporate = await contract.corporate(context);
    const addresses = await contract.client.corporates.deposits.list(corporate.corporateUuid);
    for (const address of addresses.items) expect(address.corporateUuid).toBe(corporate.corporateUuid);
    await expectRefusal(contract.client.corporates.deposits.list(UNKNOWN_ID), { status: 404, code: 'NOT_FOUND' });
    await expectRefusal(contract.client.corporates.topUps.list(UNKNOWN_ID), { status: 404, code: 'NOT_FOUND' });
  });

  it('a crypto deposit to a corporate address is a COMPLETED top-up that raises the corporate balance by amount × rate', async (context) => {
    const control = contract.control(context);
    const fixtures = await contract.fixtures(context);
    const corporate = fixtures.corporates[0]!;
    const address = (await contract.client.corporates.deposits.list(corporate.corporateUuid)).items.find(
      (a) => a.type === 'USDC',
    )!;
    const rate = Number(fixtures.depositTypes.find((t) => t.type === 'USDC')!.exchangeRate.rate);
    const before = await contract.client.corporates.topUps.list(corporate.corporateUuid);
    const balanceBefore = (await control.fixtures()).corporates.find(
      (c) => c.corporateUuid === corporate.corporateUuid,
    )!.balance.amount;

    await control.incomingDeposit({
      balanceId: corporate.balanceId,
      type: 'USDC',
      amount: '500',
      network: address.network,
    });

    const after = await contract.client.corporates.topUps.list(corporate.corporateUuid);
    expect(after.items).toHaveLength(before.items.length + 1);
    const credited = Math.round(500 * rate * 100);
    expect(after.items.at(-1)).toMatchObject({
      corporateUuid: corporate.corporateUuid,
      depositAddressId: address.id,
      type: 'USDC',
      network: address.network,
      cryptoAmount: '500',
      amount: { amount: credited, currency: corporate.balance.currency },
      status: 'COMPLETED',
    });
    const balanceAfter = (await control.fixtures()).corporates.find((c) => c.corporateUuid === corporate.corporateUuid)!
      .balance.amount;
    expect(balanceAfter).toBe(balanceBefore + credited);
  });
});
