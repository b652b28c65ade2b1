/**
 * Users, consents, e-mail verification and cards (interface document section 3, contract section 6): the
 * registration, every card prerequisite in the spec's order with its own 422 code, the draft's states and their
 * 409 refusals, a physical card's order and activation, card details. Tests past e-mail verification need the mock
 * (the code is read from its outbox) and are skipped against a real service.
 */
import { generateKeyPairSync } from 'node:crypto';
import { describe, expect, it, type TestContext } from './support/test';
import { decryptCardDetails, exportPublicKey, generateCardKeyPair, type Card } from 'card-issuing-sdk';
import { isLuhnValid } from 'card-issuing-sdk/server';
import { cardReadyUser, fundBalance, registeredUser, verifiedUser } from './support/actors';
import { newRegistration } from 'card-issuing-mock/control';
import { UNKNOWN_ID, expectProblem, expectRefusal, useContract } from './support/harness';

const contract = useContract(import.meta.url);
const DAY = 24 * 3600;

/** A user ready for a card, and the catalogue's free virtual card config. */
async function freeVirtualConfig(context: TestContext) {
  const user = await cardReadyUser(contract, contract.control(context));
  const configs = await contract.client.s2s.cards.listConfigs(user.id);
  const config = configs.items.find((c) => c.type === 'VIRTUAL' && c.price === null)!;
  return { user, config };
}

/** A free virtual card (ACTIVE at once) of a card-ready user. */
async function freeVirtualCard(context: TestContext): Promise<{ card: Card }> {
  const { user, config } = await freeVirtualConfig(context);
  const card = await contract.client.s2s.cards.create(user.id, {
    configId: config.id,
    visualId: config.visuals[0]!.id,
  });
  return { card: card as Card };
}

describe('registration', () => {
  it('createUser is 201 with the registration consents to sign; registration completes once all are signed', async () => {
    const { client } = contract;
    const { data: user, status } = await client.s2s.users.create(newRegistration()).withResponse();
    expect(status).toBe(201);
    expect(user.registrationStatus).toBe('PENDING_CONSENTS');
    expect(user.requiredConsents.length).toBeGreaterThan(0);
    expect(user.requiredConsents.every((c) => c.kind === 'REGISTRATION' && !c.signed)).toBe(true);
    for (const consent of user.requiredConsents) {
      const signed = await client.s2s.consents.sign(user.id, consent.id);
      expect(signed).toMatchObject({ id: consent.id, signed: true });
    }
    expect(await client.s2s.users.get(user.id)).toMatchObject({
      registrationStatus: 'COMPLETED',
      emailVerified: false,
      kycStatus: 'NOT_STARTED',
    });
  });

  it('signing a signed consent again succeeds and changes nothing', async () => {
    const user = await registeredUser(contract);
    const consent = user.requiredConsents[0]!;
    const again = await contract.client.s2s.consents.sign(user.id, consent.id);
    expect(again).toMatchObject({ id: consent.id, signed: true, signedAt: consent.signedAt });
  });

  it('an e-mail registered before is 409 EMAIL_ALREADY_REGISTERED', async () => {
    const registration = newRegistration();
    await contract.client.s2s.users.create(registration);
    await expectRefusal(contract.client.s2s.users.create(registration, { idempotencyKey: false }), {
      status: 409,
      code: 'EMAIL_ALREADY_REGISTERED',
    });
  });

  it('a consent that does not exist is 404 NOT_FOUND', async () => {
    const user = await registeredUser(contract);
    await expectRefusal(contract.client.s2s.consents.sign(user.id, UNKNOWN_ID), { status: 404, code: 'NOT_FOUND' });
  });
});

describe('card prerequisites, each a 422 with its own code, in the spec order', () => {
  it('registration incomplete: 422 REGISTRATION_INCOMPLETE', async () => {
    const { client } = contract;
    const user = await client.s2s.users.create(newRegistration());
    const configs = await client.s2s.cards.listConfigs(user.id);
    const config = configs.items[0]!;
    await expectRefusal(client.s2s.cards.create(user.id, { configId: config.id, visualId: config.visuals[0]!.id }), {
      status: 422,
      code: 'REGISTRATION_INCOMPLETE',
    });
  });

  it('e-mail unverified: 422 EMAIL_UNVERIFIED', async () => {
    const user = await registeredUser(contract);
    const config = (await contract.client.s2s.cards.listConfigs(user.id)).items[0]!;
    await expectRefusal(
      contract.client.s2s.cards.create(user.id, { configId: config.id, visualId: config.visuals[0]!.id }),
      { status: 422, code: 'EMAIL_UNVERIFIED' },
    );
  });
});

