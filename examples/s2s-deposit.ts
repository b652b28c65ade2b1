/**
 * A Server2Server deposit with a verification (interface document, section 3): list deposit types; sign the
 * deposit consents; list addresses; create one since none exists; the user sends crypto to it; the deposit needs a
 * verification, so list verifications and approve it with verification data; the service credits the balance once.
 *
 * Run alone: `npx tsx examples/s2s-deposit.ts` (in-process mock) or add `--base-url http://127.0.0.1:4010`.
 */
import { approveDeposit, depositAddress, registerUser } from 'card-issuing-sdk';
import { newRegistration } from 'card-issuing-mock/control';
import { check, money, type Example } from './support/example';
import { runStandalone } from './support/run';

/** A Server2Server deposit through `depositAddress` and `approveDeposit`, with a verification. */
export const s2sDeposit: Example = {
  name: 's2s-deposit',
  title: 'a crypto deposit that needs a verification, approved with verification data, credited once',
  async run({ client, control, progress }) {
    const { user } = await registerUser(client, {
      registration: newRegistration('Alan', 'Turing'),
      acceptConsents: () => true,
      onStep: progress.within('registerUser').onStep,
    });

    const { address, depositType } = await depositAddress(client, {
      userId: user.id,
      type: 'USDC',
      depositOptions: { network: 'POLYGON', label: 'savings' },
      acceptConsents: () => true,
      onStep: progress.onStep,
    });
    const balanceOf = async () =>
      (await client.s2s.balances.list(user.id)).items.find((b) => b.id === address.balanceId)?.available ?? 0;
    const before = await balanceOf();

    // The user sends 250 USDC; the deposits service holds it until the integrator sends verification data.
    const incoming = await progress.step(
      'incomingDeposit',
      () =>
        control.incomingDeposit({
          balanceId: address.balanceId,
          type: depositType.type,
          amount: '250',
          network: address.network,
          requiresVerification: true,
        }),
      (result) =>
        result.kind === 'verification'
          ? `250 ${depositType.type} on ${address.network}: verification ${result.verification.id} ${result.verification.status}`
          : result.kind,
    );
    check(
      incoming.kind === 'verification' && incoming.verification.status === 'PENDING_APPROVAL',
      'the deposit did not wait for a verification',
    );
    check((await balanceOf()) === before, 'the balance was credited before the verification was approved');

    const { approved } = await approveDeposit(client, {
      userId: user.id,
      // Ask the user where the funds come from and which wallet sent them.
      getVerificationData: () => ({ sourceOfFunds: 'SAVINGS', walletType: 'SELF_HOSTED' }),
      onStep: progress.onStep,
    });
    const credited = approved[0]?.creditedAmount;
    check(
      approved.length === 1 && approved[0]?.status === 'CREDITED' && credited != null,
      'the verification was not approved and credited',
    );

    await progress.step(
      'listBalances',
      () => client.s2s.balances.list(user.id),
      (balances) =>
        `credited ${money(credited)} (250 ${depositType.type} at ${depositType.exchangeRate.rate}); balance ${balances.items.map((b) => money({ amount: b.available, currency: b.currency })).join(', ')}`,
    );
    check(
      (await balanceOf()) === before + credited.amount,
      'the balance was not credited exactly once with the credited amount',
    );
  },
};

if (import.meta.main) await runStandalone(s2sDeposit);
