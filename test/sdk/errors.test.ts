import { inspect } from 'node:util';
import { delay, HttpResponse } from 'msw';
import forge from 'node-forge';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { encryptCardDetails } from '../../sdk/src/card-details/encrypt';
import { generateCardKeyPair } from '../../sdk/src/card-details/keys';
import { createCardIssuingClient } from '../../sdk/src/client';
import type { ApiPromise } from '../../sdk/src/core/api-promise';
import type { CardIssuingClient } from '../../sdk/src/client';
import {
  AuthenticationError,
  BusinessRuleError,
  CardDetailsDecryptionError,
  CardDetailsInvalidError,
  ConflictError,
  NetworkError,
  NotFoundError,
  PublicKeyInvalidError,
  RateLimitError,
  ResponseValidationError,
  ServerError,
  TimeoutError,
  ValidationError,
} from '../../sdk/src/core/errors/classes';
import { CardIssuingError } from '../../sdk/src/core/errors/base';
import { errorFromResponse } from '../../sdk/src/core/errors/from-response';
import { API_KEY, API_SECRET, problem, signedServer, specExample, uuid as u } from './support';

// Every error kind, produced by a handler that returns it; and the secret, the Authorization header and card data
// appear in none of them (message, stack, toJSON, util.inspect with the whole cause chain).
const BASE = 'https://errors.test';
const api = signedServer(BASE);
beforeAll(() => api.server.listen({ onUnhandledFrame: 'error' }));
afterEach(() => api.reset());
afterAll(() => api.server.close());

const client = createCardIssuingClient({ baseUrl: BASE, apiKey: API_KEY, apiSecret: API_SECRET, retry: false });
const keyPair = await generateCardKeyPair();
const cardData = {
  pan: '4000123412344246',
  expiryMonth: 11,
  expiryYear: 2029,
  cvv: '987',
  cardholderName: 'ADA LOVELACE',
};

/** Runs a call and returns what it rejected with (failing if it resolved). */
async function failure(promise: ApiPromise<unknown> | Promise<unknown>): Promise<CardIssuingError> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(CardIssuingError);
    return error as CardIssuingError;
  }
  throw new Error('expected the call to fail');
}

const listCardsExample = specExample('GET', '/s2s/cards').example as { items: Record<string, unknown>[] };

interface Kind {
  kind: string;
  type: abstract new (...args: never[]) => CardIssuingError;
  status: number | undefined;
  code: string;
  produce: (c: CardIssuingClient) => Promise<CardIssuingError>;
}

