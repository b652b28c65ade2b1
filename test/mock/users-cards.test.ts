/**
 * Server2Server users and cards, contract section 6: registration and consents, the e-mail OTP (outbox, expiry,
 * tries), KYC through the control API, each card prerequisite with its own 422 code, drafts (charge, complete),
 * physical cards (order completion on the virtual clock, activation), lists, card details and lock.
 */
import forge from 'node-forge';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  activateCard,
  chargeDraft,
  completeDraft,
  confirmEmail,
  createCard,
  createUser,
  getCardDetails,
  getUser,
  listBalances,
  listCardConfigs,
  listCards,
  requestEmailOtp,
  signUserConsent,
} from '../../sdk/generated/sdk.gen';
import type { Card, Draft } from '../../sdk/generated/types.gen';
import { decryptCardDetails } from '../../sdk/src/card-details/decrypt';
import { exportPublicKey, generateCardKeyPair } from '../../sdk/src/card-details/keys';
import { isLuhnValid } from '../../sdk/src/luhn';
import type { CardKeyPair } from '../../sdk/src/card-details/types';
import { fund, makeUser, registration } from './flows';
import { DAY, expectError, expectProblem, mockHarness, ok, send, responseOf } from './helpers';

const h = mockHarness();
const configs = () => h.mock.fixtures().cardConfigs;
const freeVirtual = () => configs().find((c) => c.price === null)!;
const paidVirtual = () => configs().find((c) => c.price !== null && c.type === 'VIRTUAL')!;
const paidPhysical = () => configs().find((c) => c.type === 'PHYSICAL')!;
const issue = (userId: string, config = freeVirtual(), visualId = config.visualIds[0]!) =>
  createCard({ client: h.client, path: { userId }, body: { configId: config.configId, visualId } });

describe('registration and consents', () => {
  it('creates a user with unsigned registration consents, no verified e-mail, no KYC and one EUR balance of 0', async () => {
    const response = await createUser({ client: h.client, body: registration({ email: 'ada@example.org' }) });
    expect(responseOf(response).status).toBe(201);
    const user = ok(response);
    expect(user).toMatchObject({
      registrationStatus: 'PENDING_CONSENTS',
      emailVerified: false,
      kycStatus: 'NOT_STARTED',
      email: 'ada@example.org',
    });
    expect(user.requiredConsents).toHaveLength(2);
    expect(user.requiredConsents.every((c) => c.kind === 'REGISTRATION' && !c.signed && c.signedAt === null)).toBe(
      true,
    );
    const balances = ok(await listBalances({ client: h.client, query: { userId: user.id } }));
    expect(balances.items).toEqual([
      { id: expect.any(String), userId: user.id, currency: 'EUR', available: 0, updatedAt: '2026-11-21T09:00:00.000Z' },
    ]);
  });

  it('refuses an e-mail already registered (any case) with 409 EMAIL_ALREADY_REGISTERED', async () => {
    ok(await createUser({ client: h.client, body: registration({ email: 'grace@example.org' }) }));
    expectError(
      await createUser({ client: h.client, body: registration({ email: 'Grace@Example.org' }) }),
      409,
      'EMAIL_ALREADY_REGISTERED',
    );
  });

  it('completes registration when every registration consent is signed; signing again changes nothing', async () => {
    const user = ok(await createUser({ client: h.client, body: registration() }));
    const [first, second] = user.requiredConsents;
    const signed = ok(await signUserConsent({ client: h.client, path: { userId: user.id, consentId: first!.id } }));
    expect(signed).toMatchObject({ id: first!.id, signed: true, signedAt: '2026-11-21T09:00:00.000Z' });
    expect(ok(await getUser({ client: h.client, path: { userId: user.id } })).registrationStatus).toBe(
      'PENDING_CONSENTS',
    );
    h.mock.clock.advance(60);
    ok(await signUserConsent({ client: h.client, path: { userId: user.id, consentId: second!.id } }));
    expect(ok(await getUser({ client: h.client, path: { userId: user.id } })).registrationStatus).toBe('COMPLETED');
    const again = ok(await signUserConsent({ client: h.client, path: { userId: user.id, consentId: first!.id } }));
    expect(again.signedAt).toBe('2026-11-21T09:00:00.000Z');
  });

  it('an unknown consent or user is 404 NOT_FOUND', async () => {
    const user = ok(await createUser({ client: h.client, body: registration() }));
    expectError(
      await signUserConsent({
        client: h.client,
        path: { userId: user.id, consentId: '8c5e2a17-4f3b-4d9a-b6e1-7a0c9d2e4f58' },
      }),
      404,
      'NOT_FOUND',
    );
    expectError(
      await getUser({ client: h.client, path: { userId: '3f0b7c52-9d0e-4c6a-9a55-1e2f7b8c9d01' } }),
      404,
      'NOT_FOUND',
    );
    expectError(
      await listBalances({ client: h.client, query: { userId: '3f0b7c52-9d0e-4c6a-9a55-1e2f7b8c9d01' } }),
      404,
      'NOT_FOUND',
    );
  });
});

