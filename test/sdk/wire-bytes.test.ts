/**
 * The client builds each call's URL and body itself (sdk/src/core/wire.ts) instead of going through hey-api's
 * generated client: what reaches a real node:http server must be byte for byte what the generated functions send,
 * for every operation, since the signature covers the URL as sent and servers verify the target as received.
 * Arguments that need encoding (spaces, `/`, `?`, `#`, `&`, `+`, quotes, non-ASCII, the characters
 * `encodeURIComponent` leaves alone), numbers, booleans, absent members, a bigint in a body; validation is off so
 * that such values are sent.
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient } from '../../sdk/generated/client';
import { operations } from '../../sdk/generated/operations.gen';
import * as api from '../../sdk/generated/sdk.gen';
import { createCardIssuingClient, exportPublicKey, generateCardKeyPair, type CardKeyPair } from '../../sdk/src/index';

interface Received {
  method: string;
  target: string;
  contentType: string | undefined;
  idempotencyKey: string | undefined;
  body: string;
}

let server: Server;
let baseUrl: string;
const received: Received[] = [];
const record = async (request: IncomingMessage): Promise<Received> => {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  const header = (name: string) => request.headers[name] as string | undefined;
  return {
    method: request.method!,
    target: request.url!,
    contentType: header('content-type'),
    idempotencyKey: header('idempotency-key'),
    body: Buffer.concat(chunks).toString('utf8'),
  };
};

beforeAll(async () => {
  server = createServer((request, response) => {
    void record(request).then((seen) => {
      received.push(seen);
      response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  // A base path too: the template is appended to it.
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/base/`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

/** The one request the next `send` makes, as the server received it. */
async function exchange(send: () => Promise<unknown>): Promise<Received> {
  const before = received.length;
  await send().catch(() => undefined); // card details: `{}` has nothing to decrypt; only the request matters here
  expect(received.length).toBe(before + 1);
  return received[before]!;
}

const AWKWARD = "a b/ü?#&+=%!'()*~$,;@:é";
const valueFor = (arg: string) => `${arg.split('.')[1]}:${AWKWARD}`;
const body = {
  text: AWKWARD,
  count: 3,
  flag: false,
  nothing: null,
  big: 12345678901234567890n,
  nested: { list: [1, 'two'] },
};
const optionalQuery = { status: 'ACTIVE DRAFT', page: 2, archived: true, absent: undefined, blank: '' };
const IDEMPOTENCY_KEY = 'wire-bytes-key';

describe('the bytes on the wire, SDK against the generated functions on hey-api client', () => {
  let keyPair: CardKeyPair;
  let publicKey: string;
  beforeAll(async () => {
    keyPair = await generateCardKeyPair();
    publicKey = await exportPublicKey(keyPair);
  });

  it.each(Object.entries(operations))('%s', async (operationId, row) => {
    const sdk = createCardIssuingClient({
      baseUrl,
      apiKey: 'k',
      apiSecret: 's',
      validateRequests: false,
      validateResponses: false,
      retry: false,
    });
    const generated = createClient({
      baseUrl: baseUrl.replace(/\/$/, ''),
      throwOnError: false,
      kyOptions: { retry: 0 },
    });

    const args: unknown[] = [];
    const parts: { path?: Record<string, unknown>; query?: Record<string, unknown>; body?: unknown } = {};
    for (const arg of row.args as readonly string[]) {
      if (arg === 'body') {
        parts.body = body;
        args.push(body);
      } else if (arg === 'query') {
        parts.query = { ...parts.query, ...optionalQuery };
        args.push(parts.query);
      } else {
        const [where, name] = arg.split('.') as ['path' | 'query', string];
        const value = valueFor(arg);
        parts[where] = { ...parts[where], [name]: value };
        args.push(value);
      }
    }
    const options: Record<string, unknown> = { idempotencyKey: IDEMPOTENCY_KEY };
    if (row.kind === 'list') {
      Object.assign(options, { limit: 7, cursor: `c:${AWKWARD}` });
      parts.query = { ...parts.query, limit: 7, cursor: `c:${AWKWARD}` };
    }
    if (row.kind === 'cardDetails') {
      Object.assign(options, { keyPair });
      parts.query = { ...parts.query, publicKey };
    }
    // An absent optional query object member is never sent, by either.
    if (parts.query) parts.query = Object.fromEntries(Object.entries(parts.query).filter(([, v]) => v !== undefined));

    const [area, resource, name] = row.name.split('.') as [string, string, string];
    const method = (
      sdk as unknown as Record<string, Record<string, Record<string, (...a: unknown[]) => Promise<unknown>>>>
    )[area]![resource]![name]!;
    const ours = await exchange(() => method(...args, options));
    const theirs = await exchange(() =>
      (api as unknown as Record<string, (o: object) => Promise<unknown>>)[operationId]!({
        client: generated,
        ...parts,
        headers: row.method === 'POST' ? { 'Idempotency-Key': IDEMPOTENCY_KEY } : {},
      }),
    );
    expect(ours).toEqual(theirs);
    // Not vacuous: every argument reached the wire, encoded.
    expect(ours.target.startsWith('/base/')).toBe(true);
    // (URL parsing escapes a query's `'` too.)
    for (const arg of (row.args as readonly string[]).filter((a) => a.includes('.')))
      expect(ours.target.replaceAll('%27', "'")).toContain(encodeURIComponent(valueFor(arg)));
    expect(ours.target).not.toMatch(/[{} ]/);
    if ((row.args as readonly string[]).includes('body'))
      expect(JSON.parse(ours.body)).toMatchObject({ text: AWKWARD, big: '12345678901234567890' });
  });

  it('client.request(): the path as given, the query and the JSON body, as the generated client.request sends them', async () => {
    const sdk = createCardIssuingClient({ baseUrl, apiKey: 'k', apiSecret: 's', retry: false });
    const generated = createClient({
      baseUrl: baseUrl.replace(/\/$/, ''),
      throwOnError: false,
      kyOptions: { retry: 0 },
    });
    const query = { q: AWKWARD, n: 1.5, yes: true, gone: undefined };
    const payload = { text: AWKWARD, list: [1, 2] };
    const ours = await exchange(() =>
      sdk.request(
        { method: 'post', path: '/s2s/health/x%20y', query, body: payload },
        { idempotencyKey: IDEMPOTENCY_KEY },
      ),
    );
    const theirs = await exchange(() =>
      generated.request({
        method: 'POST',
        url: '/s2s/health/x%20y',
        query,
        body: payload,
        bodySerializer: (b: unknown) => JSON.stringify(b),
        headers: { 'Content-Type': 'application/json', 'Idempotency-Key': IDEMPOTENCY_KEY },
      }),
    );
    expect(ours).toEqual(theirs);
    expect(ours.target).toBe(
      `/base/s2s/health/x%20y?q=${encodeURIComponent(AWKWARD).replaceAll("'", '%27')}&n=1.5&yes=true`,
    );
    const bare = await exchange(() => sdk.request({ method: 'GET', path: '/s2s/health' }));
    expect(bare).toEqual({
      method: 'GET',
      target: '/base/s2s/health',
      contentType: undefined,
      idempotencyKey: undefined,
      body: '',
    });
  });
});
