import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createCardIssuingClient } from '../../sdk/src/client';
import { BusinessRuleError } from '../../sdk/src/core/errors/classes';
import { CardIssuingError } from '../../sdk/src/core/errors/base';
import { FlowError } from '../../sdk/src/core/errors/flow-error';
import { approveDeposit, depositAddress, issueCard, registerUser, type FlowStep } from '../../sdk/src/flows';
import type { Card, Consent, DepositAddress, DepositVerification, Draft, User } from '../../sdk/generated/types.gen';
import { problem, uuid as u } from './support';

// A small stateful fake of the service, just enough to drive the flows (the real mock is built in parallel).
// Responses pass the generated zod validation, so the flows run on spec-shaped data.
const BASE = 'https://flows.test';
const NOW = '2026-11-21T09:30:00Z';
const consent = (n: number, kind: Consent['kind'], signed = false): Consent => ({
  id: u(n),
  kind,
  title: `${kind.toLowerCase()} terms ${n}`,
  version: '2026-01',
  url: `https://legal.example/${n}`,
  signed,
  signedAt: signed ? NOW : null,
});

interface State {
  user: User;
  signed: Set<string>;
  otp: string | undefined;
  kyc: 'NOT_STARTED' | 'PASSED' | 'FAILED';
  available: number;
  config: { id: string; type: 'VIRTUAL' | 'PHYSICAL'; price: { amount: number; currency: string } | null };
  draft: Draft | undefined;
  card: Card | undefined;
  orderCompleted: boolean;
  addresses: DepositAddress[];
  verifications: DepositVerification[];
  calls: string[];
  failures: Record<string, Response>;
}
let state: State;
const USER = u(1);
const BALANCE = u(50);
const registrationConsents = [consent(11, 'REGISTRATION'), consent(12, 'REGISTRATION')];
const cardConsents = [consent(21, 'CARD')];
const depositConsents = [consent(31, 'DEPOSIT')];
const withSigned = (consents: Consent[]) =>
  consents.map((c) => (state.signed.has(c.id) ? { ...c, signed: true, signedAt: NOW } : c));

function reset(overrides: Partial<State> = {}) {
  state = {
    user: {
      id: USER,
      email: 'ada@example.org',
      firstName: 'Ada',
      lastName: 'Lovelace',
      phone: '+447700900123',
      dateOfBirth: '1990-12-10',
      country: 'GB',
      registrationStatus: 'PENDING_CONSENTS',
      requiredConsents: registrationConsents,
      emailVerified: false,
      kycStatus: 'NOT_STARTED',
      createdAt: NOW,
    },
    signed: new Set(),
    otp: undefined,
    kyc: 'NOT_STARTED',
    available: 0,
    config: { id: u(40), type: 'PHYSICAL', price: { amount: 499, currency: 'EUR' } },
    draft: undefined,
    card: undefined,
    orderCompleted: false,
    addresses: [],
    verifications: [],
    calls: [],
    failures: {},
    ...overrides,
  };
}

const currentUser = (): User => {
  const requiredConsents = withSigned(registrationConsents);
  return {
    ...state.user,
    requiredConsents,
    registrationStatus: requiredConsents.every((c) => c.signed) ? 'COMPLETED' : 'PENDING_CONSENTS',
    kycStatus: state.kyc,
  };
};
const makeCard = (): Card => ({
  object: 'card',
  id: u(60),
  userId: USER,
  type: state.config.type,
  status: state.config.type === 'VIRTUAL' ? 'ACTIVE' : 'ORDERED',
  last4: '4246',
  generatedAt: '2026-11-21T09:35:00Z',
  expiryMonth: 11,
  expiryYear: 2029,
  cardholderName: 'ADA LOVELACE',
  configId: state.config.id,
  visualId: u(41),
  createdAt: NOW,
});
const depositType = (balanceId = BALANCE) => ({
  type: 'USDC',
  name: 'USD Coin',
  balanceId,
  networks: ['ETHEREUM', 'POLYGON'],
  minimumAmount: '10',
  exchangeRate: { currency: 'EUR', rate: '0.92' },
  requiredConsents: withSigned(depositConsents),
});

/** Records the call (for order assertions) and returns a scripted failure when one is set for it. */
const record = (name: string) => {
  state.calls.push(name);
  return state.failures[name];
};

