/**
 * Card issuing (interface document, section 3): read card configs; verify the e-mail with a one-time code; pass KYC;
 * sign the card consents; create the card from a config and a visual; the config has a price, so top up the balance
 * (a crypto deposit), charge the draft and complete it; the card is physical, so activate it once its order has
 * completed.
 *
 * The mock plays the user and the outside world through its control API: the e-mail's code is read from its
 * outbox, the KYC provider's answer is given to it, the deposit arrives through it, and time passes on its clock.
 *
 * Run alone: `npx tsx examples/card-issuing.ts` (in-process mock) or add `--base-url http://127.0.0.1:4010`.
 */
import { type Card, type Draft, depositAddress, issueCard, registerUser } from 'card-issuing-sdk';
import { newRegistration } from 'card-issuing-mock/control';
import { check, type Example, type ExampleContext, money } from './support/example';
import { runStandalone } from './support/run';

const DAY = 24 * 3600;

/** Card issuing through the SDK's `issueCard` flow: a paid physical card, from e-mail code to activation. */
export const cardIssuing: Example = {
  name: 'card-issuing',
  title: 'a paid physical card: e-mail code, KYC, a draft paid from a crypto top-up, activation after delivery',
  async run({ client, control, fixtures, progress }) {
    const { user } = await registerUser(client, {
      registration: newRegistration('Grace', 'Hopper'),
      acceptConsents: () => true,
      onStep: progress.within('registerUser').onStep,
    });
    const config = fixtures.cardConfigs.find((c) => c.type === 'PHYSICAL' && c.price !== null);
    check(config !== undefined, 'the mock offers no paid physical card config');

    const { card, draft } = await issueCard(client, {
      userId: user.id,
      configId: config.configId,
      // The user reads the code in the e-mail and types it in.
      getOtpCode: ({ challenge }) =>
        progress.within('verifyEmail').step(
          'readEmail',
          () => control.latestOtpCode(user.id),
          () => `code e-mailed to ${challenge.sentTo}`,
        ),
      // The user passes KYC at the URL the configs listed; the KYC provider tells the service.
      completeKyc: async ({ kycUrl }) => {
        await progress.within('kyc').step(
          'providerResult',
          () => control.kyc(user.id, 'PASSED'),
          (u) => `KYC ${u.kycStatus} at ${new URL(kycUrl).host}`,
        );
      },
      acceptConsents: () => true,
      // The balance cannot pay the draft: the user deposits USDC at their address, and the balance is credited.
      topUpBalance: (needed) => topUpWithUsdc({ client, control, progress }, user.id, needed),
      // A physical card is delivered some days after the order: let days pass until it awaits activation.
      waitForOrderCompletion: ({ card }) => waitForDelivery({ client, control, progress }, user.id, card),
      onStep: progress.onStep,
    });

    check(card.status === 'ACTIVE', `the card is ${card.status}, not ACTIVE`);
    check(draft !== undefined && draft.status === 'CHARGED', 'the card was not paid through a charged draft');
    await progress.step(
      'listBalances',
      () => client.s2s.balances.list(user.id),
      (balances) =>
        `paid ${money(draft.price)}; balance now ${balances.items.map((b) => money({ amount: b.available, currency: b.currency })).join(', ')}`,
    );
    await progress.step(
      'listCards',
      () => client.s2s.cards.list(user.id),
      (cards) => cards.items.map((c) => `${c.type} •••• ${c.last4} ${c.status}`).join(', '),
    );
  },
};

type Context = Pick<ExampleContext, 'client' | 'control' | 'progress'>;

/** The top-up step: a USDC deposit at the user's address, enough to cover what the draft still needs. */
async function topUpWithUsdc(
  { client, control, progress }: Context,
  userId: string,
  { draft, available }: { draft: Draft; available: number },
): Promise<void> {
  const topUp = progress.within('topUp');
  const { address, depositType } = await depositAddress(client, {
    userId,
    type: 'USDC',
    balanceId: draft.balanceId,
    acceptConsents: () => true,
    onStep: topUp.within('depositAddress').onStep,
  });
  const missing = (draft.price.amount - available) / 100;
  const amount = String(
    Math.max(Number(depositType.minimumAmount), Math.ceil(missing / Number(depositType.exchangeRate.rate))),
  );
  await topUp.step(
    'incomingDeposit',
    () => control.incomingDeposit({ balanceId: draft.balanceId, type: 'USDC', amount, network: address.network }),
    (result) =>
      result.kind === 'verification'
        ? `${amount} USDC to ${address.address.slice(0, 10)}…: ${result.verification.status}`
        : result.kind,
  );
}

/** The delivery step: days pass on the mock's clock until the ordered card awaits activation (at most 14). */
async function waitForDelivery({ client, control, progress }: Context, userId: string, card: Card): Promise<void> {
  await progress.within('waitForOrder').step(
    'advanceClock',
    async () => {
      let current: Card = card;
      let days = 0;
      while (current.status === 'ORDERED' && days < 14) {
        await control.advanceClock(DAY);
        days++;
        current = (await client.s2s.cards.list(userId)).items.find((c) => c.id === card.id) ?? current;
      }
      check(current.status === 'AWAITING_ACTIVATION', `card ${card.id} is still ${current.status} after ${days} days`);
      return days;
    },
    (days) => `delivered after ${days} day(s) on the virtual clock: AWAITING_ACTIVATION`,
  );
}

if (import.meta.main) await runStandalone(cardIssuing);