const kinds: Kind[] = [
  {
    kind: 'validation (400, with field errors)',
    type: ValidationError,
    status: 400,
    code: 'VALIDATION_FAILED',
    produce: async (c) => {
      api.respond(() =>
        problem(400, 'VALIDATION_FAILED', '1 field is invalid.', {
          errors: [{ path: 'body.code', message: 'Must be 6 digits' }],
        }),
      );
      const error = await failure(c.s2s.email.confirm(u(1), { code: '123456' }));
      expect(error.errors).toEqual([{ path: 'body.code', message: 'Must be 6 digits' }]);
      return error;
    },
  },
  {
    kind: 'authentication (401: a wrong secret, refused by the verifier)',
    type: AuthenticationError,
    status: 401,
    code: 'AUTH_SIGNATURE_MISMATCH',
    produce: async () => {
      const wrong = createCardIssuingClient({ baseUrl: BASE, apiKey: API_KEY, apiSecret: `${API_SECRET}-wrong` });
      const error = await failure(wrong.s2s.users.get(u(1)));
      // The mock-style stringToSign is kept for debugging; it holds no secret.
      expect(error.problem?.stringToSign).toContain(`${API_KEY}GEThttps://errors.test/s2s/users/`);
      expect(api.seen).toHaveLength(1); // 401 is not retried
      return error;
    },
  },
  {
    kind: 'not found (404)',
    type: NotFoundError,
    status: 404,
    code: 'NOT_FOUND',
    produce: async (c) => {
      api.respond(() => problem(404, 'NOT_FOUND', `No user ${u(1)}.`));
      return failure(c.s2s.users.get(u(1)));
    },
  },
  {
    kind: 'conflict (409, with current status and operation)',
    type: ConflictError,
    status: 409,
    code: 'INVALID_TRANSITION',
    produce: async (c) => {
      api.respond(() =>
        problem(409, 'INVALID_TRANSITION', 'Not while CANCELED.', {
          currentStatus: 'CANCELED',
          operation: 'increaseApprovalBudget',
        }),
      );
      const error = (await failure(
        c.corporates.approvals.increaseBudget(u(8), u(10), { additionalBudget: { amount: 100, currency: 'EUR' } }),
      )) as ConflictError;
      expect(error.currentStatus).toBe('CANCELED');
      expect(error.operation).toBe('increaseApprovalBudget');
      return error;
    },
  },
  {
    kind: 'business rule (422)',
    type: BusinessRuleError,
    status: 422,
    code: 'INSUFFICIENT_FUNDS',
    produce: async (c) => {
      api.respond(() => problem(422, 'INSUFFICIENT_FUNDS', 'The balance has 100, the draft costs 499.'));
      return failure(c.s2s.cards.chargeDraft(u(5)));
    },
  },
  {
    kind: 'rate limit (429, with retryAfter)',
    type: RateLimitError,
    status: 429,
    code: 'RATE_LIMITED',
    produce: async (c) => {
      api.respond(() => problem(429, 'RATE_LIMITED', 'Slow down.', {}, { 'retry-after': '7' }));
      const error = (await failure(c.s2s.users.get(u(1)))) as RateLimitError;
      expect(error.retryAfter).toBe(7);
      expect(error.toJSON().retryAfter).toBe(7);
      return error;
    },
  },
  {
    kind: 'server (500)',
    type: ServerError,
    status: 500,
    code: 'INTERNAL_ERROR',
    produce: async (c) => {
      api.respond(() => problem(500, 'INTERNAL_ERROR', 'Something broke.'));
      return failure(c.s2s.users.get(u(1)));
    },
  },
  {
    kind: 'server (502 with an HTML body from a proxy)',
    type: ServerError,
    status: 502,
    code: 'HTTP_502',
    produce: async (c) => {
      api.respond(
        () =>
          new HttpResponse('<html><body>Bad gateway</body></html>', {
            status: 502,
            headers: { 'content-type': 'text/html', 'x-request-id': 'req_proxy' },
          }),
      );
      const error = await failure(c.s2s.users.get(u(1)));
      expect(error.problem).toBeUndefined();
      expect(error.requestId).toBe('req_proxy');
      return error;
    },
  },
  {
    kind: 'another status (418) with a code this SDK version does not know: the base class, the code and words kept as they came',
    type: CardIssuingError,
    status: 418,
    code: 'TEAPOT',
    produce: async (c) => {
      api.respond(() => problem(418, 'TEAPOT' as never, 'I am a teapot.'));
      const error = await failure(c.s2s.users.get(u(1)));
      expect(error.constructor).toBe(CardIssuingError);
      expect(error.detail).toBe('I am a teapot. (code TEAPOT, unknown to this SDK version)');
      return error;
    },
  },
  {
    kind: 'network',
    type: NetworkError,
    status: undefined,
    code: 'NETWORK_ERROR',
    produce: async (c) => {
      api.respond(() => HttpResponse.error());
      const error = await failure(c.s2s.users.get(u(1)));
      expect(error.cause).toBeInstanceOf(Error);
      return error;
    },
  },
  {
    kind: 'timeout',
    type: TimeoutError,
    status: undefined,
    code: 'TIMEOUT',
    produce: async (c) => {
      api.respond(async () => {
        await delay(2_000);
        return undefined;
      });
      return failure(c.s2s.users.get(u(1), { timeoutMs: 30 }));
    },
  },
  {
    kind: 'response validation (names the operation and the path)',
    type: ResponseValidationError,
    status: 200,
    code: 'RESPONSE_VALIDATION_FAILED',
    produce: async (c) => {
      api.respond(() =>
        HttpResponse.json(
          { items: [{ ...listCardsExample.items[0], status: 'MELTED' }], hasMore: false, nextCursor: null },
          { headers: { 'x-request-id': 'req_bad_body' } },
        ),
      );
      const error = (await failure(c.s2s.cards.list(u(1)))) as ResponseValidationError;
      expect(error.operation).toBe('listCards');
      expect(error.path).toBe('items[0].status');
      expect(error.message).toContain('listCards');
      expect(error.message).toContain('items[0].status');
      expect(error.errors[0]!.path).toBe('items[0].status');
      expect(error.requestId).toBe('req_bad_body');
      return error;
    },
  },
  {
    kind: 'request validation before sending (status undefined, server-style paths)',
    type: ValidationError,
    status: undefined,
    code: 'VALIDATION_FAILED',
    produce: async (c) => {
      const error = await failure(
        c.s2s.users.create({
          email: 'not-an-email',
          firstName: 'Ada',
          lastName: 'L',
          phone: '+447700900123',
          dateOfBirth: '1990-12-10',
          country: 'GB',
        }),
      );
      expect(api.seen).toHaveLength(0);
      expect(error.errors.map((e) => e.path)).toEqual(['body.email']);
      return error;
    },
  },
  {
    kind: 'card details tampered in transit',
    type: CardDetailsDecryptionError,
    status: undefined,
    code: 'CARD_DETAILS_DECRYPTION_FAILED',
    produce: async (c) => {
      api.respond(async (request) => {
        const jwe = (await encryptCardDetails(cardData, request.url.searchParams.get('publicKey')!)).split('.');
        jwe[3] = jwe[3]!.slice(0, 5) + (jwe[3]![5] === 'A' ? 'B' : 'A') + jwe[3]!.slice(6);
        return HttpResponse.json({ encryptedDetails: jwe.join('.') });
      });
      return failure(c.s2s.cards.getDetails(u(5), { keyPair }));
    },
  },
  {
    kind: 'card details encrypted to another key',
    type: CardDetailsDecryptionError,
    status: undefined,
    code: 'CARD_DETAILS_DECRYPTION_FAILED',
    produce: async (c) => {
      const other = await generateCardKeyPair();
      const encryptedDetails = await encryptCardDetails(cardData, other);
      api.respond(() => HttpResponse.json({ encryptedDetails }));
      return failure(c.corporates.approvals.getDetails(u(8), u(10), { keyPair }));
    },
  },
  {
    kind: 'card details that fail the Luhn check',
    type: CardDetailsInvalidError,
    status: undefined,
    code: 'CARD_DETAILS_INVALID',
    produce: async (c) => {
      api.respond(async (request) =>
        HttpResponse.json({
          encryptedDetails: await encryptCardDetails(
            { ...cardData, pan: '4000123412344247' },
            request.url.searchParams.get('publicKey')!,
          ),
        }),
      );
      return failure(c.s2s.cards.getDetails(u(5), { keyPair }));
    },
  },
  {
    kind: 'a weak key pair, refused before sending',
    type: PublicKeyInvalidError,
    status: undefined,
    code: 'PUBLIC_KEY_INVALID',
    produce: async (c) => {
      const weak = forge.pki.rsa.generateKeyPair({ bits: 1024 });
      const error = await failure(c.s2s.cards.getDetails(u(5), { keyPair: weak }));
      expect(api.seen).toHaveLength(0);
      return error;
    },
  },
  {
    kind: 'the server refusing the public key (400 PUBLIC_KEY_INVALID)',
    type: ValidationError,
    status: 400,
    code: 'PUBLIC_KEY_INVALID',
    produce: async (c) => {
      api.respond(() => problem(400, 'PUBLIC_KEY_INVALID', 'The public key is shorter than 2048 bits.'));
      return failure(c.s2s.cards.getDetails(u(5), { keyPair }));
    },
  },
];

