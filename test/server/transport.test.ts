/**
 * The node:http transport around msw handlers, with a few handlers of its own (the mock's behaviour is tested
 * elsewhere; here only what the server adds: the URL and body it builds, 404/500 problem+json, CORS, the log).
 */
import { request as httpRequest } from 'node:http';
import { HttpResponse, http } from 'msw';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveHandlers, type RunningHttpServer } from '../../mock-server/src/node/server.js';
import { loggablePath } from '../../mock-server/src/node/log.js';
import { createGuard } from '../../mock-server/src/node/guard.js';

const SECRET = 'super_secret_value_123';
const lines: string[] = [];
let server: RunningHttpServer;

beforeAll(async () => {
  const handlers = [
    http.all('*/echo/*', async ({ request }) =>
      HttpResponse.json(
        { url: request.url, method: request.method, body: Buffer.from(await request.arrayBuffer()).toString('base64') },
        { headers: { 'X-Request-Id': 'req-echo', 'Retry-After': '1', 'Idempotent-Replayed': 'true' } },
      ),
    ),
    http.get('*/boom', ({ request }) => {
      throw new Error(`exploded with ${SECRET} and ${request.headers.get('authorization') ?? ''}`);
    }),
    http.get('*/conflict', () =>
      HttpResponse.json(
        { type: 'about:blank', title: 'Conflict', status: 409, code: 'INVALID_TRANSITION' },
        { status: 409, headers: { 'Content-Type': 'application/problem+json', 'X-Request-Id': 'req-409' } },
      ),
    ),
  ];
  // MyHost.test is one of its names (as --allowed-host would make it), so that the URL test may send it as Host.
  const guard = createGuard({ host: '127.0.0.1', allowedHosts: ['MyHost.test'] });
  server = await serveHandlers(handlers, {
    port: 0,
    host: '127.0.0.1',
    log: (line) => lines.push(line),
    secrets: () => [SECRET],
    guard,
  });
});
afterAll(() => server.close());

/** A raw HTTP request, so that the test controls the exact request target and Host header. */
function raw(options: {
  method?: string;
  path: string;
  host?: string;
  headers?: Record<string, string>;
  body?: Buffer;
}) {
  return new Promise<{ status: number; headers: Record<string, string | string[] | undefined>; text: string }>(
    (resolve, reject) => {
      const req = httpRequest(
        {
          host: '127.0.0.1',
          port: server.port,
          method: options.method ?? 'GET',
          path: options.path,
          headers: { ...(options.host ? { Host: options.host } : {}), ...options.headers },
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () =>
            resolve({
              status: res.statusCode ?? 0,
              headers: res.headers,
              text: Buffer.concat(chunks).toString('utf8'),
            }),
          );
        },
      );
      req.on('error', reject);
      req.end(options.body);
    },
  );
}

describe('the request a handler sees', () => {
  it('has the URL http://<Host header><request target>, percent-encoding and case kept', async () => {
    const res = await raw({ path: '/echo/Some%20Path/%7Eid?Q=a%2Fb&x=Y', host: 'MyHost.test:4010' });
    expect(res.status).toBe(200);
    expect(JSON.parse(res.text).url).toBe('http://myhost.test:4010/echo/Some%20Path/%7Eid?Q=a%2Fb&x=Y');
  });

  it('carries the raw body bytes unchanged', async () => {
    const bytes = Buffer.from([0x7b, 0x22, 0xc3, 0xa9, 0x22, 0x7d, 0x00, 0xff, 0x0a]);
    const res = await raw({
      method: 'POST',
      path: '/echo/body',
      body: bytes,
      headers: { 'Content-Type': 'application/json' },
    });
    expect(Buffer.from(JSON.parse(res.text).body, 'base64')).toEqual(bytes);
  });
});

describe('what no handler answers', () => {
  it('is a 404 problem+json ROUTE_NOT_FOUND', async () => {
    const res = await raw({ path: '/nothing/here?x=1' });
    expect(res.status).toBe(404);
    expect(res.headers['content-type']).toBe('application/problem+json');
    const problem = JSON.parse(res.text);
    expect(problem).toMatchObject({ status: 404, code: 'ROUTE_NOT_FOUND', instance: '/nothing/here' });
    expect(res.headers['x-request-id']).toBe(problem.requestId);
  });

  it('an exception is a 500 INTERNAL_ERROR without stack or secret, logged on one line without secrets', async () => {
    const authorization =
      'HMAC-SHA256 test_key:c2lnbmF0dXJlc2lnbmF0dXJlc2lnbmF0dXJl:0123456789abcdef0123456789abcdef:1700000000';
    const res = await raw({ path: '/boom', headers: { Authorization: authorization } });
    expect(res.status).toBe(500);
    const problem = JSON.parse(res.text);
    expect(problem).toMatchObject({ status: 500, code: 'INTERNAL_ERROR' });
    expect(res.text).not.toMatch(/at |exploded|\.ts/);
    const line = lines.find((l) => l.includes(' /boom '));
    expect(line).toBeDefined();
    expect(line).toContain('500');
    expect(line).toContain('INTERNAL_ERROR');
    expect(line).toContain('exploded with [redacted]');
    expect(line).not.toContain(SECRET);
    expect(line).not.toContain('c2lnbmF0dXJlc2lnbmF0dXJlc2lnbmF0dXJl');
    expect(line).not.toContain('\n');
  });
});

