/**
 * Deposits in both areas (interface document sections 3 and 4.2, contract section 6): deposit types per balance,
 * consents before an address, an address created only when none exists, networks, and incoming deposits that are
 * credited at once or wait for a verification approved with verification data, credited exactly once. Incoming
 * deposits come through the mock's control API: those tests are skipped against a real service.
 */
import { describe, expect, it } from './support/test';
import type { DepositVerification } from 'card-issuing-sdk';
import { registeredUser } from './support/actors';
import { UNKNOWN_ID, expectProblem, expectRefusal, useContract } from './support/harness';

const contract = useContract(import.meta.url);

/** A registered user's first balance and its deposit types. */
async function userWithBalance() {
  const user = await registeredUser(contract);
  const balance = (await contract.client.s2s.balances.list(user.id)).items[0];
  if (!balance) throw new Error(`user ${user.id} has no balance`);
  return { user, balance };
}

describe('Server2Server deposit addresses', () => {
  it('deposit types name the balance, networks, minimum and rate; an address needs the consents (422 DEPOSIT_CONSENTS_UNSIGNED)', async () => {
    const { user, balance } = await userWithBalance();
    const { client } = contract;
    const types = await client.s2s.deposits.listTypes(balance.id);
    expect(types.items.length).toBeGreaterThan(0);
    for (const type of types.items)
      expect(type).toMatchObject({ balanceId: balance.id, exchangeRate: { currency: balance.currency } });
    const type = types.items[0]!;
    await expectRefusal(client.s2s.deposits.createAddress(balance.id, type.type, { network: type.networks[0]! }), {
      status: 422,
      code: 'DEPOSIT_CONSENTS_UNSIGNED',
    });
    for (const consent of type.requiredConsents) await client.s2s.consents.sign(user.id, consent.id);
    expect((await client.s2s.deposits.listTypes(balance.id)).items[0]!.requiredConsents.every((c) => c.signed)).toBe(
      true,
    );
  });

  it('an address is 201 only when none exists: a second is 409 DEPOSIT_ADDRESS_EXISTS; a network the type lacks is 422 NETWORK_NOT_SUPPORTED', async () => {
    const { user, balance } = await userWithBalance();
    const { client } = contract;
    const type =
      (await client.s2s.deposits.listTypes(balance.id)).items.find((t) => t.type === 'USDC') ??
      (await client.s2s.deposits.listTypes(balance.id)).items[0]!;
    for (const consent of type.requiredConsents) await client.s2s.consents.sign(user.id, consent.id);
    expect((await client.s2s.deposits.listAddresses(balance.id, type.type)).items).toEqual([]);
    await expectRefusal(client.s2s.deposits.createAddress(balance.id, type.type, { network: 'NOT_A_NETWORK' }), {
      status: 422,
      code: 'NETWORK_NOT_SUPPORTED',
    });
    const { data: address, status } = await client.s2s.deposits
      .createAddress(balance.id, type.type, { network: type.networks[0]!, label: 'main' })
      .withResponse();
    expect(status).toBe(201);
    expect(address).toMatchObject({ balanceId: balance.id, type: type.type, network: type.networks[0], label: 'main' });
    await expectRefusal(client.s2s.deposits.createAddress(balance.id, type.type, { network: type.networks[0]! }), {
      status: 409,
      code: 'DEPOSIT_ADDRESS_EXISTS',
    });
    expect((await client.s2s.deposits.listAddresses(balance.id, type.type)).items.map((a) => a.id)).toEqual([
      address.id,
    ]);
  });

  it('unknown balances, types and verifications are 404 NOT_FOUND; a bad body is 400 naming the field', async () => {
    const { client } = contract;
    await expectRefusal(client.s2s.deposits.listTypes(UNKNOWN_ID), { status: 404, code: 'NOT_FOUND' });
    await expectRefusal(client.s2s.deposits.listAddresses(UNKNOWN_ID, 'USDC'), { status: 404, code: 'NOT_FOUND' });
    await expectRefusal(
      client.s2s.deposits.approveVerification(UNKNOWN_ID, { sourceOfFunds: 'SALARY', walletType: 'SELF_HOSTED' }),
      { status: 404, code: 'NOT_FOUND' },
    );
    const { balance } = await userWithBalance();
    await expectRefusal(client.s2s.deposits.listAddresses(balance.id, 'NOPE'), { status: 404, code: 'NOT_FOUND' });
    const problem = expectProblem(
      await contract.send({
        method: 'POST',
        path: `/s2s/deposits/${balance.id}/USDC`,
        body: { network: 'ETHEREUM', colour: 'red' },
      }),
      400,
      'VALIDATION_FAILED',
    );
    expect(problem.errors?.map((e) => e.path)).toContain('body.colour');
  });
});