const server = setupServer(
  http.post(`${BASE}/s2s/users`, () => record('createUser') ?? HttpResponse.json(currentUser(), { status: 201 })),
  http.get(`${BASE}/s2s/users/:userId`, () => record('getUser') ?? HttpResponse.json(currentUser())),
  http.post(`${BASE}/s2s/users/:userId/consents/:consentId/sign`, ({ params }) => {
    const failure = record(`sign:${String(params.consentId)}`);
    if (failure) return failure;
    state.signed.add(String(params.consentId));
    const all = [...registrationConsents, ...cardConsents, ...depositConsents];
    return HttpResponse.json({ ...all.find((c) => c.id === params.consentId)!, signed: true, signedAt: NOW });
  }),
  http.post(`${BASE}/app/deposits/consents/:consentUuid/sign`, ({ params, request }) => {
    record(`appSign:${String(params.consentUuid)}:${new URL(request.url).searchParams.get('userUuid')}`);
    state.signed.add(String(params.consentUuid));
    return HttpResponse.json({ ...depositConsents[0]!, signed: true, signedAt: NOW });
  }),
  http.get(
    `${BASE}/s2s/users/:userId/cards/configs`,
    () =>
      record('listConfigs') ??
      HttpResponse.json({
        items: [
          {
            id: state.config.id,
            name: 'Plus',
            type: state.config.type,
            price: state.config.price,
            visuals: [{ id: u(41), name: 'Midnight', imageUrl: 'https://assets.example/midnight.png' }],
            requiredConsents: withSigned(cardConsents),
          },
        ],
        kycUrl: 'https://kyc.example/start',
        kycStatus: state.kyc,
        hasMore: false,
        nextCursor: null,
      }),
  ),
  http.post(`${BASE}/s2s/users/:userId/email/otp`, () => {
    state.otp = '246810';
    return (
      record('requestOtp') ??
      HttpResponse.json({ sentTo: 'a***@example.org', expiresAt: '2026-11-21T09:40:00Z', attemptsRemaining: 5 })
    );
  }),
  http.post(`${BASE}/s2s/users/:userId/email/confirm`, async ({ request }) => {
    const { code } = (await request.json()) as { code: string };
    record(`confirm:${code}`);
    if (code !== state.otp) return problem(422, 'OTP_INVALID', 'Wrong code.');
    state.user = { ...state.user, emailVerified: true };
    return HttpResponse.json(currentUser());
  }),
  http.post(`${BASE}/s2s/users/:userId/cards`, () => {
    const failure = record('createCard');
    if (failure) return failure;
    if (!state.config.price) {
      state.card = makeCard();
      return HttpResponse.json(state.card, { status: 201 });
    }
    state.draft = {
      object: 'draft',
      cardId: u(60),
      userId: USER,
      configId: state.config.id,
      visualId: u(41),
      type: state.config.type,
      status: 'CREATED',
      price: state.config.price as Draft['price'],
      balanceId: BALANCE,
      createdAt: NOW,
      chargedAt: null,
    };
    return HttpResponse.json(state.draft, { status: 201 });
  }),
  http.get(`${BASE}/s2s/balances`, () => {
    record('listBalances');
    return HttpResponse.json({
      items: [{ id: BALANCE, userId: USER, currency: 'EUR', available: state.available, updatedAt: NOW }],
      hasMore: false,
      nextCursor: null,
    });
  }),
  http.post(`${BASE}/s2s/cards/:cardId/charge-draft`, () => {
    record('chargeDraft');
    if (state.available < state.draft!.price.amount) return problem(422, 'INSUFFICIENT_FUNDS', 'Not enough money.');
    state.available -= state.draft!.price.amount;
    state.draft = { ...state.draft!, status: 'CHARGED', chargedAt: NOW };
    return HttpResponse.json(state.draft);
  }),
  http.post(`${BASE}/s2s/cards/:cardId/complete-draft`, () => {
    record('completeDraft');
    state.card = makeCard();
    return HttpResponse.json(state.card);
  }),
  http.post(`${BASE}/s2s/cards/:cardId/activation`, () => {
    record('activateCard');
    if (!state.orderCompleted)
      return problem(409, 'CARD_ORDER_NOT_COMPLETED', 'Still ORDERED.', {
        currentStatus: 'ORDERED',
        operation: 'activateCard',
      });
    state.card = { ...state.card!, status: 'ACTIVE' };
    return HttpResponse.json(state.card);
  }),
  http.get(
    `${BASE}/s2s/deposits/:balanceId/types`,
    ({ params }) =>
      record('listTypes') ??
      HttpResponse.json({ items: [depositType(String(params.balanceId))], hasMore: false, nextCursor: null }),
  ),
  http.get(`${BASE}/app/deposits/types`, ({ request }) => {
    record(`appListTypes:${new URL(request.url).searchParams.get('userUuid')}`);
    return HttpResponse.json({
      items: [{ ...depositType(u(51)), type: 'BTC', networks: ['BITCOIN'] }, depositType()],
      hasMore: false,
      nextCursor: null,
    });
  }),
  http.get(`${BASE}/:area/deposits/verifications`, ({ params, request }) => {
    record(`${String(params.area)}:listVerifications:${[...new URL(request.url).searchParams.values()].join()}`);
    return HttpResponse.json({ items: state.verifications, hasMore: false, nextCursor: null });
  }),
  http.post(`${BASE}/:area/deposits/verifications/:id/approval`, async ({ params, request }) => {
    record(
      `${String(params.area)}:approve:${String(params.id)}:${((await request.json()) as { sourceOfFunds: string }).sourceOfFunds}`,
    );
    const v = state.verifications.find((x) => x.id === params.id)!;
    const credited: DepositVerification = {
      ...v,
      status: 'CREDITED',
      creditedAmount: { amount: 9200, currency: 'EUR' },
      creditedAt: NOW,
    };
    state.verifications = state.verifications.map((x) => (x.id === v.id ? credited : x));
    return HttpResponse.json(credited);
  }),
  http.get(`${BASE}/:area/deposits/:balanceId/:type`, ({ params }) => {
    record(`${String(params.area)}:listAddresses:${String(params.balanceId)}:${String(params.type)}`);
    return HttpResponse.json({ items: state.addresses, hasMore: false, nextCursor: null });
  }),
  http.post(`${BASE}/:area/deposits/:balanceId/:type`, async ({ params, request }) => {
    const body = (await request.json()) as { network: string; label?: string };
    record(`${String(params.area)}:createAddress:${String(params.balanceId)}:${body.network}`);
    const address: DepositAddress = {
      id: u(70),
      balanceId: String(params.balanceId),
      type: String(params.type),
      network: body.network,
      address: '0x52908400098527886E0F7030069857D2E4169EE7',
      label: body.label ?? null,
      createdAt: NOW,
    };
    state.addresses.push(address);
    return HttpResponse.json(address, { status: 201 });
  }),
);
beforeAll(() => server.listen({ onUnhandledFrame: 'error' }));
beforeEach(() => reset());
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