describe('e-mail one-time code: 6 digits, 10 minutes, 5 tries', () => {
  const newUser = async () =>
    ok(await createUser({ client: h.client, body: registration({ email: 'otp.user@example.org' }) }));
  const code = (userId: string) => h.mock.outbox(userId).at(-1)!.code!;
  const confirm = (userId: string, c: string) =>
    confirmEmail({ client: h.client, path: { userId }, body: { code: c } });
  const wrong = (c: string) => (c === '000000' ? '111111' : '000000');

  it('sends a code to the outbox (over HTTP too) and verifies the e-mail with it', async () => {
    const user = await newUser();
    const challenge = ok(await requestEmailOtp({ client: h.client, path: { userId: user.id } }));
    expect(challenge).toEqual({
      sentTo: 'o***@example.org',
      expiresAt: '2026-11-21T09:10:00.000Z',
      attemptsRemaining: 5,
    });
    const outbox = await (await send('GET', `/__mock/outbox?userId=${user.id}`, { sign: false })).json();
    expect(outbox).toEqual({
      items: [
        {
          userId: user.id,
          to: 'otp.user@example.org',
          subject: 'Your verification code',
          code: expect.stringMatching(/^\d{6}$/),
          sentAt: '2026-11-21T09:00:00.000Z',
        },
      ],
    });
    const verified = ok(await confirm(user.id, outbox.items[0].code));
    expect(verified.emailVerified).toBe(true);
    expectError(await requestEmailOtp({ client: h.client, path: { userId: user.id } }), 409, 'EMAIL_ALREADY_VERIFIED');
    expectError(await confirm(user.id, outbox.items[0].code), 409, 'EMAIL_ALREADY_VERIFIED');
  });

  it('confirming without a requested code is 422 OTP_NOT_REQUESTED', async () => {
    expectError(await confirm((await newUser()).id, '123456'), 422, 'OTP_NOT_REQUESTED');
  });

  it('a wrong code uses a try (OTP_INVALID); after the fifth, even the right code is OTP_TOO_MANY_ATTEMPTS', async () => {
    const user = await newUser();
    ok(await requestEmailOtp({ client: h.client, path: { userId: user.id } }));
    const right = code(user.id);
    for (let i = 4; i >= 0; i--) {
      const problem = expectError(await confirm(user.id, wrong(right)), 422, 'OTP_INVALID');
      expect(problem.detail).toContain(`${i} tr`);
    }
    expectError(await confirm(user.id, right), 422, 'OTP_TOO_MANY_ATTEMPTS');
    ok(await requestEmailOtp({ client: h.client, path: { userId: user.id } }));
    expect(ok(await confirm(user.id, code(user.id))).emailVerified).toBe(true);
  });

  it('a code is dead 10 minutes after it was sent on the virtual clock (OTP_EXPIRED)', async () => {
    const user = await newUser();
    ok(await requestEmailOtp({ client: h.client, path: { userId: user.id } }));
    h.mock.clock.advance(599);
    expectError(await confirm(user.id, wrong(code(user.id))), 422, 'OTP_INVALID');
    h.mock.clock.advance(1);
    expectError(await confirm(user.id, code(user.id)), 422, 'OTP_EXPIRED');
  });

  it('a new request replaces the previous code', async () => {
    const user = await newUser();
    ok(await requestEmailOtp({ client: h.client, path: { userId: user.id } }));
    const first = code(user.id);
    ok(await requestEmailOtp({ client: h.client, path: { userId: user.id } }));
    const second = code(user.id);
    expect(h.mock.outbox(user.id)).toHaveLength(2);
    if (first !== second) expectError(await confirm(user.id, first), 422, 'OTP_INVALID');
    expect(ok(await confirm(user.id, second)).emailVerified).toBe(true);
  });
});