const produced: CardIssuingError[] = [];
const authorizations: string[] = [];

describe('every error kind', () => {
  it.each(kinds)('$kind', async ({ type, status, code, produce }) => {
    const error = await produce(client);
    expect(error).toBeInstanceOf(type);
    expect(error).toBeInstanceOf(CardIssuingError);
    expect(error).toBeInstanceOf(Error);
    expect(error.status).toBe(status);
    expect(error.code).toBe(code);
    expect(error.detail).toEqual(expect.any(String));
    expect(Array.isArray(error.errors)).toBe(true);
    expect(error.name).toBe(type.name);
    if (status !== undefined) expect(error.requestId).toMatch(/^req_/);
    const json = error.toJSON();
    expect(json).toMatchObject({ name: type.name, status, code, detail: error.detail, requestId: error.requestId });
    expect(JSON.parse(JSON.stringify(error))).toEqual(JSON.parse(JSON.stringify(json)));
    produced.push(error);
    authorizations.push(...api.seen.map((r) => r.authorization!).filter(Boolean));
  });

  it('never shows the secret, an Authorization header, a signature or card data, anywhere', () => {
    expect(produced).toHaveLength(kinds.length);
    expect(authorizations.length).toBeGreaterThan(10);
    const forbidden = [
      API_SECRET,
      ...authorizations,
      ...authorizations.map((a) => a.split(':')[1]!), // the signature alone
      cardData.pan,
      `"${cardData.cvv}"`,
      '4000123412344247',
    ];
    for (const error of produced) {
      const views = [
        error.message,
        String(error.stack),
        String(error),
        JSON.stringify(error),
        JSON.stringify(error.toJSON()),
        inspect(error, { depth: Infinity, showHidden: true }),
      ];
      for (const view of views)
        for (const secret of forbidden) expect(view, `${error.name}: ${view.slice(0, 200)}`).not.toContain(secret);
    }
  });

  it('redacts the secret even when a server echoes it back', async () => {
    api.respond(() =>
      problem(400, 'VALIDATION_FAILED', `Bad secret ${API_SECRET} in request`, {
        errors: [{ path: 'header', message: `saw ${API_SECRET}` }],
      }),
    );
    const error = await failure(client.s2s.users.get(u(1)));
    const seen = `${error.message}${JSON.stringify(error)}${inspect(error, { depth: Infinity })}`;
    expect(seen).not.toContain(API_SECRET);
    expect(error.detail).toBe('Bad secret [REDACTED] in request');
  });

  it('keeps the secret out of the client object itself', () => {
    expect(inspect(client, { depth: Infinity, showHidden: true })).not.toContain(API_SECRET);
    expect(JSON.stringify(client)).not.toContain(API_SECRET);
  });
});