const client = createCardIssuingClient({ baseUrl: BASE, apiKey: 'k', apiSecret: 's', retry: false });
const progress = () => {
  const steps: FlowStep[] = [];
  return {
    steps,
    onStep: (s: FlowStep) => steps.push(s),
    trail: () => steps.filter((s) => s.status !== 'started').map((s) => `${s.step}:${s.status}`),
  };
};
async function flowError(promise: Promise<unknown>): Promise<FlowError> {
  const error = await promise.catch((e: unknown) => e);
  expect(error).toBeInstanceOf(FlowError);
  expect(error).toBeInstanceOf(CardIssuingError);
  return error as FlowError;
}

describe('registerUser', () => {
  it('creates the user, signs each listed consent after the user accepts them, and returns the completed user', async () => {
    const p = progress();
    const asked: Consent[][] = [];
    const { user } = await registerUser(client, {
      registration: {
        email: 'ada@example.org',
        firstName: 'Ada',
        lastName: 'Lovelace',
        phone: '+447700900123',
        dateOfBirth: '1990-12-10',
        country: 'GB',
      },
      acceptConsents: (consents, context) => {
        asked.push(consents);
        expect(context).toEqual({ userId: USER, purpose: 'registration' });
        return true;
      },
      onStep: p.onStep,
    });
    expect(user.registrationStatus).toBe('COMPLETED');
    expect(asked).toEqual([registrationConsents]);
    expect(state.calls).toEqual(['createUser', `sign:${u(11)}`, `sign:${u(12)}`, 'getUser']);
    expect(p.trail()).toEqual(['createUser:done', 'signRegistrationConsents:done', 'getUser:done']);
    expect(p.steps.map((s) => s.status)).toEqual(['started', 'done', 'started', 'done', 'started', 'done']);
  });

  it('stops at signRegistrationConsents when the user declines, signing nothing', async () => {
    const p = progress();
    const error = await flowError(
      registerUser(client, {
        registration: {
          email: 'ada@example.org',
          firstName: 'Ada',
          lastName: 'Lovelace',
          phone: '+447700900123',
          dateOfBirth: '1990-12-10',
          country: 'GB',
        },
        acceptConsents: () => false,
        onStep: p.onStep,
      }),
    );
    expect(error.step).toBe('signRegistrationConsents');
    expect(error.code).toBe('CONSENTS_DECLINED');
    expect(error.flow).toBe('registerUser');
    expect(state.calls).toEqual(['createUser']);
    expect(p.trail()).toEqual(['createUser:done', 'signRegistrationConsents:failed']);
  });

  it('names createUser and keeps the API error as cause when creation fails', async () => {
    state.failures.createUser = problem(409, 'EMAIL_ALREADY_REGISTERED', 'Taken.');
    const error = await flowError(
      registerUser(client, {
        registration: {
          email: 'ada@example.org',
          firstName: 'Ada',
          lastName: 'Lovelace',
          phone: '+447700900123',
          dateOfBirth: '1990-12-10',
          country: 'GB',
        },
        acceptConsents: () => true,
      }),
    );
    expect(error.step).toBe('createUser');
    expect(error.code).toBe('EMAIL_ALREADY_REGISTERED');
    expect(error.status).toBe(409);
    expect(error.requestId).toBe('req_problem');
    expect((error.cause as CardIssuingError).name).toBe('ConflictError');
    expect(error.toJSON()).toMatchObject({
      flow: 'registerUser',
      step: 'createUser',
      code: 'EMAIL_ALREADY_REGISTERED',
    });
  });
});

