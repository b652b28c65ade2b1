/**
 * Flow helpers: the orders of the interface document's section 3 ("Flow orders that the interface shows"), over
 * the client's methods. What only the end user or the outside world can do (read an e-mail code, pass KYC, accept
 * consents, deposit crypto, wait for a card to arrive) comes in through callbacks the caller supplies.
 *
 * Each flow reports its steps through `onStep` (`started`, then `done`, `skipped` or `failed`) so that a caller
 * can show progress, and stops with a {@link FlowError} naming the step, with the underlying error as `cause`.
 * @module
 */
import type {
  Card,
  CardConfig,
  CardConfigList,
  Consent,
  DepositAddress,
  DepositOptions,
  DepositType,
  DepositTypeCode,
  DepositVerification,
  Draft,
  EmailOtpChallenge,
  RegistrationData,
  User,
  VerificationData,
} from '../../generated/types.gen';
import type { RequestOptions } from '../options';
import type { ResourceMethods as CardIssuingClient } from '../resources';
import type { ErrorCode } from '../core/errors/base';
import { BusinessRuleError } from '../core/errors/classes';
import { FlowError, type FlowName } from '../core/errors/flow-error';

/** A step's progress. `failed` comes just before the flow throws its {@link FlowError}. */
export type FlowStepStatus = 'started' | 'done' | 'skipped' | 'failed';

/** What `onStep` receives. */
export interface FlowStep {
  /** The step, e.g. `verifyEmail` (each flow's step names are listed in its options' TSDoc). */
  step: string;
  status: FlowStepStatus;
  /** Why a step was skipped, or what it did (ids, statuses). Never card data. */
  detail?: string;
}

/** Options every flow takes. */
export interface FlowOptions {
  /** Progress: called as each step starts and ends. An exception thrown here is ignored. */
  onStep?: (step: FlowStep) => void;
  /** Aborts the flow's calls. */
  signal?: AbortSignal;
}

/** Asked before the flow signs consents for the user: show them, return true when the user accepted all. */
export type AcceptConsents = (consents: Consent[], context: { userId: string; purpose: 'registration' | 'card' | 'deposit' }) => boolean | Promise<boolean>;

// ------------------------------------------------------------------------------------------------ runner

class FlowRun {
  readonly #flow: FlowName;
  readonly #options: FlowOptions;

  constructor(flow: FlowName, options: FlowOptions) {
    this.#flow = flow;
    this.#options = options;
  }

  /** Call options for the steps' requests. */
  get call(): RequestOptions {
    return this.#options.signal ? { signal: this.#options.signal } : {};
  }

  report(step: string, status: FlowStepStatus, detail?: string): void {
    try {
      this.#options.onStep?.(detail === undefined ? { step, status } : { step, status, detail });
    } catch {
      // Progress reporting must never break the flow.
    }
  }

  skip(step: string, detail: string): void {
    this.report(step, 'started');
    this.report(step, 'skipped', detail);
  }