describe('card prerequisites: the e-mail code', () => {
  it('the e-mail code: 422 OTP_NOT_REQUESTED before one is sent, 200 challenge (6 digits, 5 tries) once sent, 422 OTP_INVALID for a wrong one', async (context) => {
    const user = await registeredUser(contract);
    const { client } = contract;
    await expectRefusal(client.s2s.email.confirm(user.id, { code: '000000' }), {
      status: 422,
      code: 'OTP_NOT_REQUESTED',
    });
    const challenge = await client.s2s.email.requestOtp(user.id);
    expect(challenge.attemptsRemaining).toBe(5);
    expect(challenge.sentTo).not.toBe(user.email);
    // A code that is certainly wrong when the mock can tell us the right one; otherwise a 1-in-a-million guess.
    const right = contract.target.control ? await contract.control(context).latestOtpCode(user.id) : undefined;
    await expectRefusal(client.s2s.email.confirm(user.id, { code: right === '000000' ? '111111' : '000000' }), {
      status: 422,
      code: 'OTP_INVALID',
    });
  });

  it('the code from the e-mail verifies it; asking for another is then 409 EMAIL_ALREADY_VERIFIED', async (context) => {
    const control = contract.control(context);
    const user = await verifiedUser(contract, control);
    expect(user.emailVerified).toBe(true);
    expect(await control.latestOtpCode(user.id)).toMatch(/^\d{6}$/);
    await expectRefusal(contract.client.s2s.email.requestOtp(user.id), { status: 409, code: 'EMAIL_ALREADY_VERIFIED' });
  });

  it('five wrong codes (422 OTP_INVALID each) kill the code: then 422 OTP_TOO_MANY_ATTEMPTS, even for the right one', async (context) => {
    const control = contract.control(context);
    const user = await registeredUser(contract);
    await contract.client.s2s.email.requestOtp(user.id);
    const right = await control.latestOtpCode(user.id);
    const wrong = right === '000000' ? '111111' : '000000';
    // Each wrong code uses one of the 5 tries; after the last one the code is dead.
    for (let i = 0; i < 5; i++)
      await expectRefusal(contract.client.s2s.email.confirm(user.id, { code: wrong }), {
        status: 422,
        code: 'OTP_INVALID',
      });
    await expectRefusal(contract.client.s2s.email.confirm(user.id, { code: right }), {
      status: 422,
      code: 'OTP_TOO_MANY_ATTEMPTS',
    });
  });

  it('a code older than 10 minutes is 422 OTP_EXPIRED', async (context) => {
    const control = contract.control(context);
    const user = await registeredUser(contract);
    await contract.client.s2s.email.requestOtp(user.id);
    const code = await control.latestOtpCode(user.id);
    await control.advanceClock(10 * 60 + 1);
    await expectRefusal(contract.client.s2s.email.confirm(user.id, { code }), { status: 422, code: 'OTP_EXPIRED' });
  });
});

describe('card prerequisites: KYC and card consents', () => {
  it('KYC not passed: 422 KYC_NOT_PASSED (also after a FAILED result); configs list the KYC URL and status', async (context) => {
    const control = contract.control(context);
    const user = await verifiedUser(contract, control);
    const configs = await contract.client.s2s.cards.listConfigs(user.id);
    expect(configs.kycStatus).toBe('NOT_STARTED');
    expect(() => new URL(configs.kycUrl)).not.toThrow();
    const config = configs.items[0]!;
    const create = () =>
      contract.client.s2s.cards.create(user.id, { configId: config.id, visualId: config.visuals[0]!.id });
    await expectRefusal(create(), { status: 422, code: 'KYC_NOT_PASSED' });
    await control.kyc(user.id, 'FAILED');
    expect((await contract.client.s2s.cards.listConfigs(user.id)).kycStatus).toBe('FAILED');
    await expectRefusal(create(), { status: 422, code: 'KYC_NOT_PASSED' });
  });

  it('card consents unsigned: 422 CARD_CONSENTS_UNSIGNED; a visual of another config: 422 VISUAL_NOT_IN_CONFIG', async (context) => {
    const control = contract.control(context);
    const user = await verifiedUser(contract, control);
    await control.kyc(user.id, 'PASSED');
    const [first, second] = (await contract.client.s2s.cards.listConfigs(user.id)).items;
    await expectRefusal(
      contract.client.s2s.cards.create(user.id, { configId: first!.id, visualId: first!.visuals[0]!.id }),
      { status: 422, code: 'CARD_CONSENTS_UNSIGNED' },
    );
    for (const consent of first!.requiredConsents) await contract.client.s2s.consents.sign(user.id, consent.id);
    await expectRefusal(
      contract.client.s2s.cards.create(user.id, { configId: first!.id, visualId: second!.visuals[0]!.id }),
      { status: 422, code: 'VISUAL_NOT_IN_CONFIG' },
    );
  });
});