describe('issueCard', () => {
  const registered = () => {
    for (const c of registrationConsents) state.signed.add(c.id);
  };

  it('runs the whole order for a priced physical card: OTP (with one mistyped code), KYC, consents, top-up, draft, activation', async () => {
    registered();
    const p = progress();
    const otpAsks: boolean[] = [];
    const result = await issueCard(client, {
      userId: USER,
      configId: state.config.id,
      getOtpCode: ({ previousAttemptFailed, challenge }) => {
        otpAsks.push(previousAttemptFailed);
        expect(challenge.sentTo).toBe('a***@example.org');
        return previousAttemptFailed ? state.otp! : '000000';
      },
      completeKyc: ({ kycUrl }) => {
        expect(kycUrl).toBe('https://kyc.example/start');
        state.kyc = 'PASSED';
      },
      acceptConsents: (consents) => consents.every((c) => c.kind === 'CARD'),
      topUpBalance: ({ draft, available }) => {
        expect(available).toBe(0);
        state.available = draft.price.amount + 1;
      },
      waitForOrderCompletion: ({ card }) => {
        expect(card.status).toBe('ORDERED');
        state.orderCompleted = true;
      },
      onStep: p.onStep,
    });
    expect(result.card.status).toBe('ACTIVE');
    expect(result.draft?.status).toBe('CHARGED');
    expect(result.user.emailVerified).toBe(true);
    expect(otpAsks).toEqual([false, true]);
    expect(state.available).toBe(1);
    expect(p.trail()).toEqual([
      'listConfigs:done',
      'getUser:done',
      'verifyEmail:done',
      'kyc:done',
      'signCardConsents:done',
      'createCard:done',
      'topUp:done',
      'chargeDraft:done',
      'completeDraft:done',
      'waitForOrder:done',
      'activateCard:done',
    ]);
    expect(state.calls).toEqual([
      'listConfigs',
      'getUser',
      'requestOtp',
      'confirm:000000',
      'confirm:246810',
      'listConfigs',
      `sign:${u(21)}`,
      'createCard',
      'listBalances',
      'listBalances',
      'chargeDraft',
      'completeDraft',
      'activateCard',
    ]);
  });

  it('skips what is already done for a free virtual card', async () => {
    registered();
    for (const c of cardConsents) state.signed.add(c.id);
    state.user = { ...state.user, emailVerified: true };
    state.kyc = 'PASSED';
    state.config = { id: u(40), type: 'VIRTUAL', price: null };
    const p = progress();
    const never = () => {
      throw new Error('not expected');
    };
    const result = await issueCard(client, {
      userId: USER,
      configId: u(40),
      getOtpCode: never,
      completeKyc: never,
      acceptConsents: never,
      onStep: p.onStep,
    });
    expect(result.card).toMatchObject({ status: 'ACTIVE', type: 'VIRTUAL' });
    expect(result.draft).toBeUndefined();
    expect(p.trail()).toEqual([
      'listConfigs:done',
      'getUser:done',
      'verifyEmail:skipped',
      'kyc:skipped',
      'signCardConsents:skipped',
      'createCard:done',
      'topUp:skipped',
      'chargeDraft:skipped',
      'completeDraft:skipped',
      'waitForOrder:skipped',
      'activateCard:skipped',
    ]);
    expect(p.steps.find((s) => s.step === 'verifyEmail' && s.status === 'skipped')?.detail).toBe(
      'e-mail already verified',
    );
    expect(state.calls).toEqual(['listConfigs', 'getUser', 'createCard']);
  });

  const ready = () => {
    registered();
    for (const c of cardConsents) state.signed.add(c.id);
    state.user = { ...state.user, emailVerified: true };
    state.kyc = 'PASSED';
  };
  const base = {
    userId: USER,
    configId: u(40),
    getOtpCode: () => '246810',
    completeKyc: () => {},
    acceptConsents: () => true,
  };

  it('stops at chargeDraft with the 422 as cause when the balance is short and no top-up is given', async () => {
    ready();
    const p = progress();
    const error = await flowError(issueCard(client, { ...base, onStep: p.onStep }));
    expect(error.step).toBe('chargeDraft');
    expect(error.code).toBe('INSUFFICIENT_FUNDS');
    expect(error.status).toBe(422);
    expect(error.cause).toBeInstanceOf(BusinessRuleError);
    expect(error.message).toMatch(/^issueCard stopped at step chargeDraft: Not enough money\./);
    expect(p.trail().slice(-3)).toEqual(['createCard:done', 'topUp:done', 'chargeDraft:failed']);
    expect(p.steps.find((s) => s.step === 'topUp' && s.status === 'done')?.detail).toMatch(/no topUpBalance given/);
  });

  it('stops at kyc when KYC has not passed after completeKyc', async () => {
    registered();
    state.user = { ...state.user, emailVerified: true };
    const error = await flowError(
      issueCard(client, {
        ...base,
        completeKyc: () => {
          state.kyc = 'FAILED';
        },
      }),
    );
    expect(error.step).toBe('kyc');
    expect(error.code).toBe('KYC_NOT_PASSED');
    expect(error.cause).toBeUndefined();
  });

  it('reports a callback that throws as CALLBACK_FAILED with its error as cause', async () => {
    registered();
    const boom = new Error('mailbox unreachable');
    const error = await flowError(
      issueCard(client, {
        ...base,
        getOtpCode: () => {
          throw boom;
        },
      }),
    );
    expect(error.step).toBe('verifyEmail');
    expect(error.code).toBe('CALLBACK_FAILED');
    expect(error.cause).toBe(boom);
  });

  it('returns an ORDERED physical card and skips activation when no waitForOrderCompletion is given', async () => {
    ready();
    state.config = { id: u(40), type: 'PHYSICAL', price: null };
    const p = progress();
    const { card } = await issueCard(client, { ...base, onStep: p.onStep });
    expect(card.status).toBe('ORDERED');
    expect(p.trail().slice(-2)).toEqual(['waitForOrder:skipped', 'activateCard:skipped']);
    expect(state.calls).not.toContain('activateCard');
  });

  it('stops at activateCard when the order has not completed after waiting', async () => {
    ready();
    state.config = { id: u(40), type: 'PHYSICAL', price: null };
    const error = await flowError(issueCard(client, { ...base, waitForOrderCompletion: () => {} }));
    expect(error.step).toBe('activateCard');
    expect(error.code).toBe('CARD_ORDER_NOT_COMPLETED');
  });

  it('stops at listConfigs for an unknown config', async () => {
    const error = await flowError(issueCard(client, { ...base, configId: u(99) }));
    expect(error.step).toBe('listConfigs');
    expect(error.code).toBe('CONFIG_NOT_FOUND');
  });
});