describe('card configs and KYC', () => {
  it('lists three configs (free virtual, paid virtual, paid physical) with visuals, consents and the KYC URL', async () => {
    const { user } = await makeUser(h.client, h.mock, { cardConsents: false, kyc: false });
    const list = ok(await listCardConfigs({ client: h.client, path: { userId: user.id } }));
    expect(list.kycStatus).toBe('NOT_STARTED');
    expect(list.kycUrl).toBe(`https://kyc.card-issuing.example/start?user=${user.id}`);
    expect(list.items.map((c) => [c.type, c.price])).toEqual([
      ['VIRTUAL', null],
      ['VIRTUAL', { amount: 499, currency: 'EUR' }],
      ['PHYSICAL', { amount: 999, currency: 'EUR' }],
    ]);
    for (const c of list.items) {
      expect(c.visuals).toHaveLength(2);
      expect(c.requiredConsents).toEqual([expect.objectContaining({ kind: 'CARD', signed: false })]);
    }
  });

  it('sets the KYC result through the control API over HTTP', async () => {
    const { user } = await makeUser(h.client, h.mock, { kyc: false });
    const failed = await send('POST', `/__mock/kyc/${user.id}`, { sign: false, body: { status: 'FAILED' } });
    expect(((await failed.json()) as { kycStatus: string }).kycStatus).toBe('FAILED');
    expect(ok(await listCardConfigs({ client: h.client, path: { userId: user.id } })).kycStatus).toBe('FAILED');
    await send('POST', `/__mock/kyc/${user.id}`, { sign: false, body: { status: 'PASSED' } });
    expect(ok(await getUser({ client: h.client, path: { userId: user.id } })).kycStatus).toBe('PASSED');
    await expectProblem(
      await send('POST', `/__mock/kyc/${user.id}`, { sign: false, body: { status: 'MAYBE' } }),
      400,
      'VALIDATION_FAILED',
    );
  });
});

describe('card prerequisites, each a 422 with its own code, in order', () => {
  it.each([
    ['REGISTRATION_INCOMPLETE', { register: false }],
    ['EMAIL_UNVERIFIED', { verifyEmail: false }],
    ['KYC_NOT_PASSED', { kyc: false }],
    ['CARD_CONSENTS_UNSIGNED', { cardConsents: false }],
  ] as const)('%s', async (code, steps) => {
    const { user } = await makeUser(h.client, h.mock, steps);
    expectError(await issue(user.id), 422, code);
  });

  it("checks them in the spec's order (nothing done: REGISTRATION_INCOMPLETE first)", async () => {
    const { user } = await makeUser(h.client, h.mock, {
      register: false,
      verifyEmail: false,
      kyc: false,
      cardConsents: false,
    });
    expectError(await issue(user.id), 422, 'REGISTRATION_INCOMPLETE');
    for (const consent of user.requiredConsents)
      ok(await signUserConsent({ client: h.client, path: { userId: user.id, consentId: consent.id } }));
    expectError(await issue(user.id), 422, 'EMAIL_UNVERIFIED');
  });

  it('KYC FAILED is KYC_NOT_PASSED too', async () => {
    const { user } = await makeUser(h.client, h.mock, { kyc: false });
    h.mock.kyc(user.id, 'FAILED');
    expectError(await issue(user.id), 422, 'KYC_NOT_PASSED');
  });

  it('a visual of another config is 422 VISUAL_NOT_IN_CONFIG; an unknown config is 404', async () => {
    const { user } = await makeUser(h.client, h.mock);
    expectError(await issue(user.id, freeVirtual(), paidVirtual().visualIds[0]!), 422, 'VISUAL_NOT_IN_CONFIG');
    const result = await createCard({
      client: h.client,
      path: { userId: user.id },
      body: { configId: '9f3b6d2a-8e1c-4a7f-b5d0-3c9e2a7f1b84', visualId: freeVirtual().visualIds[0]! },
    });
    expectError(result, 404, 'NOT_FOUND');
  });
});