describe('response validation switch', () => {
  it('is on by default and off with validateResponses: false', async () => {
    api.respond(() =>
      HttpResponse.json({
        items: [{ ...listCardsExample.items[0], status: 'MELTED' }],
        hasMore: false,
        nextCursor: null,
      }),
    );
    await expect(client.s2s.cards.list(u(1))).rejects.toBeInstanceOf(ResponseValidationError);
    const lenient = createCardIssuingClient({
      baseUrl: BASE,
      apiKey: API_KEY,
      apiSecret: API_SECRET,
      validateResponses: false,
    });
    const cards = await lenient.s2s.cards.list(u(1));
    expect(cards.items[0]!.status).toBe('MELTED');
  });

  it('a success body that is not JSON is a ResponseValidationError that does not quote the body', async () => {
    api.respond(
      () =>
        new HttpResponse('<html>secret-looking page 4000123412344246</html>', {
          status: 200,
          headers: { 'content-type': 'text/html' },
        }),
    );
    const error = (await failure(client.s2s.users.get(u(1)))) as ResponseValidationError;
    expect(error).toBeInstanceOf(ResponseValidationError);
    expect(error.operation).toBe('getUser');
    expect(inspect(error, { depth: Infinity })).not.toContain('4000123412344246');
  });

  it('names the path of a missing field and counts the rest', async () => {
    const { items } = listCardsExample;
    const { last4: _, cardholderName: __, ...incomplete } = items[0]!;
    api.respond(() => HttpResponse.json({ items: [items[0], incomplete], hasMore: false, nextCursor: null }));
    const error = (await failure(client.s2s.cards.list(u(1)))) as ResponseValidationError;
    expect(error.errors.map((e) => e.path)).toEqual(['items[1].last4', 'items[1].cardholderName']);
    expect(error.detail).toMatch(/items\[1\]\.last4: .*\(and 1 more\)/);
  });
});