/** A user with a USDC address on their balance (consents signed). */
async function userWithAddress() {
  const { user, balance } = await userWithBalance();
  const type = (await contract.client.s2s.deposits.listTypes(balance.id)).items.find((t) => t.type === 'USDC')!;
  for (const consent of type.requiredConsents) await contract.client.s2s.consents.sign(user.id, consent.id);
  const address = await contract.client.s2s.deposits.createAddress(balance.id, 'USDC', { network: 'ETHEREUM' });
  return { user, balance, type, address };
}
/** What a balance of the user has available, in minor units. */
const available = async (userId: string, balanceId: string) =>
  (await contract.client.s2s.balances.list(userId)).items.find((b) => b.id === balanceId)!.available;

describe('incoming deposits credited at once, listed by user', () => {
  it('a deposit needing no verification is CREDITED at once with amount × rate', async (context) => {
    const control = contract.control(context);
    const { user, balance, type } = await userWithAddress();
    const before = await available(user.id, balance.id);
    // A fractional amount, so that rounding shows: the spec rounds the credit down to the minor unit.
    const result = await control.incomingDeposit({ balanceId: balance.id, type: 'USDC', amount: '50.123456' });
    expect(result.kind).toBe('verification');
    const listed = (await contract.client.s2s.deposits.listVerifications({ userId: user.id })).items;
    expect(listed).toHaveLength(1);
    const exact = 50.123456 * Number(type.exchangeRate.rate) * 100;
    expect(Number.isInteger(exact), 'the test amount must leave a fraction of a minor unit').toBe(false);
    const credited = Math.floor(exact);
    expect(listed[0]).toMatchObject({
      status: 'CREDITED',
      verificationRequired: false,
      amount: '50.123456',
      creditedAmount: { amount: credited, currency: balance.currency },
    });
    expect(await available(user.id, balance.id)).toBe(before + credited);
  });

  it('listDepositVerifications without userId lists every user of the api key; with it, only that user', async (context) => {
    const control = contract.control(context);
    const a = await userWithAddress();
    const b = await userWithAddress();
    await control.incomingDeposit({ balanceId: a.balance.id, type: 'USDC', amount: '10' });
    await control.incomingDeposit({ balanceId: b.balance.id, type: 'USDC', amount: '10' });
    const all = (await contract.client.s2s.deposits.listVerifications()).items.map((v) => v.userId);
    expect(all).toEqual(expect.arrayContaining([a.user.id, b.user.id]));
    expect(
      (await contract.client.s2s.deposits.listVerifications({ userId: a.user.id })).items.map((v) => v.userId),
    ).toEqual([a.user.id]);
  });
});

describe('incoming deposits waiting for a verification', () => {
  it('a deposit needing a verification waits (PENDING_APPROVAL, nothing credited); approved with data it is CREDITED once; again is 409 VERIFICATION_NOT_PENDING', async (context) => {
    const control = contract.control(context);
    const { user, balance } = await userWithAddress();
    const before = await available(user.id, balance.id);
    await control.incomingDeposit({ balanceId: balance.id, type: 'USDC', amount: '20', requiresVerification: true });
    const [pending] = (await contract.client.s2s.deposits.listVerifications({ userId: user.id })).items as [
      DepositVerification,
    ];
    expect(pending).toMatchObject({
      status: 'PENDING_APPROVAL',
      verificationRequired: true,
      creditedAmount: null,
      creditedAt: null,
    });
    expect(await available(user.id, balance.id)).toBe(before);

    const bad = expectProblem(
      await contract.send({
        method: 'POST',
        path: `/s2s/deposits/verifications/${pending.id}/approval`,
        body: { sourceOfFunds: 'LOTTERY', walletType: 'SELF_HOSTED' },
      }),
      400,
      'VALIDATION_FAILED',
    );
    expect(bad.errors?.map((e) => e.path)).toContain('body.sourceOfFunds');

    const approved = await contract.client.s2s.deposits.approveVerification(pending.id, {
      sourceOfFunds: 'SALARY',
      walletType: 'SELF_HOSTED',
    });
    expect(approved).toMatchObject({ id: pending.id, status: 'CREDITED' });
    expect(await available(user.id, balance.id)).toBe(before + approved.creditedAmount!.amount);
    await expectRefusal(
      contract.client.s2s.deposits.approveVerification(pending.id, {
        sourceOfFunds: 'SALARY',
        walletType: 'SELF_HOSTED',
      }),
      {
        status: 409,
        code: 'VERIFICATION_NOT_PENDING',
        currentStatus: 'CREDITED',
      },
    );
    expect(await available(user.id, balance.id)).toBe(before + approved.creditedAmount!.amount);
  });
});