describe('issuing', () => {
  it("a free virtual config gives an ACTIVE card at once, listed with the user's cards", async () => {
    const { user } = await makeUser(h.client, h.mock);
    const response = await issue(user.id, freeVirtual(), freeVirtual().visualIds[1]!);
    expect(responseOf(response).status).toBe(201);
    const card = ok(response) as Card;
    expect(card).toMatchObject({
      object: 'card',
      status: 'ACTIVE',
      type: 'VIRTUAL',
      userId: user.id,
      cardholderName: 'ADA LOVELACE',
      visualId: freeVirtual().visualIds[1],
    });
    expect(card.expiryYear).toBe(2030);
    expect(ok(await listCards({ client: h.client, query: { userId: user.id } })).items).toEqual([card]);
  });

  it('a priced config gives a draft: charge (422 INSUFFICIENT_FUNDS until funded), complete, then the card', async () => {
    const { user, balanceId } = await makeUser(h.client, h.mock);
    const draft = ok(await issue(user.id, paidVirtual())) as Draft;
    expect(draft).toMatchObject({
      object: 'draft',
      status: 'CREATED',
      price: { amount: 499, currency: 'EUR' },
      balanceId,
      chargedAt: null,
    });
    expect(ok(await listCards({ client: h.client, query: { userId: user.id } })).items).toEqual([]);
    const path = { cardId: draft.cardId };

    expectError(await completeDraft({ client: h.client, path }), 409, 'DRAFT_NOT_CHARGED');
    expectError(await chargeDraft({ client: h.client, path }), 422, 'INSUFFICIENT_FUNDS');
    expectError(await activateCard({ client: h.client, path }), 409, 'CARD_NOT_ACTIVATABLE');

    const credited = await fund(h.client, h.mock, user.id, balanceId, '10'); // 10 USDC × 0.92 = 9.20 EUR
    expect(credited).toBe(920);
    const charged = ok(await chargeDraft({ client: h.client, path }));
    expect(charged).toMatchObject({ status: 'CHARGED', chargedAt: '2026-11-21T09:00:00.000Z' });
    expect(ok(await listBalances({ client: h.client, query: { userId: user.id } })).items[0]!.available).toBe(
      920 - 499,
    );
    const again = expectError(await chargeDraft({ client: h.client, path }), 409, 'DRAFT_ALREADY_CHARGED');
    expect(again).toMatchObject({
      currentStatus: 'CHARGED',
      operation: 'chargeDraft',
      detail: 'chargeDraft is not allowed while the draft is CHARGED.',
    });

    const card = ok(await completeDraft({ client: h.client, path })) as Card;
    expect(card).toMatchObject({
      object: 'card',
      id: draft.cardId,
      status: 'ACTIVE',
      configId: paidVirtual().configId,
    });
    expectError(await completeDraft({ client: h.client, path }), 409, 'DRAFT_ALREADY_COMPLETED');
    expectError(await chargeDraft({ client: h.client, path }), 409, 'DRAFT_ALREADY_CHARGED');
    expect(ok(await listCards({ client: h.client, query: { userId: user.id } })).items.map((c) => c.id)).toEqual([
      draft.cardId,
    ]);
    expect(ok(await listBalances({ client: h.client, query: { userId: user.id } })).items[0]!.available).toBe(421);
  });

  it('a card that was not a draft is 409 CARD_NOT_A_DRAFT for charge and complete', async () => {
    const { user } = await makeUser(h.client, h.mock);
    const card = ok(await issue(user.id)) as Card;
    const problem = expectError(
      await chargeDraft({ client: h.client, path: { cardId: card.id } }),
      409,
      'CARD_NOT_A_DRAFT',
    );
    expect(problem).toMatchObject({ currentStatus: 'ACTIVE', operation: 'chargeDraft' });
    expectError(await completeDraft({ client: h.client, path: { cardId: card.id } }), 409, 'CARD_NOT_A_DRAFT');
    expectError(
      await chargeDraft({ client: h.client, path: { cardId: '5d7a3c91-0e2b-4f6d-8a4c-2b9e1f7d3a60' } }),
      404,
      'NOT_FOUND',
    );
  });

  it('a physical card is ORDERED, AWAITING_ACTIVATION 3 days later on the virtual clock, then ACTIVE by activation', async () => {
    const { user, balanceId } = await makeUser(h.client, h.mock);
    await fund(h.client, h.mock, user.id, balanceId, '20');
    const draft = ok(await issue(user.id, paidPhysical())) as Draft;
    ok(await chargeDraft({ client: h.client, path: { cardId: draft.cardId } }));
    const ordered = ok(await completeDraft({ client: h.client, path: { cardId: draft.cardId } })) as Card;
    expect(ordered).toMatchObject({ status: 'ORDERED', type: 'PHYSICAL' });
    const early = expectError(
      await activateCard({ client: h.client, path: { cardId: ordered.id } }),
      409,
      'CARD_ORDER_NOT_COMPLETED',
    );
    expect(early).toMatchObject({ currentStatus: 'ORDERED', operation: 'activateCard' });

    h.mock.clock.advance(3 * DAY - 1);
    expect(ok(await listCards({ client: h.client, query: { userId: user.id } })).items[0]!.status).toBe('ORDERED');
    const clock = await send('POST', '/__mock/clock/advance', { sign: false, body: { seconds: 1 } });
    expect(await clock.json()).toEqual({ now: '2026-11-24T09:00:00.000Z', frozen: true });
    expect(ok(await listCards({ client: h.client, query: { userId: user.id } })).items[0]!.status).toBe(
      'AWAITING_ACTIVATION',
    );

    const active = ok(await activateCard({ client: h.client, path: { cardId: ordered.id } }));
    expect(active.status).toBe('ACTIVE');
    const twice = expectError(
      await activateCard({ client: h.client, path: { cardId: ordered.id } }),
      409,
      'CARD_NOT_ACTIVATABLE',
    );
    expect(twice.currentStatus).toBe('ACTIVE');
  });

  it('a virtual card is not activatable (409 CARD_NOT_ACTIVATABLE)', async () => {
    const { user } = await makeUser(h.client, h.mock);
    const card = ok(await issue(user.id)) as Card;
    expectError(await activateCard({ client: h.client, path: { cardId: card.id } }), 409, 'CARD_NOT_ACTIVATABLE');
  });
});

