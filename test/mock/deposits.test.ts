/**
 * Deposits in both areas (Server2Server and Wallet App) and of corporates, contract section 6: types, an
 * address only when none exists, incoming deposits through the control API, verifications and their approval,
 * the balance credited exactly once with exact decimal arithmetic, corporate top-ups.
 */
import { describe, expect, it } from 'vitest';
import {
  approveAppDepositVerification,
  approveDepositVerification,
  createAppDepositAddress,
  createDepositAddress,
  listAppDepositAddresses,
  listAppDepositTypes,
  listAppDepositVerifications,
  listBalances,
  listCorporateDepositAddresses,
  listDepositAddresses,
  listDepositTypes,
  listDepositVerifications,
  listTopUps,
  signAppConsent,
} from '../../sdk/generated/sdk.gen';
import type { DepositVerification, TopUp } from '../../sdk/generated/types.gen';
import { makeUser } from './flows';
import { expectError, expectProblem, mockHarness, ok, send, responseOf } from './helpers';

const h = mockHarness();
const depositConsent = () => h.mock.fixtures().depositTypes[0]!.consentIds[0]!;
const available = async (userId: string) =>
  ok(await listBalances({ client: h.client, query: { userId } })).items[0]!.available;
/** A user ready to receive deposits: deposit consents signed, an address for `type`. */
async function depositor(type = 'USDC', network = 'ETHEREUM') {
  const { user, balanceId } = await makeUser(h.client, h.mock, { depositConsents: true });
  ok(await createDepositAddress({ client: h.client, path: { balanceId, type }, body: { network } }));
  return { user, balanceId };
}
const incoming = (body: object) => send('POST', '/__mock/deposits/incoming', { sign: false, body });

describe('deposit types', () => {
  it('lists BTC, ETH and USDC for a balance, with networks, minimums, EUR rates and the deposit consent', async () => {
    const { user, balanceId } = await makeUser(h.client, h.mock);
    const types = ok(await listDepositTypes({ client: h.client, path: { balanceId } })).items;
    expect(types.map((t) => [t.type, t.networks, t.minimumAmount, t.exchangeRate])).toEqual([
      ['BTC', ['BITCOIN'], '0.0001', { currency: 'EUR', rate: '61000' }],
      ['ETH', ['ETHEREUM'], '0.005', { currency: 'EUR', rate: '3200' }],
      ['USDC', ['ETHEREUM', 'POLYGON'], '10', { currency: 'EUR', rate: '0.92' }],
    ]);
    expect(
      types.every(
        (t) => t.balanceId === balanceId && t.requiredConsents[0]?.kind === 'DEPOSIT' && !t.requiredConsents[0].signed,
      ),
    ).toBe(true);

    const signed = ok(
      await signAppConsent({ client: h.client, path: { consentUuid: depositConsent() }, query: { userUuid: user.id } }),
    );
    expect(signed).toMatchObject({ kind: 'DEPOSIT', signed: true });
    const app = ok(await listAppDepositTypes({ client: h.client, query: { userUuid: user.id } })).items;
    expect(app.map((t) => t.type)).toEqual(['BTC', 'ETH', 'USDC']);
    expect(app.every((t) => t.requiredConsents[0]!.signed)).toBe(true);
  });

  it('an unknown balance or app user is 404', async () => {
    expectError(
      await listDepositTypes({ client: h.client, path: { balanceId: '2e8f4b6a-7c1d-4a3e-9f5b-6d0c8a2e4b17' } }),
      404,
      'NOT_FOUND',
    );
    expectError(
      await listAppDepositTypes({ client: h.client, query: { userUuid: '3f0b7c52-9d0e-4c6a-9a55-1e2f7b8c9d01' } }),
      404,
      'NOT_FOUND',
    );
  });
});