describe('Wallet App deposits', () => {
  it("the app user's deposit types (userUuid in the query), consents signed through the app, an address only once, a verification approved through the app", async (context) => {
    const { client } = contract;
    const { user } = await userWithBalance();
    const types = await client.app.deposits.listTypes(user.id);
    const eth = types.items.find((t) => t.type === 'ETH') ?? types.items[0]!;
    await expectRefusal(client.app.deposits.createAddress(eth.balanceId, eth.type, { network: eth.networks[0]! }), {
      status: 422,
      code: 'DEPOSIT_CONSENTS_UNSIGNED',
    });
    for (const consent of eth.requiredConsents)
      expect(await client.app.consents.sign(user.id, consent.id)).toMatchObject({ id: consent.id, signed: true });
    expect((await client.app.deposits.listAddresses(eth.balanceId, eth.type)).items).toEqual([]);
    const { data: address, status } = await client.app.deposits
      .createAddress(eth.balanceId, eth.type, { network: eth.networks[0]! })
      .withResponse();
    expect(status).toBe(201);
    await expectRefusal(client.app.deposits.createAddress(eth.balanceId, eth.type, { network: eth.networks[0]! }), {
      status: 409,
      code: 'DEPOSIT_ADDRESS_EXISTS',
    });
    expect((await client.app.deposits.listAddresses(eth.balanceId, eth.type)).items.map((a) => a.id)).toEqual([
      address.id,
    ]);

    const control = contract.control(context);
    await control.incomingDeposit({
      balanceId: eth.balanceId,
      type: eth.type,
      amount: eth.minimumAmount,
      requiresVerification: true,
    });
    const [pending] = (await client.app.deposits.listVerifications(user.id)).items;
    expect(pending).toMatchObject({ status: 'PENDING_APPROVAL', userId: user.id });
    const approved = await client.app.deposits.approveVerification(pending!.id, {
      sourceOfFunds: 'CRYPTO_TRADING',
      walletType: 'EXCHANGE',
      exchangeName: 'Kraken',
    });
    expect(approved).toMatchObject({ id: pending!.id, status: 'CREDITED' });
    await expectRefusal(
      client.app.deposits.approveVerification(pending!.id, { sourceOfFunds: 'SALARY', walletType: 'SELF_HOSTED' }),
      { status: 409, code: 'VERIFICATION_NOT_PENDING' },
    );
  });

  it('unknown app users, balances and consents are 404 NOT_FOUND', async () => {
    const { client } = contract;
    await expectRefusal(client.app.deposits.listTypes(UNKNOWN_ID), { status: 404, code: 'NOT_FOUND' });
    await expectRefusal(client.app.deposits.listVerifications(UNKNOWN_ID), { status: 404, code: 'NOT_FOUND' });
    await expectRefusal(client.app.deposits.listAddresses(UNKNOWN_ID, 'ETH'), { status: 404, code: 'NOT_FOUND' });
    const { user } = await userWithBalance();
    await expectRefusal(client.app.consents.sign(user.id, UNKNOWN_ID), { status: 404, code: 'NOT_FOUND' });
    await expectRefusal(
      client.app.deposits.approveVerification(UNKNOWN_ID, { sourceOfFunds: 'SALARY', walletType: 'SELF_HOSTED' }),
      { status: 404, code: 'NOT_FOUND' },
    );
  });

  it('a new user has no deposit verifications, in either area', async () => {
    const { user } = await userWithBalance();
    expect((await contract.client.s2s.deposits.listVerifications({ userId: user.id })).items).toEqual([]);
    expect((await contract.client.app.deposits.listVerifications(user.id)).items).toEqual([]);
  });
});
