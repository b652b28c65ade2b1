/**
 * The card-issuing flow (interface document, section 3): configs, e-mail, KYC, consents, the card or its draft and
 * payment, and activation of a physical card.
 * @module
 */
import type { Card, CardConfig, CardConfigList, Draft, EmailOtpChallenge, User } from '../../generated/types.gen';
import { BusinessRuleError } from '../core/errors/classes';
import type { ResourceMethods as CardIssuingClient } from '../resources';
import { FlowRun, type AcceptConsents, type FlowOptions } from './run';

/**
 * Options of {@link issueCard}. Steps, in the document's order: `listConfigs`, `getUser`, `verifyEmail`, `kyc`,
 * `signCardConsents`, `createCard`, `topUp`, `chargeDraft`, `completeDraft`, `waitForOrder`, `activateCard`.
 */
export interface IssueCardOptions extends FlowOptions {
  userId: string;
  configId: string;
  /** The visual; defaults to the config's first. */
  visualId?: string;
  /**
   * The code the user received by e-mail (called after the SDK asked the service to send it). Asked again after
   * a wrong code while tries remain.
   */
  getOtpCode: (context: {
    userId: string;
    challenge: EmailOtpChallenge;
    previousAttemptFailed: boolean;
  }) => string | Promise<string>;
  /** Lets the user pass KYC at `kycUrl`; resolve once done. The flow then checks the KYC status. */
  completeKyc: (context: {
    userId: string;
    kycUrl: string;
    kycStatus: CardConfigList['kycStatus'];
  }) => void | Promise<void>;
  /** Asked with the config's unsigned card consents. */
  acceptConsents: AcceptConsents;
  /**
   * Called when the balance holds less than a draft's price; top it up (e.g. a deposit) and resolve. Without it
   * the flow goes on to charge, which then fails with `INSUFFICIENT_FUNDS`.
   */
  topUpBalance?: (context: { userId: string; draft: Draft; available: number }) => void | Promise<void>;
  /**
   * Physical cards only: resolve once the card's order has completed (with the mock, advance its virtual clock).
   * Without it, a physical card is returned `ORDERED` and `activateCard` is skipped: activate it later.
   */
  waitForOrderCompletion?: (context: { userId: string; card: Card }) => void | Promise<void>;
}

/** What {@link issueCard} returns. */
export interface IssueCardResult {
  user: User;
  config: CardConfig;
  /** The card: `ACTIVE`, or `ORDERED` for a physical card whose activation was skipped. */
  card: Card;
  /** The draft the card was paid through, if the config has a price. */
  draft: Draft | undefined;
}

/**
 * Card issuing: read card configs; verify the e-mail if unverified (request a one-time code, then confirm it);
 * complete KYC if not passed; sign unsigned consents; create the card from a config and visual; if payment is
 * needed, top up the balance, charge the draft, complete the draft; for physical cards only, activate once the
 * order is completed.
 */
