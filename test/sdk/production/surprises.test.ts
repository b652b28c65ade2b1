/**
 * What production brings (issue 18), each against a real node:http server: an endpoint the spec does not name
 * (`POST /s2s/health`, the service's own signing example) through `client.request()`; a server that adds and renames
 * fields, under `validateResponses` 'strict', 'warn' and false; the debug log; the application's headers; and a
 * problem detail carrying card data.
 */
import { inspect } from 'node:util';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  NotFoundError,
  ResponseValidationError,
  ServerError,
  createCardIssuingClient,
  type Logger,
  type RequestEvent,
  type ValidationWarningEvent,
} from '../../../sdk/src/index';
import { specExample } from '../../helpers/spec';
import { problem, startServer, type RunningServer } from './servers';

const SECRET = 'sk_test_production_7c1e';
const USER_ID = '3f0b7c52-9d0e-4c6a-9a55-1e2f7b8c9d01';
const { example: user } = specExample('GET', `/s2s/users/${USER_ID}`) as { example: Record<string, unknown> };
let server: RunningServer;
afterEach(async () => {
  await server?.close();
  vi.unstubAllEnvs();
});

function recorder() {
  const lines: { level: string; message: string }[] = [];
  const at = (level: string) => (message: string) => void lines.push({ level, message });
  const logger: Logger = { debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') };
  return { lines, logger };
}

describe('client.request(): an endpoint the spec does not name', () => {
  it('sends POST /s2s/health signed, and returns the parsed body typed as asked', async () => {
    server = await startServer({
      apiKey: 'k',
      apiSecret: SECRET,
      answer: (s) =>
        s.method === 'POST' && s.path === '/s2s/health' ? { status: 200, body: { status: 'ok' } } : undefined,
    });
    const events: RequestEvent[] = [];
    const client = createCardIssuingClient({
      baseUrl: server.url,
      apiKey: 'k',
      apiSecret: SECRET,
      hooks: { onRequest: (e) => events.push(e) },
    });
    const health = await client.request<{ status: string }>({ method: 'POST', path: '/s2s/health' });
    expect(health.status).toBe('ok');
    expect(server.seen).toHaveLength(1);
    expect(server.seen[0]).toMatchObject({ method: 'POST', path: '/s2s/health', verdict: 'ok' });
    // A POST carries an idempotency key while retries are on, as every method's POST does.
    expect(server.seen[0]!.headers['idempotency-key']).toMatch(/^[0-9a-f-]{36}$/);
    expect(events).toMatchObject([{ operation: 'POST /s2s/health', method: 'POST', attempt: 1 }]);
  });

  it('sends a query and a JSON body, retries a 503 with the same idempotency key, and answers withResponse()', async () => {
    server = await startServer({
      apiKey: 'k',
      apiSecret: SECRET,
      answer: (s, i) =>
        i === 0
          ? problem(503, 'SERVICE_UNAVAILABLE', 'busy')
          : { status: 201, body: { echoed: JSON.parse(s.body), url: s.url } },
    });
    const client = createCardIssuingClient({
      baseUrl: server.url,
      apiKey: 'k',
      apiSecret: SECRET,
      retry: { initialDelayMs: 1 },
    });
    const { data, status, requestId } = await client
      .request<{ echoed: unknown; url: string }>(
        { method: 'post', path: '/s2s/experiments', query: { dryRun: true, skip: undefined, n: 2 }, body: { a: 1 } },
        { idempotencyKey: 'idem-1' },
      )
      .withResponse();
    expect(status).toBe(201);
    expect(requestId).toBe('req_0002');
    expect(data.echoed).toEqual({ a: 1 });
    expect(data.url).toMatch(/\/s2s\/experiments\?dryRun=true&n=2$/);
    expect(server.seen.map((s) => [s.verdict, s.headers['idempotency-key'], s.headers['content-type']])).toEqual([
      ['ok', 'idem-1', 'application/json'],
      ['ok', 'idem-1', 'application/json'],
    ]);
  });

  it('throws the typed errors of every method, and refuses a malformed request before sending', async () => {
    server = await startServer({
      apiKey: 'k',
      apiSecret: SECRET,
      answer: (s) => (s.path === '/boom' ? problem(500, 'INTERNAL_ERROR', 'boom') : undefined),
    });
    const client = createCardIssuingClient({ baseUrl: server.url, apiKey: 'k', apiSecret: SECRET, retry: false });
    await expect(client.request({ method: 'GET', path: '/s2s/nowhere' })).rejects.toBeInstanceOf(NotFoundError);
    await expect(client.request({ method: 'GET', path: '/boom' })).rejects.toBeInstanceOf(ServerError);
    expect(() => client.request({ method: 'GET', path: 's2s/health' })).toThrow(/path must start with "\/"/);
    expect(() => client.request({ method: 'G T', path: '/x' })).toThrow(/method must be an HTTP method/);
  });
});

describe('a server that adds and renames fields', () => {
  // `email` renamed to `emailAddress`, and a field the spec does not have.
  const { email, ...rest } = user;
  const changed = { ...rest, emailAddress: email, loyaltyTier: 'gold' };
  const start = async () =>
    (server = await startServer({ apiKey: 'k', apiSecret: SECRET, answer: () => ({ status: 200, body: changed }) }));

  it("'strict' (the default, and true) throws a ResponseValidationError naming the path", async () => {
    await start();
    for (const validateResponses of [undefined, true, 'strict'] as const) {
      const client = createCardIssuingClient({
        baseUrl: server.url,
        apiKey: 'k',
        apiSecret: SECRET,
        validateResponses,
      });
      const error = await client.s2s.users.get(USER_ID).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ResponseValidationError);
      expect((error as ResponseValidationError).path).toBe('email');
    }
  });

  it("'warn' returns the body as sent and reports each difference once per operation and path, by logger and hook", async () => {
    await start();
    const { lines, logger } = recorder();
    const warnings: ValidationWarningEvent[] = [];
    const client = createCardIssuingClient({
      baseUrl: server.url,
      apiKey: 'k',
      apiSecret: SECRET,
      validateResponses: 'warn',
      logger,
      hooks: { onValidationWarning: (e) => warnings.push(e) },
    });
    expect(await client.s2s.users.get(USER_ID)).toEqual(changed);
    expect(await client.s2s.users.get(USER_ID)).toEqual(changed);
    expect(warnings).toEqual([
      expect.objectContaining({
        operation: 'getUser',
        method: 'GET',
        path: 'email',
        status: 200,
        requestId: 'req_0001',
        url: `${server.url}/s2s/users/${USER_ID}`,
      }),
    ]);
    expect(warnings[0]!.message).toMatch(/expected string, received undefined/);
    expect(lines.filter((l) => l.level === 'warn').map((l) => l.message)).toEqual([
      expect.stringMatching(
        /^card-issuing-sdk: the response of getUser departs from the spec at email: .*expected string.*validateResponses: 'warn'/,
      ),
    ]);
  });

  it('false checks nothing and says nothing', async () => {
    await start();
    const { lines, logger } = recorder();
    const client = createCardIssuingClient({
      baseUrl: server.url,
      apiKey: 'k',
      apiSecret: SECRET,
      validateResponses: false,
      logger,
    });
    expect(await client.s2s.users.get(USER_ID)).toEqual(changed);
    expect(lines).toEqual([]);
    expect(() =>
      createCardIssuingClient({
        baseUrl: server.url,
        apiKey: 'k',
        apiSecret: SECRET,
        validateResponses: 'lenient' as never,
      }),
    ).toThrow(/'strict', 'warn' or false/);
  });
});