describe('depositAddress', () => {
  it('(s2s) finds the balance, signs the deposit consents, and creates an address only when none exists', async () => {
    const p = progress();
    const first = await depositAddress(client, {
      userId: USER,
      type: 'USDC',
      acceptConsents: () => true,
      onStep: p.onStep,
    });
    expect(first.created).toBe(true);
    expect(first.address.network).toBe('ETHEREUM');
    expect(p.trail()).toEqual([
      'listBalances:done',
      'listTypes:done',
      'signDepositConsents:done',
      'listAddresses:done',
      'createAddress:done',
    ]);
    const again = progress();
    const second = await depositAddress(client, {
      userId: USER,
      type: 'USDC',
      balanceId: BALANCE,
      acceptConsents: () => true,
      onStep: again.onStep,
    });
    expect(second).toMatchObject({ created: false, address: { id: first.address.id } });
    expect(again.trail()).toEqual([
      'listTypes:done',
      'signDepositConsents:skipped',
      'listAddresses:done',
      'createAddress:skipped',
    ]);
    expect(state.calls.filter((c) => c.includes('createAddress'))).toEqual([`s2s:createAddress:${BALANCE}:ETHEREUM`]);
  });

  it('(app) takes the balance from the user’s deposit types and uses the Wallet App paths', async () => {
    const { address } = await depositAddress(client, {
      area: 'app',
      userId: USER,
      type: 'USDC',
      depositOptions: { network: 'POLYGON', label: 'savings' },
      acceptConsents: () => true,
    });
    expect(address).toMatchObject({ balanceId: BALANCE, network: 'POLYGON', label: 'savings' });
    expect(state.calls).toEqual([
      `appListTypes:${USER}`,
      `appSign:${u(31)}:${USER}`,
      `app:listAddresses:${BALANCE}:USDC`,
      `app:createAddress:${BALANCE}:POLYGON`,
    ]);
  });

  it('stops at listTypes for a type the balance does not offer', async () => {
    const error = await flowError(
      depositAddress(client, { userId: USER, balanceId: BALANCE, type: 'DOGE', acceptConsents: () => true }),
    );
    expect(error.step).toBe('listTypes');
    expect(error.code).toBe('DEPOSIT_TYPE_NOT_FOUND');
  });
});