export async function issueCard(client: CardIssuingClient, options: IssueCardOptions): Promise<IssueCardResult> {
  const run = new FlowRun('issueCard', options);
  const { userId } = options;

  const findConfig = (list: CardConfigList) => list.items.find((c) => c.id === options.configId);
  let configs = await run.step(
    'listConfigs',
    async () => {
      const list = await client.s2s.cards.listConfigs(userId, run.call);
      if (!findConfig(list))
        run.refuse('listConfigs', 'CONFIG_NOT_FOUND', `no card config ${options.configId} for user ${userId}`);
      return list;
    },
    (l) => `${l.items.length} configs, KYC ${l.kycStatus}`,
  );
  const config = findConfig(configs)!;
  const visualId = options.visualId ?? config.visuals[0]!.id; // the schema requires at least one visual

  let user = await run.step(
    'getUser',
    () => client.s2s.users.get(userId, run.call),
    (u) => `e-mail ${u.emailVerified ? 'verified' : 'unverified'}`,
  );
  if (user.emailVerified) {
    run.skip('verifyEmail', 'e-mail already verified');
  } else {
    user = await run.step(
      'verifyEmail',
      async () => {
        let challenge = await client.s2s.email.requestOtp(userId, run.call);
        for (let failed = false; ; failed = true) {
          const code = await run.callback('verifyEmail', () =>
            options.getOtpCode({ userId, challenge, previousAttemptFailed: failed }),
          );
          try {
            return await client.s2s.email.confirm(userId, { code }, run.call);
          } catch (error) {
            // A mistyped code uses one of the tries; ask again while tries remain.
            const retryable =
              error instanceof BusinessRuleError && error.code === 'OTP_INVALID' && challenge.attemptsRemaining > 1;
            if (!retryable) throw error;
            challenge = { ...challenge, attemptsRemaining: challenge.attemptsRemaining - 1 };
          }
        }
      },
      () => 'e-mail verified',
    );
  }

  if (configs.kycStatus === 'PASSED') {
    run.skip('kyc', 'KYC already passed');
  } else {
    configs = await run.step(
      'kyc',
      async () => {
        await run.callback('kyc', () =>
          options.completeKyc({ userId, kycUrl: configs.kycUrl, kycStatus: configs.kycStatus }),
        );
        const after = await client.s2s.cards.listConfigs(userId, run.call);
        if (after.kycStatus !== 'PASSED')
          run.refuse('kyc', 'KYC_NOT_PASSED', `KYC is ${after.kycStatus} after completeKyc`);
        return after;
      },
      () => 'KYC passed',
    );
  }

  const current = findConfig(configs) ?? config;
  await run.signConsents(
    'signCardConsents',
    current.requiredConsents,
    { userId, purpose: 'card' },
    options.acceptConsents,
    (c) => client.s2s.consents.sign(userId, c.id, run.call),
  );

  const created = await run.step(
    'createCard',
    () => client.s2s.cards.create(userId, { configId: config.id, visualId }, run.call),
    (r) =>
      r.object === 'card'
        ? `card ${r.id} ${r.status}`
        : `draft ${r.cardId} to pay ${r.price.amount} ${r.price.currency}`,
  );

  let card: Card;
  let draft: Draft | undefined;
  if (created.object === 'card') {
    card = created;
    run.skip('topUp', 'the config is free');
    run.skip('chargeDraft', 'the config is free');
    run.skip('completeDraft', 'the config is free');
  } else {
    draft = created;
    const toPay = created;
    await topUp(client, run, userId, toPay, options.topUpBalance);
    draft = await run.step(
      'chargeDraft',
      () => client.s2s.cards.chargeDraft(toPay.cardId, run.call),
      (d) => `draft ${d.status}`,
    );
    card = await run.step(
      'completeDraft',
      async () => {
        const completed = await client.s2s.cards.completeDraft(toPay.cardId, run.call);
        if (completed.object === 'card') return completed;
        // The interface allows draft data here; the card then appears in the user's list (on whichever page).
        let listed: Card | undefined;
        for await (const c of client.s2s.cards.list(userId, run.call)) if (c.id === toPay.cardId) listed = c;
        return (
          listed ??
          run.refuse(
            'completeDraft',
            'CARD_NOT_ISSUED',
            `draft ${toPay.cardId} is ${completed.status} but no card was issued`,
          )
        );
      },
      (c) => `card ${c.id} ${c.status}`,
    );
  }

  if (card.type !== 'PHYSICAL') {
    run.skip('waitForOrder', 'virtual cards are active at once');
    run.skip('activateCard', 'virtual cards are active at once');
  } else if (card.status === 'ACTIVE') {
    run.skip('waitForOrder', 'the card is already active');
    run.skip('activateCard', 'the card is already active');
  } else if (!options.waitForOrderCompletion) {
    run.skip('waitForOrder', 'no waitForOrderCompletion given');
    run.skip('activateCard', `the card is ${card.status}; activate it once its order has completed`);
  } else {
    const wait = options.waitForOrderCompletion;
    const ordered = card;
    await run.step('waitForOrder', () => run.callback('waitForOrder', () => wait({ userId, card: ordered })));
    card = await run.step(
      'activateCard',
      () => client.s2s.cards.activate(ordered.id, run.call),
      (c) => `card ${c.status}`,
    );
  }

  return { user, config, card, draft };
}

async function topUp(
  client: CardIssuingClient,
  run: FlowRun,
  userId: string,
  draft: Draft,
  topUpBalance: IssueCardOptions['topUpBalance'],
) {
  const available = async () => {
    const balances = await client.s2s.balances.list(userId, run.call);
    const balance =
      balances.items.find((b) => b.id === draft.balanceId) ??
      balances.items.find((b) => b.currency === draft.price.currency);
    return balance?.available ?? 0;
  };
  await run.step(
    'topUp',
    async () => {
      const before = await available();
      if (before >= draft.price.amount) return `balance covers the price (${before} >= ${draft.price.amount})`;
      if (!topUpBalance) return `balance ${before} < price ${draft.price.amount} and no topUpBalance given`;
      await run.callback('topUp', () => topUpBalance({ userId, draft, available: before }));
      return `topped up from ${before} to ${await available()}`;
    },
    (detail) => detail,
  );
}
