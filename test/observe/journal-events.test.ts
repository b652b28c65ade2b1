/**
 * What the mock saw, asserted in process: `mock.requests(filter)` (the request journal) and `mock.events(filter)`
 * (domain events), driven through the typed SDK exactly as an integrator's test would, plus their bounds,
 * tenant isolation and redaction.
 */
import { getResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import {
  CardIssuingError,
  createCardIssuingClient,
  generateCardKeyPair,
  type CardIssuingClient,
} from 'card-issuing-sdk';
import { createMock, type CardIssuingMock, type CreateMockOptions } from 'card-issuing-mock';

const BASE_URL = 'http://mock.test';
const T0 = '2026-11-21T09:00:00.000Z';
const DAY = 24 * 3600;

/** A mock and an SDK client whose fetch goes straight to its handlers (no network, no interception). */
function setup(options: CreateMockOptions = {}, credentials = { apiKey: 'test_key', apiSecret: 'test_secret' }) {
  const mock = createMock({ baseUrl: BASE_URL, clock: { now: T0 }, seed: 'observe', ...options });
  const fetch = async (input: RequestInfo | URL, init?: RequestInit) => {
    const response = await getResponse(mock.handlers, input instanceof Request ? input : new Request(input, init));
    if (!response) throw new Error(`no handler for ${String(input)}`);
    return response;
  };
  const client = createCardIssuingClient({ baseUrl: BASE_URL, ...credentials, fetch, retry: false });
  const control = (method: string, path: string, body?: unknown) =>
    fetch(`${BASE_URL}/__mock${path}`, {
      method,
      ...(body === undefined ? {} : { body: JSON.stringify(body), headers: { 'content-type': 'application/json' } }),
    });
  const openStream = async (signal: AbortSignal, lastEventId?: string) => {
    const request = new Request(`${BASE_URL}/__mock/events/stream`, {
      signal,
      headers: lastEventId ? { 'last-event-id': lastEventId } : {},
    });
    const response = await getResponse(mock.handlers, request);
    if (!response) throw new Error('no stream');
    return response;
  };
  return { mock, client, fetch, control, openStream };
}

let n = 0;
const registration = () => ({
  email: `ada.${++n}@example.org`,
  firstName: 'Ada',
  lastName: 'Lovelace',
  phone: '+447700900123',
  dateOfBirth: '1990-12-10',
  country: 'GB',
});

/** A business user with an approval of the first corporate, `toDays` long. */
async function businessApproval(client: CardIssuingClient, mock: CardIssuingMock, toDays = 30, budget = 50_000) {
  const user = await client.corporates.users.create({
    name: 'Grace',
    lastName: 'Hopper',
    email: `grace.${++n}@example.org`,
    phone: '+12025550143',
  });
  const corporate = mock.fixtures().corporates[0]!;
  const now = mock.clock.now().getTime();
  const approval = await client.corporates.approvals.create(corporate.corporateUuid, {
    userUuid: user.userUuid,
    budget: { amount: budget, currency: 'EUR' },
    validFrom: new Date(now).toISOString(),
    validTo: new Date(now + toDays * DAY * 1000).toISOString(),
  });
  return { user, corporate, approval };
}

describe('mock.requests(filter): the request journal', () => {
  it('holds exactly one createUser, answered 201, with its body and the Authorization header redacted', async () => {
    const { mock, client } = setup();
    const body = registration();
    const user = await client.s2s.users.create(body);
    await client.s2s.users.get(user.id);

    const created = mock.requests({ operation: 'createUser' });
    expect(created).toHaveLength(1);
    const [entry] = created;
    expect(entry).toMatchObject({
      method: 'POST',
      path: '/s2s/users',
      operationId: 'createUser',
      status: 201,
      code: null,
      tenant: 'test_key',
    });
    expect(entry!.requestId).toMatch(/^req_[0-9a-f]{16}$/);
    expect(entry!.request.body).toEqual(body);
    expect(entry!.response.body).toMatchObject({ id: user.id, email: body.email });
    expect(entry!.request.headers.authorization).toBe('[redacted]');
    expect(entry!.durationMs).toBeGreaterThanOrEqual(0);
    expect(Date.parse(entry!.time)).not.toBeNaN();
    // Newest first: the GET came after the POST.
    expect(mock.requests().map((e) => e.operationId)).toEqual(['getUser', 'createUser']);
  });

  it('finds the exchange of a typed SDK error by the request id the error carries', async () => {
    const { mock, client } = setup();
    const missing = '00000000-0000-4000-8000-000000000000';
    const error = await client.s2s.users.get(missing).then(
      () => undefined,
      (e: unknown) => e,
    );
    if (!(error instanceof CardIssuingError)) throw new Error(`expected a typed error, got ${String(error)}`);
    expect(error.requestId).toMatch(/^req_/);
    const [entry, ...rest] = mock.requests({ requestId: error.requestId! });
    expect(rest).toEqual([]);
    expect(entry).toMatchObject({
      operationId: 'getUser',
      status: 404,
      code: 'NOT_FOUND',
      path: `/s2s/users/${missing}`,
      requestId: error.requestId,
    });
    expect(entry!.response.body).toMatchObject({ code: 'NOT_FOUND', requestId: error.requestId });
  });

  it('filters by operation, status (exact or class), code and method; control actions are journaled under mock.*', async () => {
    const { mock, client, control } = setup();
    const user = await client.s2s.users.create(registration());
    await client.s2s.email.requestOtp(user.id);
    await client.s2s.email.confirm(user.id, { code: '000000' }).catch(() => undefined); // 422 OTP_INVALID (the code is random)
    await control('POST', `/kyc/${user.id}`, { status: 'PASSED' });
    await control('GET', '/clock'); // a read: not journaled

    expect(mock.requests({ status: '4xx' }).map((e) => [e.operationId, e.status, e.code])).toEqual([
      ['confirmEmail', 422, 'OTP_INVALID'],
    ]);
    expect(mock.requests({ status: 201 }).map((e) => e.operationId)).toEqual(['createUser']);
    expect(mock.requests({ code: 'OTP_INVALID' })).toHaveLength(1);
    expect(mock.requests({ method: 'get' })).toEqual([]);
    expect(mock.requests().map((e) => e.operationId)).toEqual([
      'mock.kyc',
      'confirmEmail',
      'requestEmailOtp',
      'createUser',
    ]);
    expect(mock.requests({ limit: 2 }).map((e) => e.operationId)).toEqual(['mock.kyc', 'confirmEmail']);
    const after = mock.requests({ operation: 'requestEmailOtp' })[0]!.seq;
    expect(mock.requests({ after }).map((e) => e.operationId)).toEqual(['mock.kyc', 'confirmEmail']);
  });

  it('journals a body that is not UTF-8 as the 400 it was answered with (observing never fails a request)', async () => {
    const { mock } = setup({ verifySignatures: false });
    const bytes = new Uint8Array([
      ...new TextEncoder().encode('{"email":"'),
      0xff,
      0xfe,
      ...new TextEncoder().encode('"}'),
    ]);
    const response = await getResponse(
      mock.handlers,
      new Request(`${BASE_URL}/s2s/users`, {
        method: 'POST',
        body: bytes,
        headers: { 'content-type': 'application/json' },
      }),
    );
    expect(response?.status).toBe(400);
    const [entry] = mock.requests();
    expect(entry).toMatchObject({ operationId: 'createUser', status: 400, code: 'MALFORMED_JSON' });
    expect(entry!.request.body).toEqual({ email: '\uFFFD\uFFFD' });
  });

  it('keeps the latest N per tenant (a ring buffer) and counts what it dropped', async () => {
    const { mock, client } = setup({ observe: { requests: 3, events: 2 } });
    const user = await client.s2s.users.create(registration());
    for (let i = 0; i < 5; i++) await client.s2s.users.get(user.id);
    expect(mock.requests()).toHaveLength(3);
    expect(mock.requests().every((e) => e.operationId === 'getUser')).toBe(true);
    expect(mock.events().length).toBeLessThanOrEqual(2);
  });

  it('keeps each tenant`s exchanges and events to itself', async () => {
    const { mock, fetch } = setup();
    mock.addCredentials({ apiKey: 'other_key', apiSecret: 'other_secret' });
    const other = createCardIssuingClient({
      baseUrl: BASE_URL,
      apiKey: 'other_key',
      apiSecret: 'other_secret',
      fetch,
      retry: false,
    });
    await other.s2s.users.create(registration());
    expect(mock.requests()).toEqual([]);
    expect(mock.events()).toEqual([]);
    expect(
      mock
        .tenant('other_key')
        .requests()
        .map((e) => [e.operationId, e.tenant]),
    ).toEqual([['createUser', 'other_key']]);
    expect(mock.tenant('other_key').events({ type: 'user.registered' })).toHaveLength(1);
  });

  it('never shows an api secret, a card number or a CVV, even in a snapshot restored over HTTP', async () => {
    const { mock, client, control } = setup();
    const user = await client.s2s.users.create(registration());
    for (const consent of user.requiredConsents) await client.s2s.consents.sign(user.id, consent.id);
    await client.s2s.email.requestOtp(user.id);
    await client.s2s.email.confirm(user.id, { code: mock.outbox(user.id).at(-1)!.code! });
    mock.kyc(user.id, 'PASSED');
    const config = mock.fixtures().cardConfigs.find((c) => c.price === null)!;
    for (const consentId of config.consentIds) await client.s2s.consents.sign(user.id, consentId);
    const card = await client.s2s.cards.create(user.id, { configId: config.configId, visualId: config.visualIds[0]! });
    if (card.object !== 'card') throw new Error('a free config gives a card');
    const keyPair = await generateCardKeyPair();
    const details = await client.s2s.cards.getDetails(card.id, { keyPair });
    const snapshot = mock.snapshot();
    expect((await control('PUT', '/state', snapshot)).status).toBe(200);
    expect((await control('POST', '/credentials', { apiKey: 'k2', apiSecret: 'a-long-secret-value' })).status).toBe(
      201,
    );

    const everything = JSON.stringify([mock.requests(), mock.events()]);
    expect(everything).toContain(details.pan.slice(-4));
    expect(everything).not.toContain(details.pan);
    expect(everything).not.toMatch(new RegExp(`"cvv":"${details.cvv}"`));
    expect(everything).not.toContain('test_secret');
    expect(everything).not.toContain('a-long-secret-value');
    expect(everything).not.toMatch(/HMAC-SHA256 test_key:/);
    const detailsEntry = mock.requests({ operation: 'getCardDetails' })[0]!;
    expect(detailsEntry.response.body).toEqual({ encryptedDetails: '[redacted]' });
    const restore = mock.requests({ operation: 'mock.state' })[0]!;
    expect(restore.request.truncated ?? false).toBe(JSON.stringify(snapshot).length > 16 * 1024);
  });
});

describe('mock.events(filter): what changed', () => {
  it('tells the approval went ACCEPTED → DELIVERED on registration, then DELIVERED → FINISHED at validTo', async () => {
    const { mock, client } = setup();
    const { user, approval } = await businessApproval(client, mock, 10);
    mock.users.completeRegistration(user.userUuid);
    mock.clock.advance(11 * DAY);

    const changes = mock.events({ type: 'approval.statusChanged', id: approval.approvalUuid });
    expect(changes.map((e) => e.type === 'approval.statusChanged' && [e.from, e.to, e.trigger])).toEqual([
      [null, 'ACCEPTED', 'createApproval'],
      ['ACCEPTED', 'DELIVERED', 'registrationCompleted'],
      ['DELIVERED', 'FINISHED', 'time'],
    ]);
    // FINISHED is stamped at the instant it was due (just after validTo), not when the clock was moved.
    expect(Date.parse(changes[2]!.at)).toBeGreaterThanOrEqual(Date.parse(approval.validTo));
    expect(Date.parse(changes[2]!.at)).toBeLessThan(Date.parse(approval.validTo) + 1000);
    // The clock's move comes before what it made due, and the card was closed.
    expect(
      mock.events({ type: ['clock.advanced', 'approval.statusChanged'], after: changes[1]!.seq }).map((e) => e.type),
    ).toEqual(['clock.advanced', 'approval.statusChanged']);
    const cardId = approval.card.id;
    expect(
      mock
        .events({ type: 'card.', id: cardId })
        .map((e) => (e.type === 'card.statusChanged' ? `${e.from}→${e.to}` : e.type)),
    ).toEqual(['null→INACTIVE', 'card.generated', 'INACTIVE→ACTIVE', 'ACTIVE→CLOSED']);
    // The card exists from creation and gets its number when the approval is DELIVERED (the lifecycle's rule).
    const generated = mock.events({ type: 'card.generated', id: cardId })[0]!;
    const delivered = changes[1]!;
    expect(generated.seq).toBeGreaterThan(delivered.seq);
    expect(generated.at).toBe(delivered.at);
  });

  it('links the events of a request to its request id, and a change request and increase to their predecessor', async () => {
    const { mock, client } = setup();
    const { user, corporate, approval } = await businessApproval(client, mock);
    mock.users.completeRegistration(user.userUuid);
    const reapproval = await client.corporates.approvals.increaseBudget(
      corporate.corporateUuid,
      approval.approvalUuid,
      { additionalBudget: { amount: 100, currency: 'EUR' } },
    );
    const [exchange] = mock.requests({ operation: 'increaseApprovalBudget' });
    const during = mock.events({ requestId: exchange!.requestId! });
    expect(
      during.map(
        (e) => e.type === 'approval.statusChanged' && [e.approvalUuid, e.from, e.to, e.trigger, e.previousApprovalUuid],
      ),
    ).toEqual([
      [approval.approvalUuid, 'DELIVERED', 'REAPPROVED', 'increaseApprovalBudget', null],
      [reapproval.approvalUuid, null, 'DELIVERED', 'increaseApprovalBudget', approval.approvalUuid],
    ]);
  });

  it('records registrations, OTPs, e-mail verification, KYC, cards generated, credits, pending verifications, debits and top-ups', async () => {
    const { mock, client } = setup();
    const user = await client.s2s.users.create(registration());
    for (const consent of user.requiredConsents) await client.s2s.consents.sign(user.id, consent.id);
    await client.s2s.email.requestOtp(user.id);
    await client.s2s.email.confirm(user.id, { code: mock.outbox(user.id).at(-1)!.code! });
    mock.kyc(user.id, 'PASSED');
    const fixtures = mock.fixtures();
    const usdc = fixtures.depositTypes.find((t) => t.type === 'USDC')!;
    for (const consentId of usdc.consentIds) await client.s2s.consents.sign(user.id, consentId);
    const balanceId = (await client.s2s.balances.list(user.id)).items[0]!.id;
    await client.s2s.deposits.createAddress(balanceId, 'USDC', { network: 'POLYGON' });
    mock.deposits.incoming({ balanceId, type: 'USDC', amount: '100' });
    mock.deposits.incoming({ balanceId, type: 'USDC', amount: '20', requiresVerification: true });
    const priced = fixtures.cardConfigs.find((c) => c.price !== null && c.type === 'VIRTUAL')!;
    for (const consentId of priced.consentIds) await client.s2s.consents.sign(user.id, consentId);
    const draft = await client.s2s.cards.create(user.id, { configId: priced.configId, visualId: priced.visualIds[0]! });
    if (draft.object !== 'draft') throw new Error('a priced config gives a draft');
    await client.s2s.cards.chargeDraft(draft.cardId);
    const card = await client.s2s.cards.completeDraft(draft.cardId);
    if (card.object !== 'card') throw new Error('a completed draft is a card');
    mock.deposits.incoming({ balanceId: fixtures.corporates[0]!.balanceId, type: 'USDC', amount: '50' });

    const types = mock.events().map((e) => e.type);
    expect(types).toEqual([
      'user.registered',
      'user.registrationCompleted',
      'email.otpSent',
      'email.verified',
      'kyc.changed',
      'balance.credited',
      'deposit.verificationPending',
      'balance.debited',
      'card.statusChanged',
      'card.generated',
      'topUp.completed',
    ]);
    expect(mock.events({ type: 'balance.credited' })[0]).toMatchObject({
      balanceId,
      userId: user.id,
      amount: { amount: 9200, currency: 'EUR' },
    });
    expect(mock.events({ type: 'balance.debited' })[0]).toMatchObject({
      balanceId,
      amount: priced.price!,
      cardId: draft.cardId,
    });
    expect(mock.events({ type: 'card.generated' })[0]).toMatchObject({
      cardId: card.id,
      last4: card.last4,
      cardType: 'VIRTUAL',
    });
    expect(mock.events({ type: 'topUp.completed' })[0]).toMatchObject({
      corporateUuid: fixtures.corporates[0]!.corporateUuid,
      amount: { amount: 4600 },
    });
    expect(mock.events({ type: 'user.', id: user.id })).toHaveLength(2);
  });

  it('links what a control call over HTTP changed to its request id: the move of the clock and what it made due', async () => {
    const { mock, client, control } = setup();
    const { user, approval } = await businessApproval(client, mock, 2);
    mock.users.completeRegistration(user.userUuid);
    const response = await control('POST', '/clock/advance', { seconds: 3 * DAY });
    const requestId = response.headers.get('x-request-id')!;
    expect(mock.requests({ requestId }).map((e) => e.operationId)).toEqual(['mock.clock.advance']);
    expect(
      mock
        .events({ requestId })
        .map((e) => (e.type === 'approval.statusChanged' ? `${e.approvalUuid} ${e.from}→${e.to}` : e.type)),
    ).toEqual(['clock.advanced', `${approval.approvalUuid} DELIVERED→FINISHED`, 'card.statusChanged']);
    // A programmatic call is no request: its events name none.
    mock.clock.advance(60);
    expect(mock.events({ type: 'clock.advanced' }).at(-1)!.requestId).toBeNull();
  });

  it('records a reset and a restore, and events carry their virtual time', async () => {
    const { mock } = setup();
    mock.clock.advance(60);
    const snapshot = mock.snapshot();
    mock.reset();
    mock.restore(snapshot);
    expect(mock.events().map((e) => [e.type, e.at])).toEqual([
      ['clock.advanced', T0],
      ['mock.reset', T0],
      ['mock.restored', '2026-11-21T09:01:00.000Z'],
    ]);
  });
});

describe('GET /__mock/requests, GET /__mock/events and the event stream', () => {
  it('serves the journal newest first with filters, without bodies on request, and refuses a bad filter', async () => {
    const { client, control } = setup();
    const user = await client.s2s.users.create(registration());
    await client.s2s.users.get('00000000-0000-4000-8000-000000000000').catch(() => undefined);
    await client.s2s.users.get(user.id);

    const all = (await (await control('GET', '/requests')).json()) as {
      items: { operationId: string; status: number }[];
      kept: number;
      capacity: number;
    };
    expect(all.items.map((e) => [e.operationId, e.status])).toEqual([
      ['getUser', 200],
      ['getUser', 404],
      ['createUser', 201],
    ]);
    expect(all).toMatchObject({ kept: 3, capacity: 500 });
    const notFound = (await (await control('GET', '/requests?status=404&code=NOT_FOUND&operation=getUser')).json()) as {
      items: { requestId: string }[];
    };
    expect(notFound.items).toHaveLength(1);
    const byId = (await (
      await control('GET', `/requests?requestId=${notFound.items[0]!.requestId}&bodies=false`)
    ).json()) as { items: object[] };
    expect(byId.items).toHaveLength(1);
    expect(byId.items[0]).not.toHaveProperty('response');
    const bad = await control('GET', '/requests?status=teapot&colour=red');
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({
      code: 'VALIDATION_FAILED',
      errors: [{ path: 'query.status' }, { path: 'query.colour' }],
    });
    // The reads of the journal are not in it.
    expect(((await (await control('GET', '/requests')).json()) as { items: unknown[] }).items).toHaveLength(3);
  });

  it('serves events oldest first filtered by type, and streams new exchanges and events as they happen', async () => {
    const { client, control, openStream } = setup();
    await client.s2s.users.create(registration());
    const events = (await (await control('GET', '/events?type=user.registered')).json()) as {
      items: { type: string; seq: number }[];
    };
    expect(events.items.map((e) => e.type)).toEqual(['user.registered']);

    const controller = new AbortController();
    const stream = await openStream(controller.signal);
    expect(stream.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const reader = stream.body!.pipeThrough(new TextDecoderStream()).getReader();
    const frames = readFrames(reader);
    expect((await frames.next()).value).toMatchObject({ event: 'ready' });
    const created = client.s2s.users.create(registration());
    const first = (await frames.next()).value!;
    const second = (await frames.next()).value!;
    await created;
    expect([first.event, JSON.parse(first.data).type]).toEqual(['event', 'user.registered']);
    expect([second.event, JSON.parse(second.data).operationId, JSON.parse(second.data).status]).toEqual([
      'request',
      'createUser',
      201,
    ]);
    expect(Number(second.id)).toBeGreaterThan(Number(first.id));
    expect(second.data).not.toContain('"request"'); // a summary: no bodies on the stream
    controller.abort();
    await reader.cancel();

    // Reconnecting with Last-Event-ID replays what came after it.
    const again = await openStream(new AbortController().signal, first.id);
    const replay = readFrames(again.body!.pipeThrough(new TextDecoderStream()).getReader());
    expect((await replay.next()).value).toMatchObject({ event: 'request', id: second.id });
    await again.body!.cancel().catch(() => undefined);
  });
});

interface Frame {
  id?: string;
  event: string;
  data: string;
}

/** The server-sent event frames of a stream, one at a time. */
async function* readFrames(reader: ReadableStreamDefaultReader<string>): AsyncGenerator<Frame> {
  let buffer = '';
  for (;;) {
    for (let end = buffer.indexOf('\n\n'); end >= 0; end = buffer.indexOf('\n\n')) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      const frame: Frame = { event: 'message', data: '' };
      for (const line of block.split('\n')) {
        const [field, ...rest] = line.split(': ');
        const value = rest.join(': ');
        if (field === 'id') frame.id = value;
        else if (field === 'event') frame.event = value;
        else if (field === 'data') frame.data += value;
      }
      if (block.startsWith(':') || block.startsWith('retry:')) continue;
      yield frame;
    }
    const { value, done } = await reader.read();
    if (done) return;
    buffer += value;
  }
}