describe('cards', () => {
  it('a free virtual config is 201 card ACTIVE at once; it is no draft (409 CARD_NOT_A_DRAFT) and needs no activation (409 CARD_NOT_ACTIVATABLE)', async (context) => {
    const { user, config } = await freeVirtualConfig(context);
    const { data: card, status } = await contract.client.s2s.cards
      .create(user.id, { configId: config.id, visualId: config.visuals[1]!.id })
      .withResponse();
    expect(status).toBe(201);
    expect(card).toMatchObject({
      object: 'card',
      type: 'VIRTUAL',
      status: 'ACTIVE',
      configId: config.id,
      visualId: config.visuals[1]!.id,
    });
    const id = card.object === 'card' ? card.id : '';
    await expectRefusal(contract.client.s2s.cards.chargeDraft(id), { status: 409, code: 'CARD_NOT_A_DRAFT' });
    await expectRefusal(contract.client.s2s.cards.activate(id), { status: 409, code: 'CARD_NOT_ACTIVATABLE' });
    expect((await contract.client.s2s.cards.list(user.id)).items.map((c) => c.id)).toEqual([id]);
  });
});

describe('cards: details', () => {
  it('card details: a JWE for the public key in the query that the private key opens (RSA-OAEP-256, A256GCM), PAN passing Luhn', async (context) => {
    const { card } = await freeVirtualCard(context);
    const keyPair = await generateCardKeyPair();
    const response = await contract.send({
      method: 'GET',
      path: `/s2s/cards/${card.id}/details`,
      query: { publicKey: await exportPublicKey(keyPair) },
    });
    expect(response.status).toBe(200);
    const { encryptedDetails } = response.body as { encryptedDetails: string };
    const header = JSON.parse(Buffer.from(encryptedDetails.split('.')[0]!, 'base64url').toString('utf8')) as Record<
      string,
      string
    >;
    expect(header).toMatchObject({ alg: 'RSA-OAEP-256', enc: 'A256GCM' });
    const details = await decryptCardDetails(encryptedDetails, keyPair.privateKey);
    expect(isLuhnValid(details.pan)).toBe(true);
    expect(details.pan.endsWith(card.last4!)).toBe(true);
    expect({ month: details.expiryMonth, year: details.expiryYear }).toEqual({
      month: card.expiryMonth,
      year: card.expiryYear,
    });
  });

  it('a public key shorter than 2048 bits is 400 PUBLIC_KEY_INVALID; a malformed one is 400 naming query.publicKey', async (context) => {
    const { card } = await freeVirtualCard(context);
    const weak = generateKeyPairSync('rsa', { modulusLength: 1024 });
    const weakKey = weak.publicKey.export({ format: 'der', type: 'spki' }).toString('base64url');
    expectProblem(
      await contract.send({ method: 'GET', path: `/s2s/cards/${card.id}/details`, query: { publicKey: weakKey } }),
      400,
      'PUBLIC_KEY_INVALID',
    );
    expectProblem(
      await contract.send({
        method: 'GET',
        path: `/s2s/cards/${card.id}/details`,
        query: { publicKey: 'A'.repeat(80) },
      }),
      400,
      'PUBLIC_KEY_INVALID',
    );
    const malformed = expectProblem(
      await contract.send({
        method: 'GET',
        path: `/s2s/cards/${card.id}/details`,
        query: { publicKey: 'not base64url!' },
      }),
      400,
      'VALIDATION_FAILED',
    );
    expect(malformed.errors?.map((e) => e.path)).toContain('query.publicKey');
  });
});

