/**
 * The SDK against hostile servers (real node:http servers on loopback): one that stalls after its headers, one that
 * sends a body without end, one that declares a huge body, one that sends a huge invalid list, and one that echoes
 * the client's secret in every field of its problem. Each would hang, exhaust memory, crash with a raw error or leak
 * the secret without its fix.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { inspect } from 'node:util';
import { gzipSync } from 'node:zlib';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  NetworkError,
  ResponseTooLargeError,
  ResponseValidationError,
  TimeoutError,
  ValidationError,
  createCardIssuingClient,
  type ResponseEvent,
} from 'card-issuing-sdk';
import { settleOnFakeTime, until, useFakeTime, useRealTime } from '../helpers/fake-time';
import { specExample } from '../helpers/spec';

const USER_ID = '3f0b7c52-9d0e-4c6a-9a55-1e2f7b8c9d01';
const SECRET = 'test_secret_9f3b6d2a';
let server: Server | undefined;

async function serve(handler: (req: IncomingMessage, res: ServerResponse) => void): Promise<string> {
  server = createServer(handler);
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

afterEach(async () => {
  useRealTime();
  const running = server;
  server = undefined;
  if (!running) return;
  running.closeAllConnections();
  await new Promise((resolve) => running.close(resolve));
});

const client = (
  baseUrl: string,
  extra: { timeoutMs?: number; maxResponseBytes?: number; hooks?: { onResponse: (e: ResponseEvent) => void } } = {},
) => createCardIssuingClient({ baseUrl, apiKey: 'test_key', apiSecret: SECRET, retry: false, ...extra });

/**
 * Calls `list` (or `get`) on a client with `timeoutMs: 300` on fake time: once the response's headers are in (and
 * the body stalls), fake time moves 299 ms (the call still pending), then 1 ms more; returns how the call ended.
 */
async function stalledBody(
  baseUrl: string,
  call: (c: ReturnType<typeof client>) => Promise<unknown>,
): Promise<unknown> {
  let headers = false;
  useFakeTime({ date: true }); // the SDK counts what is left of the attempt with Date.now()
  let outcome: { error: unknown } | undefined;
  void call(client(baseUrl, { timeoutMs: 300, hooks: { onResponse: () => (headers = true) } })).then(
    () => (outcome = { error: undefined }),
    (error: unknown) => (outcome = { error }),
  );
  await until(() => headers, 'the response headers to arrive');
  await vi.advanceTimersByTimeAsync(299);
  expect(outcome).toBeUndefined();
  await vi.advanceTimersByTimeAsync(1);
  await until(() => outcome !== undefined, 'the call to end 300 ms after it started');
  return outcome!.error;
}

describe('timeoutMs bounds the whole attempt, body included', () => {
  it('a server that sends its headers and part of the body, then stalls, is a TimeoutError', async () => {
    const baseUrl = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{"items":[');
      // ... and never another byte.
    });
    const error = await stalledBody(baseUrl, (c) => c.s2s.cards.list(USER_ID));
    expect(error).toBeInstanceOf(TimeoutError);
    expect(error).toMatchObject({ code: 'TIMEOUT', timeoutMs: 300 });
  });

  it('a server that declares its Content-Length, sends part of the body and stalls, is a TimeoutError', async () => {
    const baseUrl = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': '4096' });
      res.write('{"id":"');
    });
    const error = await stalledBody(baseUrl, (c) => c.s2s.users.get(USER_ID));
    expect(error).toBeInstanceOf(TimeoutError);
    expect(error).toMatchObject({ code: 'TIMEOUT', timeoutMs: 300 });
  });

  it('the wait before a retry is not part of an attempt: a Retry-After longer than timeoutMs is waited out', async () => {
    const { example: user } = specExample('GET', `/s2s/users/${USER_ID}`);
    let attempts = 0;
    const baseUrl = await serve((req, res) => {
      req.resume();
      const body =
        attempts++ === 0
          ? JSON.stringify({
              type: 'about:blank',
              title: 'Too Many Requests',
              status: 429,
              code: 'RATE_LIMITED',
              detail: 'Slow down.',
            })
          : JSON.stringify(user);
      res.writeHead(attempts === 1 ? 429 : 200, {
        'content-type': attempts === 1 ? 'application/problem+json' : 'application/json',
        'content-length': Buffer.byteLength(body),
        'retry-after': '1',
      });
      res.end(body);
    });
    const retrying = createCardIssuingClient({
      baseUrl,
      apiKey: 'test_key',
      apiSecret: SECRET,
      timeoutMs: 300,
      retry: { limit: 1 },
    });
    // On fake time, only the Retry-After wait is jumped over, whole: a body timer left running from the first
    // attempt would fire inside it and end the call.
    const time = useFakeTime();
    await expect(settleOnFakeTime(time, retrying.s2s.users.get(USER_ID), (ms) => ms === 1_000)).resolves.toEqual({
      ok: true,
      value: user,
    });
    expect(attempts).toBe(2);
  });

  it("the caller's signal still aborts a call whose body is being read, with the caller's reason", async () => {
    const baseUrl = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': '4096' });
      res.write('{"id":"');
    });
    const controller = new AbortController();
    const reason = new Error('the user left the page');
    // Aborted once the headers are in, while the body is being read.
    const withHooks = createCardIssuingClient({
      baseUrl,
      apiKey: 'test_key',
      apiSecret: SECRET,
      retry: false,
      timeoutMs: 60_000,
      hooks: { onResponse: () => controller.abort(reason) },
    });
    const call = withHooks.s2s.users.get(USER_ID, { signal: controller.signal });
    await expect(call).rejects.toBe(reason);
  });
});