describe('approveDeposit', () => {
  const verification = (
    n: number,
    status: DepositVerification['status'],
    verificationRequired = true,
  ): DepositVerification => ({
    id: u(n),
    userId: USER,
    balanceId: BALANCE,
    type: 'USDC',
    network: 'ETHEREUM',
    amount: '100',
    status,
    verificationRequired,
    creditedAmount: status === 'CREDITED' ? { amount: 9200, currency: 'EUR' } : null,
    createdAt: NOW,
    creditedAt: status === 'CREDITED' ? NOW : null,
  });

  it('approves every pending verification with the caller’s data (s2s), and the service credits it', async () => {
    state.verifications = [verification(80, 'CREDITED', false), verification(81, 'PENDING_APPROVAL')];
    const p = progress();
    const asked: string[] = [];
    const { approved, verifications } = await approveDeposit(client, {
      userId: USER,
      getVerificationData: (v) => {
        asked.push(v.id);
        return { sourceOfFunds: 'SAVINGS', walletType: 'SELF_HOSTED' };
      },
      onStep: p.onStep,
    });
    expect(asked).toEqual([u(81)]);
    expect(approved.map((v) => v.status)).toEqual(['CREDITED']);
    expect(verifications).toHaveLength(2);
    expect(state.calls).toEqual([`s2s:listVerifications:${USER}`, `s2s:approve:${u(81)}:SAVINGS`]);
    expect(p.trail()).toEqual(['listVerifications:done', 'approveVerification:done']);
  });

  it('skips approval when nothing is pending, and uses the Wallet App paths with area app', async () => {
    state.verifications = [verification(80, 'CREDITED', false)];
    const p = progress();
    const result = await approveDeposit(client, {
      area: 'app',
      userId: USER,
      getVerificationData: () => ({ sourceOfFunds: 'OTHER', walletType: 'EXCHANGE' }),
      onStep: p.onStep,
    });
    expect(result.approved).toEqual([]);
    expect(p.trail()).toEqual(['listVerifications:done', 'approveVerification:skipped']);
    expect(state.calls).toEqual([`app:listVerifications:${USER}`]);
  });

  it('stops at listVerifications for an unknown verification id', async () => {
    const error = await flowError(
      approveDeposit(client, {
        userId: USER,
        verificationId: u(89),
        getVerificationData: () => ({ sourceOfFunds: 'OTHER', walletType: 'EXCHANGE' }),
      }),
    );
    expect(error.step).toBe('listVerifications');
    expect(error.code).toBe('VERIFICATION_NOT_FOUND');
  });
});