describe('errorFromResponse', () => {
  it('builds the class from the status even without a problem body', () => {
    const headers = new Headers({ 'x-request-id': 'req_x', 'retry-after': 'Wed, 21 Oct 2015 07:28:00 GMT' });
    expect(errorFromResponse({ status: 404, headers, body: undefined })).toBeInstanceOf(NotFoundError);
    const limited = errorFromResponse({ status: 429, headers, body: 'not json' }) as RateLimitError;
    expect(limited).toBeInstanceOf(RateLimitError);
    expect(limited.retryAfter).toBe(0); // an HTTP date in the past
    expect(limited.code).toBe('HTTP_429');
    const parsed = errorFromResponse({
      status: 409,
      headers,
      body: JSON.stringify({ type: 'about:blank', title: 'Conflict', status: 409, code: 'DRAFT_NOT_CHARGED' }),
    });
    expect(parsed).toBeInstanceOf(ConflictError);
    expect(parsed.code).toBe('DRAFT_NOT_CHARGED');
    expect(parsed.detail).toBe('Conflict');
    expect(parsed.message).toBe('Conflict (DRAFT_NOT_CHARGED, HTTP 409, request req_x)');
  });
});

describe('a problem with malformed members', () => {
  // Found in review: a string `status` or a numeric `code` made the whole body unread, and the error said the server
  // answered "without a problem+json body". The body was there: what could be read is kept, the rest is named.
  const body = {
    type: 'https://docs.card-issuing.example/errors/unavailable',
    title: 'Service unavailable',
    status: '503',
    code: 503,
    detail: 'The ledger is being migrated.',
    errors: 'none',
    requestId: 'req_partial',
  };

  it('is still the class of its status, with the members that could be read and the others named', () => {
    const error = errorFromResponse({ status: 503, headers: new Headers(), body: JSON.stringify(body) });
    expect(error).toBeInstanceOf(ServerError);
    expect(error.status).toBe(503);
    expect(error.code).toBe('HTTP_503'); // `code` was a number: no code could be read
    expect(error.type).toBe(body.type);
    expect(error.title).toBe(body.title);
    expect(error.requestId).toBe('req_partial');
    expect(error.errors).toEqual([]);
    expect(error.detail).toBe(
      'The ledger is being migrated. (malformed members of the problem body, left out: status, code, errors)',
    );
    expect(error.message).not.toContain('without a problem+json body');
  });

  it('keeps a well-formed code and field errors beside a malformed member', () => {
    const error = errorFromResponse({
      status: 400,
      headers: new Headers({ 'x-request-id': 'req_h' }),
      body: {
        type: 42,
        title: 'Invalid',
        status: 400,
        code: 'VALIDATION_FAILED',
        errors: [{ path: 'body.email', message: 'Not an e-mail address' }],
      },
    });
    expect(error).toBeInstanceOf(ValidationError);
    expect(error.code).toBe('VALIDATION_FAILED');
    expect(error.errors).toEqual([{ path: 'body.email', message: 'Not an e-mail address' }]);
    expect(error.type).toBeUndefined();
    expect(error.detail).toBe('Invalid (malformed members of the problem body, left out: type)');
    expect(error.requestId).toBe('req_h');
  });

  it('says the body was there even when neither title nor detail could be read', () => {
    const error = errorFromResponse({
      status: 404,
      headers: new Headers({ 'content-type': 'application/problem+json' }),
      body: { title: ['Not found'], status: 404, code: null },
    });
    expect(error).toBeInstanceOf(NotFoundError);
    expect(error.code).toBe('HTTP_404');
    expect(error.title).toBeUndefined();
    expect(error.detail).toBe(
      'The server answered 404 with a problem body without a readable title or detail. (malformed members of the problem body, left out: title, code)',
    );
  });

  it('is what a client call throws, redacted like any problem', async () => {
    api.respond(() =>
      HttpResponse.json(
        { ...body, detail: `Echo: ${API_SECRET}` },
        { status: 503, headers: { 'content-type': 'application/problem+json' } },
      ),
    );
    const error = await failure(client.s2s.users.get(u(1)));
    expect(error).toBeInstanceOf(ServerError);
    expect(error.title).toBe('Service unavailable');
    expect(error.detail).toBe(
      'Echo: [REDACTED] (malformed members of the problem body, left out: status, code, errors)',
    );
    expect(inspect(error, { depth: Infinity })).not.toContain(API_SECRET);
  });

  it('a JSON body that is no problem at all is still said to be none', () => {
    const error = errorFromResponse({ status: 502, headers: new Headers(), body: { message: 'Bad gateway' } });
    expect(error).toBeInstanceOf(ServerError);
    expect(error.detail).toBe('The server answered 502 without a problem+json body.');
  });
});