describe('a connection that fails', () => {
  it("names the transport's own reason, not only Node fetch's 'fetch failed'", async () => {
    // A port nothing listens on: one a server had, closed again.
    const baseUrl = await serve(() => undefined);
    await new Promise((resolve) => server!.close(resolve));
    server = undefined;
    const error = await client(baseUrl)
      .s2s.users.get(USER_ID)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NetworkError);
    expect((error as Error).message).toMatch(/could not reach http:\/\/127\.0\.0\.1:\d+: connect ECONNREFUSED/);
    // The cause is still the transport's error as fetch threw it.
    expect((error as NetworkError).cause).toBeInstanceOf(TypeError);
  });
});

describe('a connection that fails while the body is read', () => {
  const { example: user } = specExample('GET', `/s2s/users/${USER_ID}`);
  /** Answers each request's headers and half its body, then resets the connection; after `drops` of them, in full. */
  const dropping = (drops: number) => {
    const seen: string[] = [];
    const handler = (req: IncomingMessage, res: ServerResponse) => {
      seen.push(req.method!);
      const body = JSON.stringify(req.method === 'POST' ? { ...(user as object), id: USER_ID } : user);
      res.writeHead(req.method === 'POST' ? 201 : 200, {
        'content-type': 'application/json',
        'content-length': String(Buffer.byteLength(body)),
        'x-request-id': `req_${seen.length}`,
      });
      if (seen.length > drops) {
        res.end(body);
        return;
      }
      res.write(body.slice(0, body.length / 2), () => res.socket?.resetAndDestroy());
    };
    return { seen, handler };
  };
  const retrying = (baseUrl: string) =>
    createCardIssuingClient({
      baseUrl,
      apiKey: 'test_key',
      apiSecret: SECRET,
      retry: { limit: 2, initialDelayMs: 1, maxDelayMs: 1 },
    });

  it('is a NetworkError naming the response, never a validation failure of a body it did not get', async () => {
    const { handler } = dropping(1);
    const error = await client(await serve(handler))
      .s2s.users.get(USER_ID)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NetworkError);
    expect(error).toMatchObject({ code: 'NETWORK_ERROR', requestId: 'req_1', status: undefined });
    expect((error as Error).message).toMatch(/the response body from .* could not be read/);
  });

  it("a body whose gzip encoding is corrupt cannot be read either: a NetworkError, its cause the decoder's", async () => {
    const baseUrl = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip', 'x-request-id': 'req_gz' });
      res.end('this is not gzip');
    });
    const error = await client(baseUrl)
      .s2s.users.get(USER_ID)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NetworkError);
    expect(error).toMatchObject({ code: 'NETWORK_ERROR', requestId: 'req_gz', cause: { code: 'Z_DATA_ERROR' } });
  });

  it('is retried as a network error: a GET gets its answer from the next attempt', async () => {
    const { seen, handler } = dropping(1);
    const answer = await retrying(await serve(handler)).s2s.users.get(USER_ID);
    expect(answer).toEqual(user);
    expect(seen).toEqual(['GET', 'GET']);
  });

  it('a POST is sent again only with its Idempotency-Key', async () => {
    // The spec's own user, registered again.
    type Registration = Parameters<ReturnType<typeof client>['s2s']['users']['create']>[0];
    const { email, firstName, lastName, phone, dateOfBirth, country } = user as Registration;
    const registration: Registration = { email, firstName, lastName, phone, dateOfBirth, country };
    const keyed = dropping(1);
    await retrying(await serve(keyed.handler)).s2s.users.create(registration);
    expect(keyed.seen).toEqual(['POST', 'POST']);
    server!.closeAllConnections();
    await new Promise((resolve) => server!.close(resolve));
    const unkeyed = dropping(1);
    const error = await retrying(await serve(unkeyed.handler))
      .s2s.users.create(registration, { idempotencyKey: false })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NetworkError);
    expect(unkeyed.seen).toEqual(['POST']);
  });
});