describe('logs', () => {
  it('at debug, one line per attempt (method, path, status, duration, request id, retry, clock offset), never a secret', async () => {
    server = await startServer({
      apiKey: 'k',
      apiSecret: SECRET,
      answer: (_s, i) => (i === 0 ? problem(503, 'X', 'busy') : { status: 200, body: user }),
    });
    const { lines, logger } = recorder();
    const client = createCardIssuingClient({
      baseUrl: server.url,
      apiKey: 'k',
      apiSecret: SECRET,
      logger,
      logLevel: 'debug',
      retry: { initialDelayMs: 1 },
    });
    await client.s2s.users.get(USER_ID);
    expect(lines).toEqual([
      {
        level: 'debug',
        message: expect.stringMatching(
          new RegExp(
            `^card-issuing-sdk: GET /s2s/users/${USER_ID} status=503 duration=\\d+ms requestId=req_0001 retry=0 clockOffset=0ms$`,
          ),
        ),
      },
      {
        level: 'debug',
        message: expect.stringMatching(
          new RegExp(
            `^card-issuing-sdk: GET /s2s/users/${USER_ID} status=200 duration=\\d+ms requestId=req_0002 retry=1 clockOffset=0ms$`,
          ),
        ),
      },
    ]);
    const all = JSON.stringify(lines);
    expect(all).not.toContain(SECRET);
    for (const seen of server.seen) expect(all).not.toContain(seen.headers.authorization!.split(':')[1]!);
  });

  // CARD_ISSUING_LOG is tested in core.test.ts: the environment is shared by the threads that run test files.
  it('logs nothing at the default level (warn) for a good call', async () => {
    server = await startServer({ apiKey: 'k', apiSecret: SECRET, answer: () => ({ status: 200, body: user }) });
    const quiet = recorder();
    await createCardIssuingClient({
      baseUrl: server.url,
      apiKey: 'k',
      apiSecret: SECRET,
      logger: quiet.logger,
      logLevel: 'warn',
    }).s2s.users.get(USER_ID);
    expect(quiet.lines).toEqual([]);
  });
});