describe('deposit addresses: created only when none exists', () => {
  it('creates one address per balance and type (both areas see it); a second is 409 DEPOSIT_ADDRESS_EXISTS', async () => {
    const { balanceId } = await makeUser(h.client, h.mock, { depositConsents: true });
    expect(ok(await listDepositAddresses({ client: h.client, path: { balanceId, type: 'USDC' } })).items).toEqual([]);
    const created = await createAppDepositAddress({
      client: h.client,
      path: { balanceUuid: balanceId, type: 'USDC' },
      body: { network: 'POLYGON', label: 'Main wallet' },
    });
    expect(responseOf(created).status).toBe(201);
    const address = ok(created);
    expect(address).toMatchObject({
      balanceId,
      type: 'USDC',
      network: 'POLYGON',
      label: 'Main wallet',
      address: expect.stringMatching(/^0x[0-9a-f]{40}$/),
    });
    expect(ok(await listDepositAddresses({ client: h.client, path: { balanceId, type: 'USDC' } })).items).toEqual([
      address,
    ]);
    expect(
      ok(await listAppDepositAddresses({ client: h.client, path: { balanceUuid: balanceId, type: 'USDC' } })).items,
    ).toEqual([address]);
    expectError(
      await createDepositAddress({
        client: h.client,
        path: { balanceId, type: 'USDC' },
        body: { network: 'ETHEREUM' },
      }),
      409,
      'DEPOSIT_ADDRESS_EXISTS',
    );
    const btc = ok(
      await createDepositAddress({ client: h.client, path: { balanceId, type: 'BTC' }, body: { network: 'BITCOIN' } }),
    );
    expect(btc.address).toMatch(/^bc1q[0-9a-z]{38}$/);
    expect(btc.label).toBeNull();
  });

  it('needs the deposit consents signed (422 DEPOSIT_CONSENTS_UNSIGNED) and a network of the type (422 NETWORK_NOT_SUPPORTED)', async () => {
    const { balanceId, user } = await makeUser(h.client, h.mock);
    expectError(
      await createDepositAddress({ client: h.client, path: { balanceId, type: 'ETH' }, body: { network: 'ETHEREUM' } }),
      422,
      'DEPOSIT_CONSENTS_UNSIGNED',
    );
    ok(
      await signAppConsent({ client: h.client, path: { consentUuid: depositConsent() }, query: { userUuid: user.id } }),
    );
    expectError(
      await createDepositAddress({ client: h.client, path: { balanceId, type: 'BTC' }, body: { network: 'ETHEREUM' } }),
      422,
      'NETWORK_NOT_SUPPORTED',
    );
    expectError(
      await createDepositAddress({
        client: h.client,
        path: { balanceId, type: 'DOGE' },
        body: { network: 'DOGECOIN' },
      }),
      404,
      'NOT_FOUND',
    );
  });
});

describe('incoming deposits and verifications', () => {
  it('a deposit that needs no verification is CREDITED at once with floor(amount × rate) in minor units', async () => {
    const { user, balanceId } = await depositor();
    const response = await incoming({ balanceId, type: 'USDC', amount: '100.129', network: 'ETHEREUM' });
    expect(response.status).toBe(201);
    const { kind, verification } = (await response.json()) as { kind: string; verification: DepositVerification };
    expect(kind).toBe('verification');
    expect(verification).toMatchObject({
      status: 'CREDITED',
      verificationRequired: false,
      amount: '100.129',
      creditedAmount: { amount: 9211, currency: 'EUR' },
    });
    expect(await available(user.id)).toBe(9211); // 100.129 × 0.92 = 92.11868 EUR
  });

  it('uses exact decimals: 10.03 ETH × 3200 = 32,096.00 EUR (floating point would give 32,095.99)', async () => {
    const { user, balanceId } = await depositor('ETH', 'ETHEREUM');
    expect(10.03 * 3200 * 100).toBeLessThan(3_209_600); // the float trap this test is about
    h.mock.deposits.incoming({ balanceId, type: 'ETH', amount: '10.03' });
    expect(await available(user.id)).toBe(3_209_600);
    h.mock.deposits.incoming({ balanceId, type: 'ETH', amount: '0.123456789012345678' }); // 395.0617... EUR
    expect(await available(user.id)).toBe(3_209_600 + 39_506);
  });

  it('a deposit that needs verification waits PENDING_APPROVAL; approval credits it once; a second approval is 409', async () => {
    const { user, balanceId } = await depositor();
    const { verification } = (await (
      await incoming({ balanceId, type: 'USDC', amount: '250', requiresVerification: true })
    ).json()) as { verification: DepositVerification };
    expect(verification).toMatchObject({
      status: 'PENDING_APPROVAL',
      verificationRequired: true,
      creditedAmount: null,
      creditedAt: null,
    });
    expect(await available(user.id)).toBe(0);
    expect(ok(await listDepositVerifications({ client: h.client })).items).toEqual([verification]);
    expect(ok(await listDepositVerifications({ client: h.client, query: { userId: user.id } })).items).toEqual([
      verification,
    ]);
    expect(
      ok(
        await listDepositVerifications({ client: h.client, query: { userId: '3f0b7c52-9d0e-4c6a-9a55-1e2f7b8c9d01' } }),
      ).items,
    ).toEqual([]);
    expect(ok(await listAppDepositVerifications({ client: h.client, query: { userUuid: user.id } })).items).toEqual([
      verification,
    ]);

    h.mock.clock.advance(60);
    const approved = ok(
      await approveDepositVerification({
        client: h.client,
        path: { id: verification.id },
        body: { sourceOfFunds: 'SAVINGS', walletType: 'SELF_HOSTED' },
      }),
    );
    expect(approved).toMatchObject({
      status: 'CREDITED',
      creditedAmount: { amount: 23_000, currency: 'EUR' },
      creditedAt: '2026-11-21T09:01:00.000Z',
    });
    expect(await available(user.id)).toBe(23_000);

    const again = expectError(
      await approveAppDepositVerification({
        client: h.client,
        path: { id: verification.id },
        body: { sourceOfFunds: 'SAVINGS', walletType: 'SELF_HOSTED' },
      }),
      409,
      'VERIFICATION_NOT_PENDING',
    );
    expect(again).toMatchObject({
      currentStatus: 'CREDITED',
      operation: 'approveAppDepositVerification',
      detail: 'approveAppDepositVerification is not allowed while the verification is CREDITED.',
    });
    expect(await available(user.id)).toBe(23_000);
  });

  it('the Wallet App approves too, and an approval retried with its Idempotency-Key replays without crediting twice', async () => {
    const { user, balanceId } = await depositor();
    const result = h.mock.deposits.incoming({ balanceId, type: 'USDC', amount: '50', requiresVerification: true });
    const id = result.kind === 'verification' ? result.verification.id : '';
    const body = { sourceOfFunds: 'BUSINESS_INCOME' as const, walletType: 'EXCHANGE' as const, exchangeName: 'Kraken' };
    const headers = { 'Idempotency-Key': 'approve-once' };
    const first = await approveAppDepositVerification({ client: h.client, path: { id }, body, headers });
    const second = await approveAppDepositVerification({ client: h.client, path: { id }, body, headers });
    expect(ok(second)).toEqual(ok(first));
    expect(responseOf(second).headers.get('idempotent-replayed')).toBe('true');
    expect(await available(user.id)).toBe(4_600);
  });

  it('the control API refuses a deposit without an address (409), below the minimum or on another network (422), to an unknown balance (404)', async () => {
    const { balanceId } = await depositor('USDC', 'ETHEREUM');
    await expectProblem(await incoming({ balanceId, type: 'BTC', amount: '1' }), 409, 'DEPOSIT_ADDRESS_MISSING');
    await expectProblem(await incoming({ balanceId, type: 'USDC', amount: '9.99' }), 422, 'AMOUNT_BELOW_MINIMUM');
    await expectProblem(
      await incoming({ balanceId, type: 'USDC', amount: '10', network: 'POLYGON' }),
      422,
      'NETWORK_NOT_SUPPORTED',
    );
    await expectProblem(
      await incoming({ balanceId: '2e8f4b6a-7c1d-4a3e-9f5b-6d0c8a2e4b17', type: 'USDC', amount: '10' }),
      404,
      'NOT_FOUND',
    );
    const bad = await expectProblem(
      await incoming({ balanceId, type: 'USDC', amount: '1e3', extra: true }),
      400,
      'VALIDATION_FAILED',
    );
    expect(bad.errors?.map((e) => e.path).sort()).toEqual(['body.amount', 'body.extra']);
  });
});