describe('CORS for front-end dev servers', () => {
  it('answers a preflight from any localhost port with 204 and the headers the SDK sends', async () => {
    for (const origin of ['http://localhost:5173', 'http://127.0.0.1:3000', 'http://localhost']) {
      const res = await raw({
        method: 'OPTIONS',
        path: '/s2s/users',
        headers: {
          Origin: origin,
          'Access-Control-Request-Method': 'POST',
          'Access-Control-Request-Headers': 'authorization,content-type,idempotency-key',
        },
      });
      expect(res.status).toBe(204);
      expect(res.headers['access-control-allow-origin']).toBe(origin);
      const allowed = String(res.headers['access-control-allow-headers']).toLowerCase();
      for (const h of ['authorization', 'content-type', 'idempotency-key']) expect(allowed).toContain(h);
      expect(String(res.headers['access-control-allow-methods'])).toContain('POST');
    }
  });

  it("allows in a preflight the app's own headers the page asks for (traceparent, a tenant header)", async () => {
    const res = await raw({
      method: 'OPTIONS',
      path: '/s2s/users',
      headers: {
        Origin: 'http://localhost:5173',
        'Access-Control-Request-Method': 'GET',
        'Access-Control-Request-Headers': 'authorization, traceparent, x-tenant',
      },
    });
    expect(res.status).toBe(204);
    const allowed = String(res.headers['access-control-allow-headers']).toLowerCase().split(/,\s*/);
    expect(allowed).toEqual(expect.arrayContaining(['authorization', 'traceparent', 'x-tenant']));
    expect(allowed.filter((h) => h === 'authorization')).toHaveLength(1);
  });

  it('refuses a preflight from another origin', async () => {
    const res = await raw({
      method: 'OPTIONS',
      path: '/s2s/users',
      headers: { Origin: 'https://evil.example', 'Access-Control-Request-Method': 'POST' },
    });
    expect(res.status).toBe(403);
    expect(res.headers['access-control-allow-origin']).toBeUndefined();
    expect(JSON.parse(res.text).code).toBe('ORIGIN_NOT_ALLOWED');
  });

  it('reflects a localhost origin and exposes X-Request-Id, Retry-After and Idempotent-Replayed', async () => {
    const res = await raw({ path: '/echo/x', headers: { Origin: 'http://localhost:5173' } });
    expect(res.headers['access-control-allow-origin']).toBe('http://localhost:5173');
    expect(res.headers.vary).toContain('Origin');
    const exposed = String(res.headers['access-control-expose-headers']);
    for (const h of ['X-Request-Id', 'Retry-After', 'Idempotent-Replayed']) expect(exposed).toContain(h);
    const other = await raw({ path: '/echo/x', headers: { Origin: 'https://evil.example' } });
    expect(other.headers['access-control-allow-origin']).toBeUndefined();
  });
});

describe('the log', () => {
  it('has one line per request: method, path, status, time and the problem code', async () => {
    const before = lines.length;
    await raw({ path: '/echo/a' });
    await raw({ path: '/conflict' });
    await raw({ method: 'POST', path: '/nowhere' });
    const mine = lines.slice(before);
    expect(mine).toHaveLength(3);
    expect(mine[0]).toMatch(/^\S+Z GET \/echo\/a 200 \d+\.\dms req=req-echo$/);
    expect(mine[1]).toMatch(/^\S+Z GET \/conflict 409 \d+\.\dms INVALID_TRANSITION req=req-409$/);
    expect(mine[2]).toMatch(/^\S+Z POST \/nowhere 404 \d+\.\dms ROUTE_NOT_FOUND req=req_[0-9a-f]{16}$/);
  });

  it('shortens long query values (a public key) and never writes a secret-like parameter', async () => {
    const publicKey = 'MIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEA'.repeat(8);
    const before = lines.length;
    await raw({ path: `/echo/details?publicKey=${publicKey}&userId=u1&apiSecret=hunter2hunter2` });
    const line = lines[before]!;
    expect(line).toContain('/echo/details?publicKey=MIIBIjAN…(352 chars)&userId=u1&apiSecret=[redacted]');
    expect(line).not.toContain(publicKey);
    expect(line).not.toContain('hunter2');
    expect(loggablePath('/a')).toBe('/a');
  });
});