describe('maxResponseBytes', () => {
  it('a body without end stops at the limit with a ResponseTooLargeError, and the connection is released', async () => {
    let released!: () => void;
    const closed = new Promise<void>((resolve) => (released = resolve));
    const baseUrl = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{"items":[');
      const chunk = `${'{"object":"card"},'.repeat(4096)}`;
      const pump = () => {
        while (!res.destroyed && res.write(chunk));
        if (!res.destroyed) res.once('drain', pump);
      };
      res.on('close', released);
      pump();
    });
    const error = await client(baseUrl, { maxResponseBytes: 1024 * 1024 })
      .s2s.cards.list(USER_ID)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ResponseTooLargeError);
    expect(error).toMatchObject({ code: 'RESPONSE_TOO_LARGE', maxResponseBytes: 1024 * 1024, status: 200 });
    await closed; // the server saw the client go: nothing keeps reading
  });

  it('a declared Content-Length over the limit is refused before reading', async () => {
    const baseUrl = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(50 * 1024 * 1024) });
      res.write('{');
    });
    const error = await client(baseUrl)
      .s2s.cards.list(USER_ID)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ResponseTooLargeError);
    expect((error as ResponseTooLargeError).maxResponseBytes).toBe(10 * 1024 * 1024);
  });

  it('a small gzip body that decodes past the limit is stopped there: its Content-Length is of the encoded bytes', async () => {
    const bomb = gzipSync(Buffer.alloc(8 * 1024 * 1024, 0x20)); // 8 MiB of spaces in about 8 KiB
    const baseUrl = await serve((_req, res) => {
      res.writeHead(200, {
        'content-type': 'application/json',
        'content-encoding': 'gzip',
        'content-length': bomb.byteLength,
      });
      res.end(bomb);
    });
    const error = await client(baseUrl, { maxResponseBytes: 1024 * 1024 })
      .s2s.users.get(USER_ID)
      .catch((e: unknown) => e);
    expect(bomb.byteLength).toBeLessThan(1024 * 1024);
    expect(error).toBeInstanceOf(ResponseTooLargeError);
  });

  it('refuses a maxResponseBytes that is not a positive whole number', () => {
    expect(() => client('http://127.0.0.1:1', { maxResponseBytes: 0 })).toThrow(/maxResponseBytes/);
  });
});

describe('every validation failure is a ResponseValidationError', () => {
  it('a 100k-item invalid list is one, never a raw RangeError', async () => {
    const body = JSON.stringify({
      items: Array.from({ length: 100_000 }, (_, i) => ({ object: 'card', id: i, extra: 'x' })),
    });
    const baseUrl = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(body);
    });
    const error = await client(baseUrl)
      .s2s.cards.list(USER_ID)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ResponseValidationError);
    expect((error as ResponseValidationError).errors.length).toBeLessThanOrEqual(100);
  });
});

describe('a server that echoes the secret', () => {
  it('never shows it in the message, toJSON() or inspect, wherever the server put it', async () => {
    let authorization = '';
    const baseUrl = await serve((req, res) => {
      authorization = req.headers.authorization ?? '';
      const echo = `${SECRET} ${authorization}`;
      res.writeHead(400, { 'content-type': 'application/problem+json', 'x-request-id': `req_${SECRET}` });
      res.end(
        JSON.stringify({
          type: `https://evil.example/${SECRET}`,
          title: echo,
          status: 400,
          code: 'VALIDATION_FAILED',
          detail: echo,
          instance: echo,
          requestId: SECRET,
          currentStatus: SECRET,
          operation: SECRET,
          stringToSign: echo,
          errors: [
            { path: `body.${SECRET}`, message: echo },
            { path: authorization, message: 'x' },
          ],
        }),
      );
    });
    const error = await client(baseUrl)
      .s2s.users.get(USER_ID)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ValidationError);
    const signature = authorization.split(':')[1]!;
    expect(signature.length).toBeGreaterThan(20);
    for (const shown of [
      String((error as Error).message),
      JSON.stringify(error),
      inspect(error, { depth: 10 }),
      (error as Error).stack ?? '',
    ]) {
      expect(shown).not.toContain(SECRET);
      expect(shown).not.toContain(signature);
      expect(shown).toContain('[REDACTED]');
    }
  });
});