describe('cards: a paid physical card', () => {
  it('a paid physical card: draft CREATED → 409 DRAFT_NOT_CHARGED, 422 INSUFFICIENT_FUNDS, CHARGED, 409 DRAFT_ALREADY_CHARGED, card ORDERED, 409 DRAFT_ALREADY_COMPLETED', async (context) => {
    const control = contract.control(context);
    const user = await cardReadyUser(contract, control);
    const { client } = contract;
    const config = (await client.s2s.cards.listConfigs(user.id)).items.find(
      (c) => c.type === 'PHYSICAL' && c.price !== null,
    )!;
    const { data: draft, status } = await client.s2s.cards
      .create(user.id, { configId: config.id, visualId: config.visuals[0]!.id })
      .withResponse();
    expect(status).toBe(201);
    expect(draft).toMatchObject({ object: 'draft', status: 'CREATED', price: config.price, chargedAt: null });
    const cardId = draft.object === 'draft' ? draft.cardId : '';
    expect((await client.s2s.cards.list(user.id)).items).toEqual([]);

    await expectRefusal(client.s2s.cards.completeDraft(cardId), {
      status: 409,
      code: 'DRAFT_NOT_CHARGED',
      currentStatus: 'CREATED',
    });
    await expectRefusal(client.s2s.cards.chargeDraft(cardId), { status: 422, code: 'INSUFFICIENT_FUNDS' });

    const balanceId = await fundBalance(contract, control, user.id, '100');
    const before = (await client.s2s.balances.list(user.id)).items.find((b) => b.id === balanceId)!.available;
    const charged = await client.s2s.cards.chargeDraft(cardId);
    expect(charged).toMatchObject({ status: 'CHARGED', cardId });
    expect((await client.s2s.balances.list(user.id)).items.find((b) => b.id === balanceId)!.available).toBe(
      before - config.price!.amount,
    );
    await expectRefusal(client.s2s.cards.chargeDraft(cardId), {
      status: 409,
      code: 'DRAFT_ALREADY_CHARGED',
      currentStatus: 'CHARGED',
    });

    const card = await client.s2s.cards.completeDraft(cardId);
    expect(card).toMatchObject({ object: 'card', id: cardId, type: 'PHYSICAL', status: 'ORDERED' });
    await expectRefusal(client.s2s.cards.completeDraft(cardId), { status: 409, code: 'DRAFT_ALREADY_COMPLETED' });
  });
});

describe('cards: a physical card ordered, then activated', () => {
  it('a physical card: 409 CARD_ORDER_NOT_COMPLETED and 409 CARD_NOT_ACTIVE while ORDERED; AWAITING_ACTIVATION after the order completes; then ACTIVE', async (context) => {
    const control = contract.control(context);
    const user = await cardReadyUser(contract, control);
    const { client } = contract;
    const config = (await client.s2s.cards.listConfigs(user.id)).items.find((c) => c.type === 'PHYSICAL')!;
    await fundBalance(contract, control, user.id, '100');
    let card = await client.s2s.cards.create(user.id, { configId: config.id, visualId: config.visuals[0]!.id });
    if (card.object === 'draft') {
      await client.s2s.cards.chargeDraft(card.cardId);
      card = await client.s2s.cards.completeDraft(card.cardId);
    }
    const id = card.object === 'card' ? card.id : '';
    expect(card.status).toBe('ORDERED');
    await expectRefusal(client.s2s.cards.activate(id), {
      status: 409,
      code: 'CARD_ORDER_NOT_COMPLETED',
      currentStatus: 'ORDERED',
    });
    await expectRefusal(client.s2s.cards.getDetails(id, { keyPair: await generateCardKeyPair() }), {
      status: 409,
      code: 'CARD_NOT_ACTIVE',
      currentStatus: 'ORDERED',
    });

    // The order completes some days later on the mock's clock (the spec names no duration: wait a day at a time).
    let listed: Card | undefined;
    for (let day = 0; day < 14; day++) {
      await control.advanceClock(DAY);
      listed = (await client.s2s.cards.list(user.id)).items.find((c) => c.id === id);
      if (listed?.status !== 'ORDERED') break;
    }
    expect(listed?.status).toBe('AWAITING_ACTIVATION');
    expect(await client.s2s.cards.activate(id)).toMatchObject({ id, status: 'ACTIVE' });
    await expectRefusal(client.s2s.cards.activate(id), {
      status: 409,
      code: 'CARD_NOT_ACTIVATABLE',
      currentStatus: 'ACTIVE',
    });
  });
});

describe('cards: unknown ids', () => {
  it('lists and operations on unknown ids are 404 NOT_FOUND', async () => {
    const { client } = contract;
    await expectRefusal(client.s2s.users.get(UNKNOWN_ID), { status: 404, code: 'NOT_FOUND' });
    await expectRefusal(client.s2s.cards.listConfigs(UNKNOWN_ID), { status: 404, code: 'NOT_FOUND' });
    await expectRefusal(client.s2s.cards.list(UNKNOWN_ID), { status: 404, code: 'NOT_FOUND' });
    await expectRefusal(client.s2s.balances.list(UNKNOWN_ID), { status: 404, code: 'NOT_FOUND' });
    await expectRefusal(client.s2s.email.requestOtp(UNKNOWN_ID), { status: 404, code: 'NOT_FOUND' });
    // One call at a time: a request is sent as soon as it is made, and its refusal must be awaited at once.
    for (const call of [client.s2s.cards.chargeDraft, client.s2s.cards.completeDraft, client.s2s.cards.activate]) {
      await expectRefusal(call(UNKNOWN_ID), { status: 404, code: 'NOT_FOUND' });
    }
    await expectRefusal(client.s2s.cards.getDetails(UNKNOWN_ID, { keyPair: await generateCardKeyPair() }), {
      status: 404,
      code: 'NOT_FOUND',
    });
  });
});