describe('card details and lock', () => {
  let keys: CardKeyPair;
  let ownKey: string;
  beforeAll(async () => {
    keys = await generateCardKeyPair();
    ownKey = await exportPublicKey(keys);
  });
  const details = (cardId: string, publicKey = ownKey) =>
    getCardDetails({ client: h.client, path: { cardId }, query: { publicKey } });

  it("encrypts an ACTIVE card's details to the caller's key: Luhn-valid PAN, expiry and name as the card shows them", async () => {
    const { user } = await makeUser(h.client, h.mock);
    const card = ok(await issue(user.id)) as Card;
    const plain = await decryptCardDetails(ok(await details(card.id)).encryptedDetails, keys);
    expect(isLuhnValid(plain.pan)).toBe(true);
    expect(plain.pan.slice(-4)).toBe(card.last4);
    expect(plain).toMatchObject({
      expiryMonth: card.expiryMonth,
      expiryYear: card.expiryYear,
      cardholderName: card.cardholderName,
      cvv: expect.stringMatching(/^\d{3}$/),
    });
  });

  it('a card that is not ACTIVE (ORDERED, LOCKED, still a draft) is 409 CARD_NOT_ACTIVE', async () => {
    const { user, balanceId } = await makeUser(h.client, h.mock);
    await fund(h.client, h.mock, user.id, balanceId, '20');
    const draft = ok(await issue(user.id, paidPhysical())) as Draft;
    expect(expectError(await details(draft.cardId), 409, 'CARD_NOT_ACTIVE').currentStatus).toBe('CREATED');
    ok(await chargeDraft({ client: h.client, path: { cardId: draft.cardId } }));
    ok(await completeDraft({ client: h.client, path: { cardId: draft.cardId } }));
    expect(expectError(await details(draft.cardId), 409, 'CARD_NOT_ACTIVE').currentStatus).toBe('ORDERED');
    const notLockable = await expectProblem(
      await send('POST', `/__mock/cards/${draft.cardId}/lock`, { sign: false }),
      409,
      'INVALID_TRANSITION',
    );
    expect(notLockable.detail).toBe('lockCard is not allowed while the card is ORDERED.');

    const card = ok(await issue(user.id)) as Card;
    expect(h.mock.cards.lock(card.id).status).toBe('LOCKED');
    expect(expectError(await details(card.id), 409, 'CARD_NOT_ACTIVE').currentStatus).toBe('LOCKED');
    expect(h.mock.cards.unlock(card.id).status).toBe('ACTIVE');
    ok(await details(card.id));
  });

  it('a public key that is not RSA or shorter than 2048 bits is 400 PUBLIC_KEY_INVALID', async () => {
    const { user } = await makeUser(h.client, h.mock);
    const card = ok(await issue(user.id)) as Card;
    expectError(await details(card.id, 'A'.repeat(80)), 400, 'PUBLIC_KEY_INVALID');
    const small = forge.pki.rsa.generateKeyPair({ bits: 1024, e: 0x10001 });
    const der = forge.asn1.toDer(forge.pki.publicKeyToAsn1(small.publicKey)).getBytes();
    const weak = forge.util.encode64(der).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
    expectError(await details(card.id, weak), 400, 'PUBLIC_KEY_INVALID');
  });
});
