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
  const flow: Flow = { client, options, run: new FlowRun('issueCard', options) };
  const { userId } = options;

  let configs = await listConfigs(flow);
  const config = findConfig(configs, options.configId)!;
  const visualId = options.visualId ?? config.visuals[0]!.id; // the schema requires at least one visual
  const user = await verifyEmail(flow);
  configs = await passKyc(flow, configs);

  const current = findConfig(configs, options.configId) ?? config;
  await flow.run.signConsents(
    'signCardConsents',
    current.requiredConsents,
    { userId, purpose: 'card' },
    options.acceptConsents,
    (c) => client.s2s.consents.sign(userId, c.id, flow.run.call),
  );

  const created = await flow.run.step(
    'createCard',
    () => client.s2s.cards.create(userId, { configId: config.id, visualId }, flow.run.call),
    (r) =>
      r.object === 'card'
        ? `card ${r.id} ${r.status}`
        : `draft ${r.cardId} to pay ${r.price.amount} ${r.price.currency}`,
  );
  const { card, draft } = created.object === 'card' ? skipPayment(flow, created) : await payDraft(flow, created);
  return { user, config, card: await activate(flow, card), draft };
}

/** What every step of one run of the flow needs. */
interface Flow {
  client: CardIssuingClient;
  options: IssueCardOptions;
  run: FlowRun;
}

const findConfig = (list: CardConfigList, configId: string) => list.items.find((c) => c.id === configId);

async function listConfigs({ client, options, run }: Flow): Promise<CardConfigList> {
  return run.step(
    'listConfigs',
    async () => {
      const list = await client.s2s.cards.listConfigs(options.userId, run.call);
      if (!findConfig(list, options.configId))
        run.refuse('listConfigs', 'CONFIG_NOT_FOUND', `no card config ${options.configId} for user ${options.userId}`);
      return list;
    },
    (l) => `${l.items.length} configs, KYC ${l.kycStatus}`,
  );
}

/** Reads the user, and verifies the e-mail by one-time code unless it already is. */
async function verifyEmail({ client, options, run }: Flow): Promise<User> {
  const { userId } = options;
  const user = await run.step(
    'getUser',
    () => client.s2s.users.get(userId, run.call),
    (u) => `e-mail ${u.emailVerified ? 'verified' : 'unverified'}`,
  );
  if (user.emailVerified) {
    run.skip('verifyEmail', 'e-mail already verified');
    return user;
  }
  return run.step(
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

/** Has the user pass KYC unless they have; the configs as they are after it. */
async function passKyc({ client, options, run }: Flow, configs: CardConfigList): Promise<CardConfigList> {
  const { userId } = options;
  if (configs.kycStatus === 'PASSED') {
    run.skip('kyc', 'KYC already passed');
    return configs;
  }
  return run.step(
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

function skipPayment({ run }: Flow, card: Card): { card: Card; draft: undefined } {
  for (const step of ['topUp', 'chargeDraft', 'completeDraft'] as const) run.skip(step, 'the config is free');
  return { card, draft: undefined };
}

/** A paid config: top up if need be, charge the draft, complete it; the card it became. */
async function payDraft(flow: Flow, toPay: Draft): Promise<{ card: Card; draft: Draft }> {
  const { client, options, run } = flow;
  await topUp(client, run, options.userId, toPay, options.topUpBalance);
  const draft = await run.step(
    'chargeDraft',
    () => client.s2s.cards.chargeDraft(toPay.cardId, run.call),
    (d) => `draft ${d.status}`,
  );
  const card = await run.step(
    'completeDraft',
    async () => {
      const completed = await client.s2s.cards.completeDraft(toPay.cardId, run.call);
      if (completed.object === 'card') return completed;
      // The interface allows draft data here; the card then appears in the user's list (on whichever page).
      let listed: Card | undefined;
      for await (const c of client.s2s.cards.list(options.userId, run.call)) if (c.id === toPay.cardId) listed = c;
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
  return { card, draft };
}

/** A physical card: waits for its order and activates it, when the caller can tell when the order is done. */
async function activate({ client, options, run }: Flow, card: Card): Promise<Card> {
  const skipBoth = (why: string, activateWhy = why) => {
    run.skip('waitForOrder', why);
    run.skip('activateCard', activateWhy);
    return card;
  };
  if (card.type !== 'PHYSICAL') return skipBoth('virtual cards are active at once');
  if (card.status === 'ACTIVE') return skipBoth('the card is already active');
  const wait = options.waitForOrderCompletion;
  if (!wait)
    return skipBoth(
      'no waitForOrderCompletion given',
      `the card is ${card.status}; activate it once its order has completed`,
    );
  await run.step('waitForOrder', () => run.callback('waitForOrder', () => wait({ userId: options.userId, card })));
  return run.step(
    'activateCard',
    () => client.s2s.cards.activate(card.id, run.call),
    (c) => `card ${c.status}`,
  );
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