describe('headers', () => {
  it('sends the client headers and the call headers, a call removing one, and never lets either replace Authorization', async () => {
    server = await startServer({ apiKey: 'k', apiSecret: SECRET, answer: () => ({ status: 200, body: user }) });
    const traceparent = '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01';
    const client = createCardIssuingClient({
      baseUrl: server.url,
      apiKey: 'k',
      apiSecret: SECRET,
      headers: { traceparent, 'X-Tenant': 'acme' },
    });
    await client.s2s.users.get(USER_ID);
    await client.s2s.users.get(USER_ID, { headers: { 'x-tenant': 'globex', 'X-Debug': '1' } });
    await client.s2s.users.get(USER_ID, { headers: { 'X-Tenant': undefined } });
    await client.request({ method: 'GET', path: `/s2s/users/${USER_ID}` }, { headers: { 'x-tenant': 'initech' } });
    expect(
      server.seen.map((s) => [s.verdict, s.headers.traceparent, s.headers['x-tenant'], s.headers['x-debug']]),
    ).toEqual([
      ['ok', traceparent, 'acme', undefined],
      ['ok', traceparent, 'globex', '1'],
      ['ok', traceparent, undefined, undefined],
      ['ok', traceparent, 'initech', undefined],
    ]);
    expect(() =>
      createCardIssuingClient({
        baseUrl: server.url,
        apiKey: 'k',
        apiSecret: SECRET,
        headers: { Authorization: 'Bearer x' },
      }),
    ).toThrow(/Authorization header cannot be set/);
    await expect(client.s2s.users.get(USER_ID, { headers: { authorization: 'x' } })).rejects.toThrow(
      /authorization header cannot be set/,
    );
    await expect(
      client.request({ method: 'POST', path: '/s2s/health' }, { headers: { 'Idempotency-Key': 'x' } }),
    ).rejects.toThrow(/use the idempotencyKey option/);
    expect(server.seen).toHaveLength(4);
  });
});

describe('card data in a problem', () => {
  it("never reaches the error's message, toJSON() or inspect", async () => {
    server = await startServer({
      apiKey: 'k',
      apiSecret: SECRET,
      answer: () => problem(404, 'NOT_FOUND', 'card 4111111111111111 cvv 123 not found'),
    });
    const client = createCardIssuingClient({ baseUrl: server.url, apiKey: 'k', apiSecret: SECRET });
    const error = (await client.s2s.users.get(USER_ID).catch((e: unknown) => e)) as NotFoundError;
    expect(error).toBeInstanceOf(NotFoundError);
    expect(error.detail).toBe('card [REDACTED] cvv [REDACTED] not found');
    for (const shown of [error.message, JSON.stringify(error), inspect(error, { depth: 10 })]) {
      expect(shown).not.toContain('4111111111111111');
      expect(shown).not.toMatch(/cvv 123/);
    }
  });
});
