/**
 * A Wallet App deposit (interface document, sections 3 and 4.2): the same deposit flow through the `/app` area, for
 * the app's user: deposit types of all the user's balances, the deposit consents signed through the app, the address
 * issued by the deposits service only when none exists, then the deposit's verification approved through the app.
 *
 * Run alone: `npx tsx examples/wallet-app-deposit.ts` (in-process mock) or add `--base-url http://127.0.0.1:4010`.
 */
import { approveDeposit, depositAddress, registerUser } from 'card-issuing-sdk';
import { newRegistration } from 'card-issuing-mock/control';
import { check, money, type Example } from './support/example';
import { runStandalone } from './support/run';

/** The same deposit flow through the Wallet App area (`area: 'app'`). */
export const walletAppDeposit: Example = {
  name: 'wallet-app-deposit',
  title: 'an ETH deposit through the Wallet App, verified through the app',
  async run({ client, control, progress }) {
    // The app user is a registered Server2Server user: `userUuid` in /app is the `userId` of /s2s.
    const { user } = await registerUser(client, {
      registration: newRegistration('Hedy', 'Lamarr'),
      acceptConsents: () => true,
      onStep: progress.within('registerUser').onStep,
    });

    const { address, depositType, created } = await depositAddress(client, {
      area: 'app',
      userId: user.id,
      type: 'ETH',
      acceptConsents: () => true,
      onStep: progress.onStep,
    });
    check(created, 'a new app user already had an ETH address');

    // Asking again finds the address: the flow creates one only when none exists.
    const second = await depositAddress(client, {
      area: 'app',
      userId: user.id,
      type: 'ETH',
      acceptConsents: () => true,
      onStep: progress.within('again').onStep,
    });
    check(
      !second.created && second.address.id === address.id,
      'a second address was created for the same balance and type',
    );

    const amount = '0.25';
    await progress.step(
      'incomingDeposit',
      () => control.incomingDeposit({ balanceId: address.balanceId, type: 'ETH', amount, requiresVerification: true }),
      (result) =>
        result.kind === 'verification'
          ? `${amount} ETH to ${address.address.slice(0, 10)}…: ${result.verification.status}`
          : result.kind,
    );

    const { approved } = await approveDeposit(client, {
      area: 'app',
      userId: user.id,
      getVerificationData: () => ({ sourceOfFunds: 'CRYPTO_TRADING', walletType: 'EXCHANGE', exchangeName: 'Kraken' }),
      onStep: progress.onStep,
    });
    const credited = approved[0]?.creditedAmount;
    check(approved[0]?.status === 'CREDITED' && credited != null, 'the app verification was not credited');
    await progress.step(
      'listBalances',
      () => client.s2s.balances.list(user.id),
      (balances) =>
        `credited ${money(credited)} (${amount} ETH at ${depositType.exchangeRate.rate}); balance ${balances.items.map((b) => money({ amount: b.available, currency: b.currency })).join(', ')}`,
    );
  },
};

if (import.meta.main) await runStandalone(walletAppDeposit);