  /** Runs one step: reports it, and turns any failure into a FlowError naming it. `body` may return a detail. */
  async step<T>(step: string, body: () => Promise<T>, detail?: (result: T) => string | undefined): Promise<T> {
    this.report(step, 'started');
    let result: T;
    try {
      result = await body();
    } catch (error) {
      const flowError = error instanceof FlowError ? error : new FlowError({ flow: this.#flow, step, cause: error });
      this.report(step, 'failed', flowError.code);
      throw flowError;
    }
    this.report(step, 'done', detail?.(result));
    return result;
  }

  /** Stops the flow at `step` for a reason of its own (no request failed). */
  refuse(step: string, code: ErrorCode, detail: string): never {
    throw new FlowError({ flow: this.#flow, step, code, detail });
  }

  /** Wraps a caller's callback so that its failure is reported as CALLBACK_FAILED at this step. */
  async callback<T>(step: string, fn: () => T | Promise<T>): Promise<T> {
    try {
      return await fn();
    } catch (error) {
      throw new FlowError({ flow: this.#flow, step, cause: error, code: 'CALLBACK_FAILED' });
    }
  }

  /** Asks the caller to accept consents and signs them one by one. */
  async signConsents(step: string, consents: Consent[], context: Parameters<AcceptConsents>[1], accept: AcceptConsents, sign: (consent: Consent) => Promise<unknown>): Promise<void> {
    const unsigned = consents.filter((c) => !c.signed);
    if (unsigned.length === 0) return this.skip(step, 'no unsigned consents');
    await this.step(
      step,
      async () => {
        const accepted = await this.callback(step, () => accept(unsigned, context));
        if (accepted !== true) this.refuse(step, 'CONSENTS_DECLINED', `the user did not accept ${unsigned.length} consent(s): ${unsigned.map((c) => c.title).join(', ')}`);
        for (const consent of unsigned) await sign(consent);
      },
      () => `signed ${unsigned.map((c) => c.id).join(', ')}`,
    );
  }
}

// ------------------------------------------------------------------------------------------------ registerUser

/** Options of {@link registerUser}. Steps: `createUser`, `signRegistrationConsents`, `getUser`. */
export interface RegisterUserOptions extends FlowOptions {
  registration: RegistrationData;
  /** Asked with the registration consents the response lists. */
  acceptConsents: AcceptConsents;
  /** Makes the user creation safe to repeat across restarts (same key, same user). */
  idempotencyKey?: string;
}

/**
 * Registration: create the user; if the response lists required consents, sign each (after `acceptConsents`);
 * registration is then complete. Returns the user as it now is (`registrationStatus: 'COMPLETED'`).
 */
export async function registerUser(client: CardIssuingClient, options: RegisterUserOptions): Promise<{ user: User }> {
  const run = new FlowRun('registerUser', options);
  const created = await run.step(
    'createUser',
    () => client.s2s.users.create(options.registration, { ...run.call, ...(options.idempotencyKey ? { idempotencyKey: options.idempotencyKey } : {}) }),
    (u) => `user ${u.id}`,
  );
  await run.signConsents('signRegistrationConsents', created.requiredConsents, { userId: created.id, purpose: 'registration' }, options.acceptConsents, (c) =>
    client.s2s.consents.sign(created.id, c.id, run.call),
  );
  const user = await run.step(
    'getUser',
    async () => {
      const current = await client.s2s.users.get(created.id, run.call);
      if (current.registrationStatus !== 'COMPLETED') {
        run.refuse('getUser', 'REGISTRATION_INCOMPLETE', `registration is ${current.registrationStatus} after signing every listed consent`);
      }
      return current;
    },
    (u) => `registration ${u.registrationStatus}`,
  );
  return { user };
}

// ------------------------------------------------------------------------------------------------ issueCard

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
  getOtpCode: (context: { userId: string; challenge: EmailOtpChallenge; previousAttemptFailed: boolean }) => string | Promise<string>;
  /** Lets the user pass KYC at `kycUrl`; resolve once done. The flow then checks the KYC status. */
  completeKyc: (context: { userId: string; kycUrl: string; kycStatus: CardConfigList['kycStatus'] }) => void | Promise<void>;
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
      if (!findConfig(list)) run.refuse('listConfigs', 'CONFIG_NOT_FOUND', `no card config ${options.configId} for user ${userId}`);
      return list;
    },
    (l) => `${l.items.length} configs, KYC ${l.kycStatus}`,
  );
  const config = findConfig(configs)!;
  const visualId = options.visualId ?? config.visuals[0]!.id; // the schema requires at least one visual

  let user = await run.step('getUser', () => client.s2s.users.get(userId, run.call), (u) => `e-mail ${u.emailVerified ? 'verified' : 'unverified'}`);
  if (user.emailVerified) {
    run.skip('verifyEmail', 'e-mail already verified');
  } else {
    user = await run.step(
      'verifyEmail',
      async () => {
        let challenge = await client.s2s.email.requestOtp(userId, run.call);
        for (let failed = false; ; failed = true) {
          const code = await run.callback('verifyEmail', () => options.getOtpCode({ userId, challenge, previousAttemptFailed: failed }));
          try {
            return await client.s2s.email.confirm(userId, { code }, run.call);
          } catch (error) {
            // A mistyped code uses one of the tries; ask again while tries remain.
            const retryable = error instanceof BusinessRuleError && error.code === 'OTP_INVALID' && challenge.attemptsRemaining > 1;
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
        await run.callback('kyc', () => options.completeKyc({ userId, kycUrl: configs.kycUrl, kycStatus: configs.kycStatus }));
        const after = await client.s2s.cards.listConfigs(userId, run.call);
        if (after.kycStatus !== 'PASSED') run.refuse('kyc', 'KYC_NOT_PASSED', `KYC is ${after.kycStatus} after completeKyc`);
        return after;
      },
      () => 'KYC passed',
    );
  }

  const current = findConfig(configs) ?? config;
  await run.signConsents('signCardConsents', current.requiredConsents, { userId, purpose: 'card' }, options.acceptConsents, (c) =>
    client.s2s.consents.sign(userId, c.id, run.call),
  );

  const created = await run.step('createCard', () => client.s2s.cards.create(userId, { configId: config.id, visualId }, run.call), (r) =>
    r.object === 'card' ? `card ${r.id} ${r.status}` : `draft ${r.cardId} to pay ${r.price.amount} ${r.price.currency}`,
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
    draft = await run.step('chargeDraft', () => client.s2s.cards.chargeDraft(toPay.cardId, run.call), (d) => `draft ${d.status}`);
    card = await run.step(
      'completeDraft',
      async () => {
        const completed = await client.s2s.cards.completeDraft(toPay.cardId, run.call);
        if (completed.object === 'card') return completed;
        // The interface allows draft data here; the card then appears in the user's list (on whichever page).
        let listed: Card | undefined;
        for await (const c of client.s2s.cards.list(userId, run.call)) if (c.id === toPay.cardId) listed = c;
        return listed ?? run.refuse('completeDraft', 'CARD_NOT_ISSUED', `draft ${toPay.cardId} is ${completed.status} but no card was issued`);
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
    card = await run.step('activateCard', () => client.s2s.cards.activate(ordered.id, run.call), (c) => `card ${c.status}`);
  }

  return { user, config, card, draft };
}

async function topUp(client: CardIssuingClient, run: FlowRun, userId: string, draft: Draft, topUpBalance: IssueCardOptions['topUpBalance']) {
  const available = async () => {
    const balances = await client.s2s.balances.list(userId, run.call);
    const balance = balances.items.find((b) => b.id === draft.balanceId) ?? balances.items.find((b) => b.currency === draft.price.currency);
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

// ------------------------------------------------------------------------------------------------ deposits

/** Which API a deposit flow uses: Server2Server (`/s2s`, default) or the Wallet App (`/app`). */
export type DepositArea = 's2s' | 'app';

/** Options of {@link depositAddress}. Steps: `listBalances` (s2s without balanceId), `listTypes`, `signDepositConsents`, `listAddresses`, `createAddress`. */
export interface DepositAddressOptions extends FlowOptions {
  /** The user (`userId` in /s2s, `userUuid` in /app). */
  userId: string;
  /** The asset, e.g. `USDC`. */
  type: DepositTypeCode;
  /** The balance to credit; defaults to the user's balance that offers `type` (/app) or the user's first balance (/s2s). */
  balanceId?: string;
  /** The deposit options of a new address; `network` defaults to the type's first network. */
  depositOptions?: Partial<DepositOptions>;
  /** Asked with the type's unsigned deposit consents. */
  acceptConsents: AcceptConsents;
  area?: DepositArea;
}

/** What {@link depositAddress} returns. */
export interface DepositAddressResult {
  depositType: DepositType;
  address: DepositAddress;
  /** True when this flow created the address; false when one existed. */
  created: boolean;
}

/**
 * Deposit address: list deposit types; sign unsigned consents; list addresses; if no address exists, create one
 * from deposit options. Returns the address to show the user.
 */
export async function depositAddress(client: CardIssuingClient, options: DepositAddressOptions): Promise<DepositAddressResult> {
  const run = new FlowRun('depositAddress', options);
  const app = options.area === 'app';
  const { userId, type } = options;

  let balanceId = options.balanceId;
  if (balanceId === undefined && !app) {
    balanceId = await run.step(
      'listBalances',
      async () => (await client.s2s.balances.list(userId, run.call)).items[0]?.id ?? run.refuse('listBalances', 'BALANCE_NOT_FOUND', `user ${userId} has no balance`),
      (id) => `balance ${id}`,
    );
  }

  const depositType = await run.step(
    'listTypes',
    async () => {
      const types = await (app ? client.app.deposits.listTypes(userId, run.call) : client.s2s.deposits.listTypes(balanceId!, run.call));
      return (
        types.items.find((t) => t.type === type && (balanceId === undefined || t.balanceId === balanceId)) ??
        run.refuse('listTypes', 'DEPOSIT_TYPE_NOT_FOUND', `no deposit type ${type}${balanceId ? ` for balance ${balanceId}` : ''}`)
      );
    },
    (t) => `type ${t.type} of balance ${t.balanceId}`,
  );
  const balance = depositType.balanceId;

  await run.signConsents('signDepositConsents', depositType.requiredConsents, { userId, purpose: 'deposit' }, options.acceptConsents, (c) =>
    app ? client.app.consents.sign(userId, c.id, run.call) : client.s2s.consents.sign(userId, c.id, run.call),
  );

  const addresses = await run.step(
    'listAddresses',
    () => (app ? client.app.deposits.listAddresses(balance, type, run.call) : client.s2s.deposits.listAddresses(balance, type, run.call)),
    (a) => `${a.items.length} addresses`,
  );
  const existing = addresses.items[0];
  if (existing) {
    run.skip('createAddress', `address ${existing.id} exists`);
    return { depositType, address: existing, created: false };
  }
  const address = await run.step(
    'createAddress',
    () => {
      const network = options.depositOptions?.network ?? depositType.networks[0] ?? run.refuse('createAddress', 'NETWORK_NOT_SUPPORTED', `type ${type} lists no network`);
      const body: DepositOptions = { ...options.depositOptions, network };
      return app ? client.app.deposits.createAddress(balance, type, body, run.call) : client.s2s.deposits.createAddress(balance, type, body, run.call);
    },
    (a) => `address ${a.id} on ${a.network}`,
  );
  return { depositType, address, created: true };
}

/** Options of {@link approveDeposit}. Steps: `listVerifications`, `approveVerification`. */
export interface ApproveDepositOptions extends FlowOptions {
  /** The user (`userId` in /s2s, `userUuid` in /app). */
  userId: string;
  /** Only this verification; default: every one of the user's verifications pending approval. */
  verificationId?: string;
  /** The verification data the service asks for, per pending deposit (ask the user). */
  getVerificationData: (verification: DepositVerification) => VerificationData | Promise<VerificationData>;
  area?: DepositArea;
}

/** What {@link approveDeposit} returns. */
export interface ApproveDepositResult {
  /** The verifications approved, as the service returned them (the balance is then credited by the service). */
  approved: DepositVerification[];
  /** Every verification listed, as listed. */
  verifications: DepositVerification[];
}

/**
 * Deposit approval: after the user deposited crypto, list verifications; if a verification is needed, approve it
 * with verification data; the balance is then credited by the service.
 */
export async function approveDeposit(client: CardIssuingClient, options: ApproveDepositOptions): Promise<ApproveDepositResult> {
  const run = new FlowRun('approveDeposit', options);
  const app = options.area === 'app';
  const { userId } = options;

  const list = await run.step(
    'listVerifications',
    async () => {
      // Every page: a user with many deposits has pending ones beyond the first.
      const items: DepositVerification[] = [];
      for await (const v of app ? client.app.deposits.listVerifications(userId, run.call) : client.s2s.deposits.listVerifications({ userId }, run.call)) items.push(v);
      const listed = { items };
      if (options.verificationId !== undefined && !listed.items.some((v) => v.id === options.verificationId)) {
        run.refuse('listVerifications', 'VERIFICATION_NOT_FOUND', `no verification ${options.verificationId} for user ${userId}`);
      }
      return listed;
    },
    (l) => `${l.items.length} verifications`,
  );
  const pending = list.items.filter(
    (v) => v.status === 'PENDING_APPROVAL' && v.verificationRequired && (options.verificationId === undefined || v.id === options.verificationId),
  );
  if (pending.length === 0) {
    run.skip('approveVerification', 'no verification pending approval');
    return { approved: [], verifications: list.items };
  }
  const approved = await run.step(
    'approveVerification',
    async () => {
      const done: DepositVerification[] = [];
      for (const verification of pending) {
        const data = await run.callback('approveVerification', () => options.getVerificationData(verification));
        done.push(
          await (app
            ? client.app.deposits.approveVerification(verification.id, data, run.call)
            : client.s2s.deposits.approveVerification(verification.id, data, run.call)),
        );
      }
      return done;
    },
    (done) => `approved ${done.map((v) => `${v.id} (${v.status})`).join(', ')}`,
  );
  return { approved, verifications: list.items };
}