describe('corporate deposits and top-ups', () => {
  it('lists the seeded corporate addresses; a deposit to the corporate balance is a top-up that raises it', async () => {
    const corporate = h.mock.fixtures().corporates[1]!;
    const addresses = ok(
      await listCorporateDepositAddresses({ client: h.client, path: { corporateUuid: corporate.corporateUuid } }),
    ).items;
    expect(addresses.map((a) => `${a.type}/${a.network}`)).toEqual([
      'BTC/BITCOIN',
      'ETH/ETHEREUM',
      'USDC/ETHEREUM',
      'USDC/POLYGON',
    ]);
    expect(ok(await listTopUps({ client: h.client, path: { corporateUuid: corporate.corporateUuid } })).items).toEqual(
      [],
    );

    const response = await incoming({
      balanceId: corporate.balanceId,
      type: 'USDC',
      amount: '1000',
      network: 'POLYGON',
    });
    expect(response.status).toBe(201);
    const { kind, topUp } = (await response.json()) as { kind: string; topUp: TopUp };
    expect(kind).toBe('topUp');
    expect(topUp).toMatchObject({
      corporateUuid: corporate.corporateUuid,
      type: 'USDC',
      network: 'POLYGON',
      cryptoAmount: '1000',
      amount: { amount: 92_000, currency: 'EUR' },
      status: 'COMPLETED',
    });
    expect(topUp.depositAddressId).toBe(addresses[3]!.id);
    expect(ok(await listTopUps({ client: h.client, path: { corporateUuid: corporate.corporateUuid } })).items).toEqual([
      topUp,
    ]);
    const after = h.mock.fixtures().corporates[1]!;
    expect(after.balance.amount).toBe(corporate.balance.amount + 92_000);
    expect(after.funded.amount).toBe(corporate.funded.amount + 92_000);
    expect(after.balance.amount + after.reserved.amount).toBe(after.funded.amount);
  });

  it('an unknown corporate is 404', async () => {
    expectError(
      await listTopUps({ client: h.client, path: { corporateUuid: '1b6e3d8f-5a2c-4f7e-9b0d-4c8a1e6f2d93' } }),
      404,
      'NOT_FOUND',
    );
    expectError(
      await listCorporateDepositAddresses({
        client: h.client,
        path: { corporateUuid: '1b6e3d8f-5a2c-4f7e-9b0d-4c8a1e6f2d93' },
      }),
      404,
      'NOT_FOUND',
    );
  });
});
